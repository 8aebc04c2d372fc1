import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contract } from '@shared/contract';
import { readPopulationEvents } from '@shared/contract/audiences/population';

/** The schema the hand-written reader stands in for (POST /population/events). */
const schema = contract['population.events'].body!;

const valid = (n: number) => ({
  eventId: `e-${n}`,
  userExternalId: `u-${n}`,
  event: 'document.view',
  node: { label: 'Document', name: 'Guide HTA' },
  at: '2026-03-01T10:00:00Z',
});

// Pieces near every rule of the schema: padding, control characters, lengths at the bounds, wrong types, keys.
const text = (max: number) =>
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom(
      '',
      ' ',
      '  x  ',
      '\tx\n',
      'a\u0000b',
      'a\u007fb',
      'a\u0085b',
      'é "q" \\ ,{}',
      'x'.repeat(max),
      'x'.repeat(max + 1),
      ` ${'x'.repeat(max)} `,
    ),
    fc.constantFrom(null, 3, true, ['x'], { x: 1 }),
  );
const event = fc.constantFrom('document.view', 'search', 'advert.view', 'advert.click', 'quiz.view', 'quiz.answered', 'Document.view', '', 7);
const label = fc.constantFrom('Document', 'Keyword', 'Advert', 'Feed', 'constructor', 'toString', null);
const at = fc.constantFrom(
  '2026-03-01T10:00:00Z',
  '2026-03-01T10:00:00.123456+02:00',
  '2026-02-29T10:00:00Z',
  '2026-03-01T10:00:00',
  '2026-03-01 10:00:00Z',
  ' 2026-03-01T10:00:00Z',
  1_772_000_000_000,
);
const node = fc.oneof(
  fc.record({ label, name: text(300) }),
  fc.record({ label, name: text(300), extra: fc.constant(1) }),
  fc.record({ label }),
  fc.constantFrom(null, 'Document', [] as unknown[]),
);
// A valid row with one or two of its parts replaced: every rule is met by all the others, so each one is tried alone.
const part = fc.oneof(
  fc.record({ key: fc.constant('eventId'), value: text(200) }),
  fc.record({ key: fc.constant('userExternalId'), value: text(200) }),
  fc.record({ key: fc.constant('event'), value: event }),
  fc.record({ key: fc.constant('node'), value: node }),
  fc.record({ key: fc.constant('at'), value: at }),
  fc.record({ key: fc.constant('other'), value: fc.constant('x') }),
  fc.record({ key: fc.constantFrom('eventId', 'node', 'at'), value: fc.constant(undefined) }),
);
const row = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(fc.nat(1000), fc.array(part, { minLength: 1, maxLength: 2 })).map(([n, parts]) => {
      const mutated: Record<string, unknown> = valid(n);
      for (const { key, value } of parts) {
        if (value === undefined) delete mutated[key];
        else mutated[key] = value;
      }
      return mutated;
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, 'row', 3, [] as unknown[]) },
);

describe('POST /population/events body read by hand', () => {
  it('answers what the schema answers, or nothing (the schema then decides and words the error)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 3, arbitrary: fc.nat(1000).map(valid) }, { weight: 1, arbitrary: row }), { maxLength: 6 }), (body) => {
        const read = readPopulationEvents(body);
        const parsed = schema.safeParse(body);
        if (read !== undefined) {
          expect(parsed.success).toBe(true);
          expect(read).toStrictEqual(parsed.data);
        } else if (
          body.every(
            (item) => typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).join() === Object.keys(valid(0)).join(),
          )
        ) {
          // Rows shaped like valid ones: the reader refuses only what the schema refuses (no needless slow path).
          expect(parsed.success && body.length > 0).toBe(false);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a plain batch itself, trimmed like the schema, and leaves empty or oversized bodies to it', () => {
    const body = Array.from({ length: 50_000 }, (_, n) => valid(n));
    expect(readPopulationEvents(body)).toStrictEqual(schema.parse(body));
    expect(readPopulationEvents([{ ...valid(1), eventId: '  e-1 ', node: { label: 'Keyword', name: ' diabète ' }, event: 'search' }])).toStrictEqual([
      { eventId: 'e-1', userExternalId: 'u-1', event: 'search', node: { label: 'Keyword', name: 'diabète' }, at: '2026-03-01T10:00:00Z' },
    ]);
    expect(readPopulationEvents([])).toBeUndefined();
    expect(readPopulationEvents([...body, valid(50_000)])).toBeUndefined();
    expect(readPopulationEvents({ 0: valid(0) })).toBeUndefined();
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, type Operation, type OperationId } from '@shared/contract';
import { contractExamples } from '../fixtures/contract-examples';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Dates and numbers at their limits, in every field of every operation that has one (docs/security.md: year 0 in
 * an ingested date answered a 500). The fields are found in the contract's own schemas (their JSON Schema: numbers,
 * integers, date-times), so a new operation is covered without touching this file; each is set in the operation's
 * example input (tests/fixtures/contract-examples) to year 0, year 9999, 1e20, -1e20, 2^31, NaN-ish strings...
 *
 * Every value the contract accepts is sent (those are the ones that reach the handlers and the database): the
 * answer is a success or a 4xx, never a 5xx. Of the values it refuses, fast-check sends a sample: a French 4xx.
 */

type Part = 'params' | 'query' | 'body';
type Path = (string | number)[];
interface Field {
  part: Part;
  path: Path;
  kind: 'number' | 'date-time' | 'date';
}

/** A JSON number that JSON.stringify cannot write (1e400 reads back as Infinity): spliced into the raw body. */
class RawNumber {
  constructor(readonly text: string) {}
  get value(): number {
    return Number(this.text);
  }
}

const NUMBER_LIMITS: unknown[] = [
  0,
  -0,
  -1,
  1.5,
  0.1,
  5e-324,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53 + 2,
  1e20,
  -1e20,
  1e308,
  -1e308,
  // Year 0 and year 9999 as epoch seconds and milliseconds.
  -62_167_219_200,
  253_402_300_799,
  -62_167_219_200_000,
  253_402_300_799_000,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e20',
  '2147483648',
  '',
  ' 1',
  '0x10',
  new RawNumber('1e400'),
  new RawNumber('-1e400'),
  new RawNumber('1e-400'),
];
const DATE_LIMITS: unknown[] = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '2100-01-01T00:00:01Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-23:59',
  '0000-01-01T00:00:00+23:59',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2024-02-29T00:00:00Z',
  '2026-02-29T00:00:00Z',
  '2026-01-01T00:00:00.123456789Z',
  '0000-01-01',
  '9999-12-31',
  'NaN',
  'Infinity',
  '',
  0,
  -1,
  1e20,
  -1e20,
  253_402_300_799_000,
];
/** Path and query values are text. */
const TEXT_NUMBER_LIMITS = [
  '0',
  '-0',
  '-1',
  '1.5',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e20',
  '-1e20',
  '99999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  ' 1',
];
const TEXT_DATE_LIMITS = ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0000-01-01', '9999-12-31', '-000001-01-01T00:00:00Z', 'NaN', '1e20', '0'];

/** The number and date fields of a part of an operation, from the JSON Schema of its input. */
function fieldsOf(part: Part, schema: z.ZodType): Field[] {
  const found: Field[] = [];
  const walk = (node: any, path: Path, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 12) return;
    for (const alternative of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) walk(alternative, path, depth + 1);
    if (node.type === 'number' || node.type === 'integer') found.push({ part, path, kind: 'number' });
    if (node.type === 'string' && (node.format === 'date-time' || node.format === 'date')) found.push({ part, path, kind: node.format });
    if (node.properties) for (const [key, value] of Object.entries(node.properties)) walk(value, [...path, key], depth + 1);
    if (node.items) walk(node.items, [...path, 0], depth + 1);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), [], 0);
  return [...new Map(found.map((field) => [`${field.kind} ${field.path.join('.')}`, field])).values()];
}

type Input = Partial<Record<Part, unknown>>;

/** The example with `value` at `path` of `part`, creating the objects and arrays on the way. */
function withValue(example: Input, field: Field, value: unknown): Input {
  const input = structuredClone(example) as Record<Part, unknown>;
  if (field.path.length === 0) {
    input[field.part] = value;
    return input;
  }
  input[field.part] ??= typeof field.path[0] === 'number' ? [] : {};
  let node = input[field.part] as Record<string | number, unknown>;
  field.path.forEach((key, index) => {
    if (index === field.path.length - 1) {
      node[key] = value;
      return;
    }
    const next = field.path[index + 1];
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = typeof next === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return input;
}

/** What the server reads of the input: raw numbers as JSON would read them back. */
function asRead(value: unknown): unknown {
  if (value instanceof RawNumber) return value.value;
  if (Array.isArray(value)) return value.map(asRead);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asRead(inner)]));
  return value;
}

function acceptedByContract(operation: Operation, input: Input): boolean {
  const read = asRead(input) as Input;
  return (['params', 'query', 'body'] as const).every(
    (part) => !operation[part] || operation[part]!.safeParse(read[part] ?? (part === 'body' ? undefined : {})).success,
  );
}

function describeValue(value: unknown): string {
  return value instanceof RawNumber ? value.text : JSON.stringify(value);
}

const examples = contractExamples;
let server: TestServer;
let adminToken: string;

beforeAll(async () => {
  server = await startTestServer({
    config: { maxFailuresPerAddress: 1e9, maxFailuresPerUsername: 1e9, maxFailuresPerUsernameAndAddress: 1e9, maxResetRequestsPerAddress: 1e9 },
  });
  adminToken = (await server.signIn(['ADMIN'])).accessToken.value;
  // The app user the examples name (ext-1), so that an accepted event date reaches the database.
  const users = await server.request('POST', '/population/users', { token: adminToken, body: examples['population.users']!.body });
  expect(users.status, JSON.stringify(users.body)).toBe(200);
});
afterAll(() => server?.close());

async function send(operation: Operation, input: Input) {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? 1)));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>))
    search.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  const query = search.toString();
  // Raw numbers are written as themselves, where JSON.stringify would write a string or null.
  const raws: string[] = [];
  const body =
    operation.method === 'GET' || input.body === undefined
      ? undefined
      : JSON.stringify(input.body, (_, value) => (value instanceof RawNumber ? `\u0000raw${raws.push(value.text) - 1}` : value)).replace(
          /"\\u0000raw(\d+)"/g,
          (_, index: string) => raws[Number(index)],
        );
  return server.request(operation.method, query ? `${path}?${query}` : path, {
    token: operation.access.kind === 'public' ? undefined : adminToken,
    body,
  });
}

/** English words of zod's or fastify's own messages: a validation answer must be the contract's French. */
const ENGLISH = /\b(Invalid|Expected|expected|Too (big|small)|must|Unrecognized|Required|received)\b/;

function expectNoServerError(response: { status: number; body: any }, what: string) {
  expect(response.status, `${what} → ${response.status} ${JSON.stringify(response.body)}`).toBeLessThan(500);
  if (response.status >= 400) {
    expect(typeof response.body?.errorMsg, what).toBe('string');
    expect(response.body.errorMsg, what).not.toMatch(ENGLISH);
  }
}

describe('dates and numbers at their limits never cause a 5xx', () => {
  const entries = (Object.entries(contract) as [OperationId, Operation][]).filter(([, operation]) => !operation.multipart);

  for (const [id, operation] of entries) {
    const fields = (['params', 'query', 'body'] as const).flatMap((part) => (operation[part] ? fieldsOf(part, operation[part]!) : []));
    if (!fields.length) continue;
    const example = (examples[id] ?? {}) as Input;
    const cases = fields.flatMap((field) => {
      const text = field.part !== 'body';
      const values = field.kind === 'number' ? (text ? TEXT_NUMBER_LIMITS : NUMBER_LIMITS) : text ? TEXT_DATE_LIMITS : DATE_LIMITS;
      return values.map((value) => ({ field, value, input: withValue(example, field, value) }));
    });
    const accepted = cases.filter((sample) => acceptedByContract(operation, sample.input));
    const refused = cases.filter((sample) => !accepted.includes(sample));
    const name = (sample: (typeof cases)[number]) =>
      `${id} with ${sample.field.part}.${sample.field.path.join('.')} = ${describeValue(sample.value)}`;

    it(`${id}: ${fields.map((field) => `${field.part}.${field.path.join('.')}`).join(', ')} at their limits → success or 4xx`, async () => {
      for (const sample of accepted) expectNoServerError(await send(operation, sample.input), name(sample));
      if (!refused.length) return;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...refused), async (sample) => {
          const response = await send(operation, sample.input);
          expectNoServerError(response, name(sample));
          expect(response.status, name(sample)).toBeGreaterThanOrEqual(400);
        }),
        { numRuns: 12 },
      );
    }, 120_000);
  }

  it('finds the fields: ingestion dates, advert epoch dates, project date filters, ids', () => {
    const all = Object.fromEntries(
      entries.map(([id, operation]) => [
        id,
        (['params', 'query', 'body'] as const)
          .flatMap((part) => (operation[part] ? fieldsOf(part, operation[part]!) : []))
          .map((field) => `${field.part}.${field.path.join('.')}`),
      ]),
    );
    expect(all['population.users']).toContain('body.0.createdAt');
    expect(all['population.events']).toContain('body.0.at');
    expect(all['adverts.create']).toContain('body.advert.autoStartAt');
    expect(all['projects.list']).toContain('body.startDate.from');
    expect(all['targets.update']).toContain('body.startDate');
    expect(all['audiences.get']).toContain('params.id');
  });
});

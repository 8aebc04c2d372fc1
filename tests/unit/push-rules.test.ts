import { describe, expect, it } from 'vitest';
import {
  clauseCriteria,
  parseClause,
  PUSH_MAX_ATTEMPTS,
  pushIterations,
  pushRetryDelay,
  targetingCriteria,
  targetingSummary,
  type PushWhere,
} from '@shared/rules/push';

const where = (patch: Partial<PushWhere> = {}): PushWhere => ({
  area: 'french',
  professions: [],
  specialties: [''],
  titles: [''],
  os: [''],
  expert: 'all',
  ...patch,
});
const token = { kind: 'is', label: 'PushToken', value: 'any' } as const;

describe('push rules (platform.md §4, §5)', () => {
  it('iterations: 0 for 0, 1 up to the batch size, else rounded up', () => {
    expect([0, 1, 999, 1000, 1001, 3500, 10_000, 10_001].map((count) => pushIterations(count))).toEqual([0, 1, 1, 1, 2, 4, 10, 11]);
    expect(pushIterations(5, 2)).toBe(3);
    expect(pushIterations(-3)).toBe(0);
  });

  it('retries a failing batch after 5, 10, 20 and 40 s, then the fifth failure ends the campaign', () => {
    expect(Array.from({ length: PUSH_MAX_ATTEMPTS - 1 }, (_, index) => pushRetryDelay(index + 1))).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(PUSH_MAX_ATTEMPTS).toBe(5);
  });

  it('targeting → criteria: area, in-lists, first empty entry skipped, experts, token required', () => {
    expect(targetingCriteria(where())).toEqual({ kind: 'all', of: [token, { kind: 'is', label: 'Area', value: 'french' }] });
    const full = targetingCriteria(
      where({ professions: [2, 4], specialties: [1], titles: ['DOCTOR'], os: ['iOS', 'Android'], expert: 'not-experts' }),
    );
    expect(full).toEqual({
      kind: 'all',
      of: [
        token,
        { kind: 'is', label: 'Area', value: 'french' },
        {
          kind: 'any',
          of: [
            { kind: 'is', label: 'Profession', value: '2' },
            { kind: 'is', label: 'Profession', value: '4' },
          ],
        },
        { kind: 'any', of: [{ kind: 'is', label: 'Specialty', value: '1' }] },
        { kind: 'any', of: [{ kind: 'is', label: 'Title', value: 'DOCTOR' }] },
        {
          kind: 'any',
          of: [
            { kind: 'is', label: 'Os', value: 'iOS' },
            { kind: 'is', label: 'Os', value: 'Android' },
          ],
        },
        { kind: 'not', of: { kind: 'is', label: 'Role', value: 'ROLE_EXPERT' } },
      ],
    });
    // Skipped when the FIRST entry is empty, whatever follows (spec §5).
    expect(targetingCriteria(where({ titles: ['', 'DOCTOR'], os: [''] }))).toEqual({
      kind: 'all',
      of: [token, { kind: 'is', label: 'Area', value: 'french' }],
    });
    expect(targetingSummary(where({ professions: [2], expert: 'experts', clause: "os = 'iOS'" }), { professions: new Map([[2, 'Médecin']]) })).toBe(
      "french · Médecin · experts · os = 'iOS'",
    );
  });

  it('clause: parsed into the same criteria, NOT pushed down to the comparisons, appended with AND', () => {
    // not (a or b) is (not a) and (not b): the negated `!=` becomes `=`, the negated `in` a `not` of its list.
    const parsed = parseClause("role = 'ROLE_USER' and not (zip in ('75', '92') or os != 'iOS')");
    expect(parsed).toEqual({
      ok: true,
      criteria: {
        kind: 'all',
        of: [
          { kind: 'is', label: 'Role', value: 'ROLE_USER' },
          {
            kind: 'all',
            of: [
              {
                kind: 'not',
                of: {
                  kind: 'any',
                  of: [
                    { kind: 'is', label: 'Zip', value: '75' },
                    { kind: 'is', label: 'Zip', value: '92' },
                  ],
                },
              },
              { kind: 'is', label: 'Os', value: 'iOS' },
            ],
          },
        ],
      },
    });
    // A long chain is one list, read without recursion along it.
    const long = parseClause(Array.from({ length: 200 }, (_, index) => `zip = '${index}'`).join(' or '));
    expect(long).toMatchObject({ ok: true, criteria: { kind: 'any' } });
    expect(long.ok && long.criteria?.kind === 'any' && long.criteria.of.length).toBe(200);
    expect(parseClause('   ')).toEqual({ ok: true, criteria: null });
    expect(parseClause('profession not in (2, 4)')).toMatchObject({ ok: true, criteria: { kind: 'not', of: { kind: 'any' } } });
    const appended = targetingCriteria(
      where(),
      clauseCriteria({ kind: 'compare', field: 'feed', operator: '=', value: { kind: 'literal', value: 'Oncologie' } }),
    );
    expect(appended).toMatchObject({ kind: 'all', of: [token, { label: 'Area' }, { kind: 'is', label: 'Feed', value: 'Oncologie' }] });
  });

  it('clause: a mistake is a French message with its position; parameters and unknown fields are refused', () => {
    expect(parseClause("os = 'iOS' and")).toMatchObject({ ok: false, position: 15, message: expect.stringContaining('Erreur à la position 15') });
    expect(parseClause('os == 1')).toMatchObject({ ok: false, position: 5 });
    expect(parseClause('password = 1')).toMatchObject({ ok: false, position: 1, message: expect.stringContaining('champ inconnu « password »') });
    expect(parseClause('os = :value')).toMatchObject({ ok: false, position: 6, message: expect.stringContaining(':value') });
  });

  it("clause: injection attempts stay values ('; DROP TABLE …)", () => {
    expect(parseClause("workplace = '''; DROP TABLE app_users; --'")).toEqual({
      ok: true,
      criteria: { kind: 'is', label: 'Workplace', value: "'; DROP TABLE app_users; --" },
    });
    expect(parseClause("area = 'french' or 1=1")).toMatchObject({ ok: false });
    expect(parseClause("area = 'french'; DROP TABLE app_users")).toMatchObject({ ok: false, position: 16 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDeadlock, retryingDeadlockOnce } from '../../src-server/features/audiences/population';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Inputs of the population feed that answered 500. Dates outside what the database and the
 * engine can hold are a French 400; concurrent upserts of the same new users never deadlock into a 500.
 */

const INGEST_TOKEN = 'ingest-token-for-limit-tests-0123456789';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { ingestToken: INGEST_TOKEN } });
});
afterAll(() => server?.close());

const ingest = (path: 'users' | 'events', body: unknown) => server.request('POST', `/population/${path}`, { token: INGEST_TOKEN, body });
const user = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  email: `${externalId}@example.org`,
  name: externalId,
  area: 'french',
  ...extra,
});
const event = (eventId: string, at: string) => ({
  eventId,
  userExternalId: 'dated-user',
  event: 'document.view',
  node: { label: 'Document', name: 'Guide' },
  at,
});

/** Outside 1970–2100: year 0 (PostgreSQL has no year 0), year 9999, just before and just after the bounds. */
const OUT_OF_RANGE = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '1970-01-01T00:30:00+01:00',
  '2100-01-01T00:00:01Z',
  '9999-12-31T23:59:59Z',
];
const IN_RANGE = ['1970-01-01T00:00:00Z', '2024-02-29T12:00:00.123456Z', '2100-01-01T00:00:00Z'];

/** A French validation message naming the row and the field. */
function expectFrenchDateError(response: { status: number; body: any }, field: string, what: string) {
  expect(response.status, what).toBe(400);
  expect(response.body.errorMsg, what).toBe(`Élément 0 — ${field} : date attendue entre 1970 et 2100`);
}

describe('ingested dates are bounded', () => {
  it('a user createdAt outside 1970–2100 is a French 400, inside it is stored', async () => {
    for (const createdAt of OUT_OF_RANGE) {
      expectFrenchDateError(await ingest('users', [user('dated-user', { createdAt })]), 'Création', createdAt);
    }
    for (const [index, createdAt] of IN_RANGE.entries()) {
      const response = await ingest('users', [user(`in-range-${index}`, { createdAt })]);
      expect(response.status, `${createdAt}: ${JSON.stringify(response.body)}`).toBe(200);
    }
  });

  it('an event at outside 1970–2100 is a French 400, inside it is stored', async () => {
    expect((await ingest('users', [user('dated-user')])).status).toBe(200);
    for (const at of OUT_OF_RANGE) {
      expectFrenchDateError(await ingest('events', [event(`out-${at}`, at)]), 'at', at);
      // Also further down a batch (the hand-written body reader must refuse it like the schema).
      const batch = [event(`ok-${at}`, '2026-01-05T10:00:00Z'), event(`out2-${at}`, at)];
      const response = await ingest('events', batch);
      expect(response.status, at).toBe(400);
      expect(response.body.errorMsg, at).toBe('Élément 1 — at : date attendue entre 1970 et 2100');
    }
    for (const at of IN_RANGE) {
      const response = await ingest('events', [event(`in-${at}`, at)]);
      expect(response.status, `${at}: ${JSON.stringify(response.body)}`).toBe(200);
    }
  });
});

describe('concurrent upserts of the same users', () => {
  /** A deterministic shuffle (the same run every time). */
  function shuffled<T>(list: T[], seed: number): T[] {
    const copy = [...list];
    let state = seed;
    for (let index = copy.length - 1; index > 0; index -= 1) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      const other = state % (index + 1);
      [copy[index], copy[other]] = [copy[other], copy[index]];
    }
    return copy;
  }

  it('four calls with the same 2,000 new ids in different orders all succeed (PostgreSQL answered deadlock detected, a 500, to 12 of 20)', async () => {
    // PGlite has one connection (requests queue, nothing to deadlock): one round there keeps the suite quick.
    const rounds = process.env.TEST_DATABASE_URL ? 5 : 1;
    for (let round = 0; round < rounds; round += 1) {
      const users = Array.from({ length: 2_000 }, (_, index) =>
        user(`concurrent-${round}-${String(index).padStart(4, '0')}`, {
          zipcode: String(10_000 + (index % 500)),
          professionId: 1 + (index % 7),
          roles: ['ROLE_EXPERT'],
        }),
      );
      const orders = [users, [...users].reverse(), shuffled(users, 1 + round), shuffled(users, 100 + round)];
      const answers = await Promise.all(orders.map((body) => ingest('users', body)));
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answers.reduce((sum, answer) => sum + answer.body.inserted, 0)).toBe(2_000);
      expect(answers.reduce((sum, answer) => sum + answer.body.updated, 0)).toBe(6_000);
    }
  }, 120_000);

  /** As node-postgres reports it, wrapped by drizzle. */
  const deadlock = () => Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }) });

  it('a transaction chosen as a deadlock victim runs once more, and only once', async () => {
    expect(isDeadlock(deadlock())).toBe(true);
    expect(isDeadlock(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    let runs = 0;
    await expect(retryingDeadlockOnce(async () => (++runs === 1 ? Promise.reject(deadlock()) : 'done'))).resolves.toBe('done');
    expect(runs).toBe(2);
    runs = 0;
    await expect(retryingDeadlockOnce(async () => (++runs, Promise.reject(deadlock())))).rejects.toThrow('Failed query');
    expect(runs).toBe(2);
    runs = 0;
    await expect(retryingDeadlockOnce(async () => (++runs, Promise.reject(new Error('other'))))).rejects.toThrow('other');
    expect(runs).toBe(1);
  });
});

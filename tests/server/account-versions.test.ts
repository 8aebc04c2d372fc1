import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { accounts } from '../../src-server/db/schema';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Two administrators on one staff account (docs/architecture.md, "Versions and conflicts"): the update, the roles
 * and the delete name the version they were based on; a stale one changes nothing and answers 409 naming who
 * changed the account and when, with the account as it is now. Without a version they stay last-write-wins.
 */

let server: TestServer;
const admins: { token: string; name: string }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  for (let index = 0; index < 2; index += 1) {
    const session = await server.signIn(['ADMIN']);
    const [row] = await server.database.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.email, session.email));
    admins.push({ token: session.accessToken.value, name: row.name });
  }
});
afterAll(() => server?.close());

const as = (who: number, method: string, path: string, body?: unknown) => server.request(method, path, { token: admins[who].token, body });
const changedBy = (name: string) => new RegExp(`^${CONFLICT_MESSAGES.recordChanged('account', name, 'HH:MM').replace('HH:MM', '\\d{2}:\\d{2}')}$`);

async function createdAccount(email: string) {
  const answer = await as(0, 'POST', '/admin/accounts', { name: 'Léa Petit', username: email, nickname: 'lea', roles: ['CSM'] });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  expect(answer.body.version).toBe(1);
  return answer.body as { id: number; version: number };
}

describe('account versions', () => {
  it('refuses an update based on an older version with who changed it, and takes it once based on theirs', async () => {
    const { id } = await createdAccount('lea.versions@example.com');
    const fields = { username: 'lea.versions@example.com', nickname: 'lea' };
    const mine = await as(0, 'PUT', `/admin/accounts/${id}`, { ...fields, name: 'Léa Petit-Martin', version: 1 });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.version).toBe(2);

    const theirs = await as(1, 'PUT', `/admin/accounts/${id}`, { ...fields, name: 'Léa Martin', version: 1 });
    expect(theirs.status).toBe(409);
    expect(theirs.body.errorMsg).toMatch(changedBy(admins[0].name));
    expect(theirs.body.conflict).toMatchObject({ version: 2, updatedBy: admins[0].name, current: { name: 'Léa Petit-Martin', version: 2 } });
    expect((await as(1, 'GET', '/admin/accounts?term=lea.versions')).body.items[0]).toMatchObject({ name: 'Léa Petit-Martin', version: 2 });

    const retried = await as(1, 'PUT', `/admin/accounts/${id}`, { ...fields, name: 'Léa Martin', version: 2 });
    expect(retried.body).toMatchObject({ name: 'Léa Martin', version: 3 });
    // An older caller without a version: last write wins, the version still moves.
    const blind = await as(0, 'PUT', `/admin/accounts/${id}`, { ...fields, name: 'Léa P.' });
    expect(blind.body).toMatchObject({ name: 'Léa P.', version: 4 });
  });

  it('refuses roles and a delete based on an older version, and deletes once based on the current one', async () => {
    const { id } = await createdAccount('lea.roles@example.com');
    expect((await as(0, 'PUT', `/admin/accounts/${id}/roles`, { roles: ['CSM', 'SALES'], version: 1 })).body.version).toBe(2);
    const roles = await as(1, 'PUT', `/admin/accounts/${id}/roles`, { roles: ['CSM_LEAD'], version: 1 });
    expect(roles.status).toBe(409);
    expect(roles.body.errorMsg).toMatch(changedBy(admins[0].name));
    expect(roles.body.conflict.current.roles).toEqual(['CSM', 'SALES']);

    const deleted = await as(1, 'POST', `/admin/accounts/${id}/delete?version=1`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.errorMsg).toMatch(changedBy(admins[0].name));
    expect((await as(1, 'GET', '/admin/accounts?term=lea.roles')).body.total).toBe(1);
    expect((await as(1, 'POST', `/admin/accounts/${id}/delete?version=2`)).body).toEqual({ ok: true });
    expect((await as(1, 'GET', '/admin/accounts?term=lea.roles')).body.total).toBe(0);
  });
});

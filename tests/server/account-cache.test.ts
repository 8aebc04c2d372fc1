import { afterEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { MESSAGES } from '@shared/messages';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import type { ManualClock } from '../helpers/clock';
import { throwAwayPostgresDatabase } from '../helpers/database';
import { startTestServer, tokenFromMail, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * The guard keeps the accounts it read a few seconds (src-server/auth/account-cache.ts), so that on PGlite a call
 * does not wait behind a write for its guard's query. A change made through the API holds at the next request all
 * the same. The TTL is set to a minute here: what takes effect does so because the cache was told, not because it
 * expired.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(): Promise<TestServer> {
  const started = await startTestServer({ config: { accountCacheTtlMs: 60_000 } });
  servers.push(started);
  return started;
}

describe('the guard cache', () => {
  it('answers from the cache: a role written behind the API’s back is not seen within the TTL', async () => {
    const api = await server();
    const csm = await api.signIn(['CSM']);
    const id = (await api.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, csm.email)))[0].id;
    expect((await api.request('GET', '/csv/list', { token: csm.accessToken.value })).status).toBe(200);
    await api.database.db
      .update(accounts)
      .set({ roles: ['SALES'] })
      .where(eq(accounts.id, id));
    expect((await api.request('GET', '/csv/list', { token: csm.accessToken.value })).status).toBe(200);
    api.app.context.accountCache.changed(id);
    expect((await api.request('GET', '/csv/list', { token: csm.accessToken.value })).status).toBe(403);
  });

  it('takes a role removed through the API at the next request', async () => {
    const api = await server();
    const admin = await api.signIn(['ADMIN']);
    const csm = await api.signIn(['CSM']);
    const [{ id }] = await api.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, csm.email));
    expect((await api.request('GET', '/csv/list', { token: csm.accessToken.value })).status).toBe(200);
    const changed = await api.request('PUT', `/admin/accounts/${id}/roles`, { token: admin.accessToken.value, body: { roles: ['SALES'] } });
    expect(changed.status).toBe(200);
    const refused = await api.request('GET', '/csv/list', { token: csm.accessToken.value });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMsg).toBe(MESSAGES.userNotAllowed);
    // And a role given back lets it in at once too.
    await api.request('PUT', `/admin/accounts/${id}/roles`, { token: admin.accessToken.value, body: { roles: ['CSM'] } });
    expect((await api.request('GET', '/csv/list', { token: csm.accessToken.value })).status).toBe(200);
  });

  it('answers 401 at once to a deleted account', async () => {
    const api = await server();
    const admin = await api.signIn(['ADMIN']);
    const csm = await api.signIn(['CSM']);
    const [{ id }] = await api.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, csm.email));
    expect((await api.request('GET', '/meta', { token: csm.accessToken.value })).status).toBe(200);
    expect((await api.request('POST', `/admin/accounts/${id}/delete`, { token: admin.accessToken.value })).status).toBe(200);
    const refused = await api.request('GET', '/meta', { token: csm.accessToken.value });
    expect(refused.status).toBe(401);
    expect(refused.body.errorMsg).toBe(MESSAGES.invalidToken);
  });

  it('ends the sessions signed in before a password change at the next request', async () => {
    const api = await server();
    const csm = await api.signIn(['CSM']);
    expect((await api.request('GET', '/meta', { token: csm.accessToken.value })).status).toBe(200);
    await api.request('POST', '/password/reset', { body: { username: csm.email } });
    const mail = await api.lastMail(csm.email);
    const confirmed = await api.request('POST', '/password/confirm', {
      body: { confirmationToken: tokenFromMail(mail!.body), password: 'a brand new password 2026' },
    });
    expect(confirmed.status).toBe(200);
    expect((await api.request('GET', '/meta', { token: csm.accessToken.value })).status).toBe(401);
    const again = await api.request('POST', '/authenticate', { body: { username: csm.email, password: 'a brand new password 2026' } });
    expect((await api.request('GET', '/meta', { token: again.body.accessToken.value })).status).toBe(200);
  });

  it('ends a sign-in whose refresh token came back after its rotation (reuse) at the next request', async () => {
    const api = await server();
    const csm = await api.signIn(['CSM']);
    expect((await api.request('GET', '/meta', { token: csm.accessToken.value })).status).toBe(200);
    const rotated = await api.request('POST', '/authenticate/refresh', { body: { token: csm.refreshToken.value } });
    expect(rotated.status).toBe(200);
    expect((await api.request('GET', '/meta', { token: rotated.body.accessToken.value })).status).toBe(200);
    // Past the grace window, the first refresh token used again is taken for a stolen copy.
    (api.clock as ManualClock).advance(60_000);
    expect((await api.request('POST', '/authenticate/refresh', { body: { token: csm.refreshToken.value } })).status).toBe(401);
    expect((await api.request('GET', '/meta', { token: rotated.body.accessToken.value })).status).toBe(401);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the guard cache across instances (PostgreSQL)', () => {
  const handles: DatabaseHandle[] = [];
  const apps: App[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const handle of handles.splice(0)) await handle.close();
    await drop?.();
  });

  it('forgets an account another instance changed (NOTIFY), long before the TTL', async () => {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL!);
    drop = database.drop;
    const urls: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const handle = await openDatabase({ url: database.url });
      handles.push(handle);
      const app = await buildApp({
        db: handle.db,
        dbKind: handle.kind,
        logger: pino({ level: 'silent' }),
        jwtSecret: 'same-secret',
        config: { accountCacheTtlMs: 10 * 60_000 },
      });
      apps.push(app);
      urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
    }
    const { hashPassword } = await import('../../src-server/auth/passwords');
    const passwordHash = await hashPassword(TEST_PASSWORD);
    await handles[0].db.insert(accounts).values([
      { name: 'Admin', email: 'admin@cache.test', roles: ['ADMIN'], passwordHash },
      { name: 'Csm', email: 'csm@cache.test', roles: ['CSM'], passwordHash },
    ]);
    const signIn = async (username: string) =>
      (
        (await (
          await fetch(`${urls[0]}/authenticate`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password: TEST_PASSWORD }),
          })
        ).json()) as { accessToken: { value: string } }
      ).accessToken.value;
    const admin = await signIn('admin@cache.test');
    const csm = await signIn('csm@cache.test');
    const meta = (url: string) => fetch(`${url}/meta`, { headers: { authorization: `Bearer ${csm}` } }).then((response) => response.status);
    expect(await meta(urls[1])).toBe(200);
    const [{ id }] = (
      (await handles[0].db.execute(sql`SELECT id FROM accounts WHERE email = 'csm@cache.test'`)) as unknown as { rows: { id: number }[] }
    ).rows;
    const deleted = await fetch(`${urls[0]}/admin/accounts/${id}/delete`, { method: 'POST', headers: { authorization: `Bearer ${admin}` } });
    expect(deleted.status).toBe(200);
    expect(await meta(urls[0])).toBe(401);
    // The other instance is told through PostgreSQL: it refuses the account once the notification arrives.
    let status = await meta(urls[1]);
    const deadline = Date.now() + 10_000;
    while (status !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await meta(urls[1]);
    }
    expect(status).toBe(401);
  });
});

import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES, SETUP_MESSAGES } from '@shared/messages';
import { startTestServer, type TestServer } from '../helpers/server';

const TOKEN = 'jeton-de-cette-ouverture-0123456789';
const admin = { name: '  Alice Admin ', username: 'Alice@Exemple.fr', password: 'un mot de passe solide 2026' };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('first start: the administrator chosen at the desk', () => {
  it('is offered only on an empty installation, and only where the host gave a setup token', async () => {
    server = await startTestServer({ config: { setupToken: TOKEN } });
    expect((await server.request('GET', '/setup')).body).toEqual({ needed: true, available: true });
    await server.close();

    server = await startTestServer();
    expect((await server.request('GET', '/setup')).body).toEqual({ needed: true, available: false });
    const refused = await server.request('POST', '/setup/admin', { body: { ...admin, setupToken: TOKEN } });
    expect(refused.status).toBe(404);
    expect(refused.body.errorMsg).toBe(SETUP_MESSAGES.unavailable);
  });

  it('refuses a wrong token and a weak password, then creates exactly one ADMIN that can sign in', async () => {
    server = await startTestServer({ config: { setupToken: TOKEN } });
    const wrong = await server.request('POST', '/setup/admin', { body: { ...admin, setupToken: `${TOKEN}x` } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errorMsg).toBe(SETUP_MESSAGES.badSetupToken);

    const weak = await server.request('POST', '/setup/admin', { body: { ...admin, password: 'password', setupToken: TOKEN } });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ errorMsg: MESSAGES.passwordTooCommon, field: 'password' });

    const blank = await server.request('POST', '/setup/admin', { body: { ...admin, name: '   ', setupToken: TOKEN } });
    expect(blank.status).toBe(400);
    expect(blank.body.field).toBe('name');

    const created = await server.request('POST', '/setup/admin', { body: { ...admin, setupToken: TOKEN } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Alice Admin', roles: ['ADMIN'] });

    const signIn = await server.request('POST', '/authenticate', { body: { username: 'alice@exemple.fr', password: admin.password } });
    expect(signIn.status).toBe(200);
    expect(signIn.body.roles).toEqual(['ADMIN']);

    const again = await server.request('POST', '/setup/admin', { body: { ...admin, username: 'mallory@exemple.fr', setupToken: TOKEN } });
    expect(again.status).toBe(409);
    expect(again.body.errorMsg).toBe(SETUP_MESSAGES.alreadyDone);
    expect((await server.request('GET', '/setup')).body).toEqual({ needed: false, available: true });
  });

  it('creates one administrator when several calls race', async () => {
    server = await startTestServer({ config: { setupToken: TOKEN } });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server!.request('POST', '/setup/admin', { body: { ...admin, username: `admin${i}@exemple.fr`, setupToken: TOKEN } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(5);
    const counted = (await server!.database.db.execute(sql`SELECT count(*)::int AS total FROM accounts`)) as unknown as { rows: { total: number }[] };
    const [{ total }] = counted.rows;
    expect(total).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { ensureFirstAdmin, accountCount } from '../../src-server/seed';
import { freshDatabase } from '../helpers/database';
import { startTestServer, tokenFromMail, type TestServer } from '../helpers/server';

/** Names and e-mails are trimmed by the server; blank names and passwords of spaces are refused. */
let server: TestServer;
let token: string;
const asAdmin = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn(['ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

describe('names and e-mails', () => {
  it('are stored trimmed on create and edit', async () => {
    const created = await asAdmin('POST', '/admin/accounts', {
      name: '  Zoé Lefèvre \t',
      nickname: ' zozo ',
      username: '  Zoe.Trim@Exemple.fr ',
      roles: [],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Zoé Lefèvre', nickname: 'zozo', username: 'Zoe.Trim@Exemple.fr' });
    const edited = await asAdmin('PUT', `/admin/accounts/${created.body.id}`, { name: ' Zoé L. ', nickname: '', username: ' zoe.trim@exemple.fr  ' });
    expect(edited.body).toMatchObject({ name: 'Zoé L.', username: 'zoe.trim@exemple.fr' });
    expect(await server.lastMail('Zoe.Trim@Exemple.fr')).toBeDefined();
  });

  it('a name of spaces only is refused on create and on edit', async () => {
    const created = await asAdmin('POST', '/admin/accounts', { name: '     ', nickname: '', username: 'blank@exemple.fr', roles: [] });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ errorMsg: MESSAGES.nameBlank, field: 'name' });
    const { id } = await server.createAccount(['CSM']);
    const edited = await asAdmin('PUT', `/admin/accounts/${id}`, { name: ' \t ', nickname: '', username: 'blank2@exemple.fr' });
    expect(edited.status).toBe(400);
    expect(edited.body).toEqual({ errorMsg: MESSAGES.nameBlank, field: 'name' });
    const list = await asAdmin('GET', '/admin/accounts?term=blank');
    expect(list.body.items).toEqual([]);
  });

  it('signs in with an e-mail typed with spaces around it', async () => {
    const { email } = await server.createAccount(['CSM']);
    expect((await server.request('POST', '/authenticate', { body: { username: `  ${email} `, password: 'correct-horse-battery' } })).status).toBe(
      200,
    );
  });
});

describe('passwords of spaces', () => {
  it('are refused on /password/confirm, and the link still works for a real one', async () => {
    const { email } = await server.createAccount(['CSM']);
    await server.request('POST', '/password/reset', { body: { username: email } });
    const confirmationToken = tokenFromMail((await server.lastMail(email))!.body);
    for (const password of [' '.repeat(8), ' '.repeat(30), '  \u00a0\u2003\u3000   ']) {
      const refused = await server.request('POST', '/password/confirm', { body: { confirmationToken, password } });
      expect(refused.status, JSON.stringify(password)).toBe(400);
      expect(refused.body.errorMsg).toBe(MESSAGES.passwordBlank);
    }
    expect((await server.request('POST', '/password/confirm', { body: { confirmationToken, password: '  spaces around are fine  ' } })).status).toBe(
      200,
    );
  });

  it('are refused for the first administrator', async () => {
    const database = await freshDatabase();
    try {
      await expect(ensureFirstAdmin(database.db, 'boss@exemple.fr', ' '.repeat(12))).rejects.toThrow(
        `BACKOFFICE_ADMIN_PASSWORD : ${MESSAGES.passwordBlank}`,
      );
      expect(await accountCount(database.db)).toBe(0);
    } finally {
      await database.close();
    }
  });
});

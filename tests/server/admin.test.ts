import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { ROLES } from '@shared/roles';
import { SPECIALTIES } from '@shared/reference';
import { startTestServer, tokenFromMail, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Awaited<ReturnType<TestServer['signIn']>>;
const asAdmin = (method: string, path: string, body?: unknown) => server.request(method, path, { token: admin.accessToken.value, body });

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(['ADMIN']);
});
afterAll(() => server?.close());

describe('GET /admin/roles', () => {
  it('lists the six roles', async () => {
    const response = await asAdmin('GET', '/admin/roles');
    expect(response.body).toEqual([...ROLES]);
  });
});

describe('account list', () => {
  it('pages by name with limit and skip, and reports the total', async () => {
    const local = await startTestServer();
    try {
      const localAdmin = await local.signIn(['ADMIN']);
      for (let i = 0; i < 120; i++) await local.createAccount(['CSM'], `Compte ${String(i).padStart(3, '0')}`);
      const page = (query: string) => local.request('GET', `/admin/accounts${query}`, { token: localAdmin.accessToken.value });
      const first = await page('');
      expect(first.body.items).toHaveLength(99);
      expect(first.body.total).toBe(121);
      const second = await page('?limit=99&skip=99');
      expect(second.body.items).toHaveLength(22);
      const names = [...first.body.items, ...second.body.items].map((a: { name: string }) => a.name);
      expect(new Set(names).size).toBe(121);
      expect(names.slice(0, 3)).toEqual(['Compte 000', 'Compte 001', 'Compte 002']);
      expect(first.body.items[0]).toEqual(
        expect.objectContaining({
          id: expect.any(Number),
          uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          nickname: expect.any(String),
          roles: ['CSM'],
        }),
      );
      expect(first.body.items[0].username).toBe(first.body.items[0].email);
    } finally {
      await local.close();
    }
  });

  it('filters on name, nickname and e-mail, treating % and _ as letters', async () => {
    const created = await asAdmin('POST', '/admin/accounts', {
      name: 'Zoé Lefèvre',
      nickname: 'zozo_42',
      username: 'zoe.lefevre@exemple.fr',
      roles: [],
    });
    expect(created.status).toBe(201);
    for (const term of ['lefèvre', 'ZOZO_4', 'exemple.fr']) {
      const found = await asAdmin('GET', `/admin/accounts?term=${encodeURIComponent(term)}`);
      expect(found.body.items.map((a: { id: number }) => a.id)).toEqual([created.body.id]);
    }
    expect((await asAdmin('GET', `/admin/accounts?term=${encodeURIComponent('%')}`)).body.items).toEqual([]);
    expect((await asAdmin('GET', `/admin/accounts?term=${encodeURIComponent('zozo%')}`)).body.items).toEqual([]);
  });
});

describe('account search ignores accents and case', () => {
  it("'Chloe' finds 'Chloé', 'chloé' finds 'Chloe', on names, nicknames and e-mails", async () => {
    const create = async (name: string, nickname: string, username: string) =>
      (await asAdmin('POST', '/admin/accounts', { name, nickname, username, roles: [] })).body.id as number;
    const accented = await create('Chloé Âzur', 'Œlla', 'chloe.azur@exemple.fr');
    const plain = await create('Chloe Martin', 'cm', 'cmartin@exemple.fr');
    const search = async (term: string) =>
      ((await asAdmin('GET', `/admin/accounts?term=${encodeURIComponent(term)}`)).body.items as { id: number }[]).map((a) => a.id).sort();
    expect(await search('Chloe')).toEqual([accented, plain].sort());
    expect(await search('chloé')).toEqual([accented, plain].sort());
    expect(await search('CHLOÉ MART')).toEqual([plain]);
    expect(await search('azur')).toEqual([accented]);
    expect(await search('ÂZÜR')).toEqual([accented]);
    expect(await search('oella')).toEqual([accented]);
    // Still letters, not wildcards, after folding.
    expect(await search('chlo_')).toEqual([]);
    expect(await search('chlo%')).toEqual([]);
  });
});

describe('account creation', () => {
  it('creates the account, mails a link to choose a password, and the link works', async () => {
    const response = await asAdmin('POST', '/admin/accounts', {
      name: 'Nina Roux',
      nickname: 'Nina',
      username: 'Nina.Roux@Exemple.fr',
      roles: ['SALES', 'CSM'],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Nina Roux', nickname: 'Nina', username: 'Nina.Roux@Exemple.fr', roles: ['CSM', 'SALES'] });
    const mail = await server.lastMail('Nina.Roux@Exemple.fr');
    expect(mail?.subject).toBe('Votre compte back-office');
    const token = tokenFromMail(mail!.body);
    const confirmed = await server.request('POST', '/password/confirm', { body: { confirmationToken: token, password: 'nina chooses this one' } });
    expect(confirmed.status).toBe(200);
    const signedIn = await server.request('POST', '/authenticate', { body: { username: 'nina.roux@exemple.fr', password: 'nina chooses this one' } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.roles).toEqual(['CSM', 'SALES']);
  });

  it('refuses an e-mail already used, whatever its case', async () => {
    await asAdmin('POST', '/admin/accounts', { name: 'Paul', nickname: '', username: 'paul@exemple.fr', roles: [] });
    const duplicate = await asAdmin('POST', '/admin/accounts', { name: 'Paul 2', nickname: '', username: 'PAUL@exemple.fr', roles: [] });
    expect(duplicate.status).toBe(409);
    // Named by the dialog's field, so the message shows next to 'E-mail' (docs/accounts.md).
    expect(duplicate.body).toEqual({ errorMsg: MESSAGES.emailAlreadyUsed, field: 'username' });
  });

  it('refuses an unknown role and an invalid e-mail, naming the field', async () => {
    const badRole = await asAdmin('POST', '/admin/accounts', { name: 'X', nickname: '', username: 'x@exemple.fr', roles: ['ROOT'] });
    expect(badRole.status).toBe(400);
    expect(badRole.body).toEqual({ errorMsg: 'Rôles : valeur non autorisée', field: 'roles.0' });
    const badEmail = await asAdmin('POST', '/admin/accounts', { name: 'X', nickname: '', username: 'not-an-email', roles: [] });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toEqual({ errorMsg: 'E-mail : adresse e-mail invalide', field: 'username' });
  });
});

describe('account update, roles and deletion', () => {
  it('updates name, e-mail and nickname, and keeps e-mails unique', async () => {
    const a = await asAdmin('POST', '/admin/accounts', { name: 'Avant', nickname: 'av', username: 'avant@exemple.fr', roles: [] });
    await asAdmin('POST', '/admin/accounts', { name: 'Autre', nickname: '', username: 'autre@exemple.fr', roles: [] });
    const updated = await asAdmin('PUT', `/admin/accounts/${a.body.id}`, { name: 'Après', nickname: 'ap', username: 'apres@exemple.fr' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: a.body.id, uuid: a.body.uuid, name: 'Après', nickname: 'ap', username: 'apres@exemple.fr' });
    const clash = await asAdmin('PUT', `/admin/accounts/${a.body.id}`, { name: 'Après', nickname: 'ap', username: 'AUTRE@exemple.fr' });
    expect(clash.status).toBe(409);
    const missing = await asAdmin('PUT', '/admin/accounts/999999', { name: 'n', nickname: '', username: 'n@exemple.fr' });
    expect(missing.status).toBe(404);
    expect(missing.body.errorMsg).toBe(MESSAGES.accountNotFound);
  });

  it('sets roles, effective at once on the holder’s next call', async () => {
    const user = await server.signIn(['CSM']);
    expect((await server.request('GET', '/admin/roles', { token: user.accessToken.value })).status).toBe(403);
    const set = await asAdmin('PUT', `/admin/accounts/${user.userId}/roles`, { roles: ['ADMIN', 'CSM', 'CSM'] });
    expect(set.body.roles).toEqual(['ADMIN', 'CSM']);
    expect((await server.request('GET', '/admin/roles', { token: user.accessToken.value })).status).toBe(200);
    const refreshed = await server.request('POST', '/authenticate/refresh', { body: { token: user.refreshToken.value } });
    expect(refreshed.body.roles).toEqual(['ADMIN', 'CSM']);
  });

  it('does not let an admin remove ADMIN from their own account', async () => {
    const refused = await asAdmin('PUT', `/admin/accounts/${admin.userId}/roles`, { roles: ['CSM'] });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toBe(MESSAGES.cannotRemoveOwnAdmin);
    const kept = await asAdmin('PUT', `/admin/accounts/${admin.userId}/roles`, { roles: ['ADMIN', 'SALES'] });
    expect(kept.body.roles).toEqual(['ADMIN', 'SALES']);
  });

  it('refuses to delete an account holding ADMIN', async () => {
    const other = await server.createAccount(['ADMIN', 'CSM']);
    const refused = await asAdmin('POST', `/admin/accounts/${other.id}/delete`);
    expect(refused.status).toBe(409);
    expect(refused.body.errorMsg).toBe(MESSAGES.cannotDeleteAdmin);
    expect((await asAdmin('POST', `/admin/accounts/${admin.userId}/delete`)).status).toBe(409);
  });

  it('deletes an account and revokes its tokens', async () => {
    const user = await server.signIn(['CSM']);
    const deleted = await asAdmin('POST', `/admin/accounts/${user.userId}/delete`);
    expect(deleted.body).toEqual({ ok: true });
    expect((await server.request('GET', '/meta', { token: user.accessToken.value })).status).toBe(401);
    expect((await server.request('POST', '/authenticate/refresh', { body: { token: user.refreshToken.value } })).status).toBe(401);
    expect((await asAdmin('POST', `/admin/accounts/${user.userId}/delete`)).status).toBe(404);
  });
});

describe('GET /meta', () => {
  it('serves professions with the spec ids, about 50 specialties, no audiences yet, and CSM accounts by name', async () => {
    const local = await startTestServer();
    try {
      const user = await local.signIn(['SALES']);
      await local.createAccount(['CSM'], 'Zacharie');
      await local.createAccount(['CSM', 'SALES'], 'amélie');
      await local.createAccount(['CSM_LEAD'], 'Bruno');
      const meta = (await local.request('GET', '/meta', { token: user.accessToken.value })).body;
      expect(Object.fromEntries(meta.professions.map((p: { id: number; name: string }) => [p.name, p.id]))).toEqual({
        Médecin: 2,
        'Autre profession de santé': 8,
        Pharmacien: 4,
        Infirmier: 3,
        'Sage-femme': 6,
        Patient: 7,
        Kinésithérapeute: 9,
        Dentiste: 5,
        'Préparateur en pharmacie': 10,
        'Pédicure-podologue': 12,
        'Secrétaire médicale': 11,
      });
      expect(meta.specialties.length).toBeGreaterThanOrEqual(45);
      expect(meta.specialties).toContainEqual({ id: 1, name: 'Médecine générale' });
      expect(new Set(SPECIALTIES.map((s) => s.id)).size).toBe(SPECIALTIES.length);
      expect(meta.audiences).toEqual([]);
      expect(meta.csm.map((c: { name: string }) => c.name)).toEqual(['amélie', 'Zacharie']);
      expect((await local.request('GET', '/meta')).status).toBe(401);
    } finally {
      await local.close();
    }
  });
});

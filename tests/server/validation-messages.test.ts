import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/** Contract validation failures reach users in French, naming the field as the form labels it. */
let server: TestServer;
let token: string;
const asAdmin = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn(['ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

describe('validation failures answer 400 { errorMsg, field } in French', () => {
  it('body: a limit in words, and an e-mail named as the form labels it', async () => {
    const long = await asAdmin('POST', '/admin/accounts', { name: 'N'.repeat(201), nickname: '', username: 'n@exemple.fr', roles: [] });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ errorMsg: 'Nom : 200 caractères au plus', field: 'name' });
    const email = await server.request('POST', '/password/reset', { body: { username: 'x'.repeat(300) } });
    expect(email.body).toEqual({ errorMsg: 'E-mail : 254 caractères au plus', field: 'username' });
    const missing = await server.request('POST', '/authenticate', { body: { username: 'a@b.fr' } });
    expect(missing.body).toEqual({ errorMsg: 'Mot de passe : champ obligatoire', field: 'password' });
    const unknown = await server.request('POST', '/authenticate', { body: { username: 'a@b.fr', password: 'x', extra: 1 } });
    expect(unknown.body).toEqual({ errorMsg: 'extra : champ inconnu', field: 'extra' });
  });

  it("a push notification's text is named 'Texte', as its field is labelled", async () => {
    const where = { area: 'france', professions: [], specialties: [''], titles: [''], os: [''], expert: 'all', clause: '' };
    const notification = { title: 'Rappel', body: 'x'.repeat(1001), navigation: '', customId: 'default' };
    const response = await asAdmin('POST', '/push/campaigns', { notification, where });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errorMsg: 'Texte : 1000 caractères au plus', field: 'notification.body' });
  });

  it('query: the field of the query string', async () => {
    const response = await asAdmin('GET', '/admin/accounts?limit=0');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errorMsg: 'Limite : 1 au moins', field: 'limit' });
    const term = await asAdmin('GET', `/admin/accounts?term=${'a'.repeat(201)}`);
    expect(term.body).toEqual({ errorMsg: 'Recherche : 200 caractères au plus', field: 'term' });
  });

  it('params: the path parameter', async () => {
    const response = await asAdmin('PUT', '/admin/accounts/0/roles', { roles: [] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errorMsg: 'Compte : 1 au moins', field: 'accountId' });
    const letters = await asAdmin('PUT', '/admin/accounts/abc/roles', { roles: [] });
    expect(letters.status).toBe(400);
    expect(letters.body.field).toBe('accountId');
    expect(letters.body.errorMsg).toMatch(/^Compte : /);
  });
});

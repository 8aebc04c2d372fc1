import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { ManualClock } from '../helpers/clock';
import { ApiClient } from '../../src-main/services/api-client';
import { apiAddress } from '../../src-main/services/api-transport';
import { createSessionVault, type SessionVault } from '../../src-main/services/session-vault';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

let server: TestServer;
let clock: ManualClock;
let refreshCalls = 0;
let authorizations: (string | undefined)[] = [];

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  server = await startTestServer({
    clock,
    beforeListen: (app) =>
      app.addHook('onRequest', async (request) => {
        if (request.url === '/authenticate/refresh') refreshCalls += 1;
        authorizations.push(request.headers.authorization);
      }),
  });
});
afterAll(() => server?.close());

/** A loopback port nothing listens on: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function client(options: { onSessionExpired?: (reason: string) => void; timeoutMs?: number; baseUrl?: string } = {}) {
  const vault = await createSessionVault({ service: 'test', account: server.url, now: () => clock.now().getTime() });
  const api = new ApiClient({
    baseUrl: () => options.baseUrl ?? server.url,
    vault,
    now: () => clock.now().getTime(),
    onSessionExpired: options.onSessionExpired,
    timeoutMs: options.timeoutMs,
  });
  return { api, vault };
}

async function signedIn(
  roles: Parameters<TestServer['createAccount']>[0],
  onSessionExpired?: (reason: string) => void,
): Promise<{ api: ApiClient; vault: SessionVault }> {
  const { email } = await server.createAccount(roles);
  const built = await client({ onSessionExpired });
  const result = await built.api.signIn(email, TEST_PASSWORD);
  expect(result.ok).toBe(true);
  return built;
}

describe('ApiClient against a real server', () => {
  it('signs in, keeps the tokens in the vault and gives back no token', async () => {
    const { email } = await server.createAccount(['CSM']);
    const { api, vault } = await client();
    const result = await api.signIn(email, TEST_PASSWORD);
    expect(result).toEqual({ ok: true, data: { userId: expect.any(Number), roles: ['CSM'], expiresAt: expect.any(String), persistent: false } });
    expect(JSON.stringify(result)).not.toMatch(/eyJ/);
    expect((await vault.load())?.accessToken.value).toMatch(/^eyJ/);
    await api.close();
  });

  it("says 'Cannot log in' when the server accepts but the session cannot be kept", async () => {
    const { email } = await server.createAccount(['CSM']);
    const { api, vault } = await client();
    vault.save = async () => {
      throw new Error('keychain locked');
    };
    expect(await api.signIn(email, TEST_PASSWORD)).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.cannotLogIn });
    expect(await api.sessionInfo()).toBeNull();
    await api.close();
  });

  it("reports the server's errorMsg on a refused sign-in", async () => {
    const { api } = await client();
    expect(await api.signIn('nobody@test.local', 'wrong password')).toEqual({ ok: false, status: 401, errorMsg: MESSAGES.invalidCredentials });
    await api.close();
  });

  it('adds the bearer token to protected calls only', async () => {
    const { api } = await signedIn(['ADMIN']);
    authorizations = [];
    expect((await api.call('admin.roles')).ok).toBe(true);
    await api.call('password.reset', { body: { username: 'x@test.local' } });
    expect(authorizations[0]).toMatch(/^Bearer eyJ/);
    expect(authorizations[1]).toBeUndefined();
    await api.close();
  });

  it('refreshes before the access token expires, once for many concurrent calls', async () => {
    const { api, vault } = await signedIn(['ADMIN']);
    const before = (await vault.load())!.refreshToken.value;
    clock.advance(14 * 60 * 1000 + 30_000); // within the 60 s margin of the 15-minute token
    refreshCalls = 0;
    const results = await Promise.all(Array.from({ length: 5 }, () => api.call('admin.accounts.list', { query: { limit: 5 } })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(refreshCalls).toBe(1);
    expect((await vault.load())!.refreshToken.value).not.toBe(before);
    await api.close();
  });

  it('clears the session and signals expiry on a 401', async () => {
    const reasons: string[] = [];
    const { api, vault } = await signedIn(['CSM'], (reason) => reasons.push(reason));
    const session = (await vault.load())!;
    await server.request('POST', `/admin/accounts/${session.userId}/delete`, { token: (await server.signIn(['ADMIN'])).accessToken.value });
    const result = await api.call('meta.get');
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(reasons).toHaveLength(1);
    expect(await vault.load()).toBeNull();
    expect(await api.sessionInfo()).toBeNull();
    await api.close();
  });

  it('signals expiry when the refresh token was revoked', async () => {
    const reasons: string[] = [];
    const { api, vault } = await signedIn(['CSM'], (reason) => reasons.push(reason));
    const stolen = (await vault.load())!.refreshToken.value;
    await server.request('POST', '/authenticate/refresh', { body: { token: stolen } }); // someone else used it
    clock.advance(15 * 60 * 1000);
    expect(await api.call('meta.get')).toMatchObject({ ok: false, status: 401 });
    expect(reasons).toHaveLength(1);
    expect(await vault.load()).toBeNull();
    await api.close();
  });

  it('keeps the session when the refresh fails for lack of network, and refreshes once it is back', async () => {
    const reasons: string[] = [];
    const { email } = await server.createAccount(['CSM']);
    const unreachable = await closedPort();
    let base = server.url;
    const vault = await createSessionVault({ service: 'test', account: 'net', now: () => clock.now().getTime() });
    // The same API (as the settings name it) becoming unreachable: here by its address changing to a closed port.
    const api = new ApiClient({
      baseUrl: () => base,
      apiIdentity: () => 'team-server',
      vault,
      now: () => clock.now().getTime(),
      onSessionExpired: (r) => reasons.push(r),
    });
    expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
    clock.advance(15 * 60 * 1000);
    base = `http://127.0.0.1:${unreachable}`;
    expect(await api.call('meta.get')).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable });
    expect(await api.reloadSession()).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable });
    expect(reasons).toEqual([]);
    expect(await vault.load()).not.toBeNull();
    base = server.url;
    expect((await api.call('meta.get')).ok).toBe(true);
    await api.close();
  });

  it('never presents a used refresh token when a caller read the vault just before another refresh', async () => {
    const { email } = await server.createAccount(['CSM']);
    const inner = await createSessionVault({ service: 'test', account: 'race', now: () => clock.now().getTime() });
    let holdNextLoad = false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The same vault, except that one chosen load() hands back its (by then stale) snapshot late.
    const vault: SessionVault = {
      kind: inner.kind,
      persistent: inner.persistent,
      async load() {
        const snapshot = await inner.load();
        if (holdNextLoad) {
          holdNextLoad = false;
          await gate;
        }
        return snapshot;
      },
      save: (s) => inner.save(s),
      clear: () => inner.clear(),
      loadDeviceToken: (key) => inner.loadDeviceToken(key),
      saveDeviceToken: (key, token) => inner.saveDeviceToken(key, token),
    };
    const reasons: string[] = [];
    const api = new ApiClient({ baseUrl: () => server.url, vault, now: () => clock.now().getTime(), onSessionExpired: (r) => reasons.push(r) });
    expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
    clock.advance(15 * 60 * 1000);
    refreshCalls = 0;
    holdNextLoad = true;
    const late = api.call('meta.get'); // reads the stale session, then waits
    expect((await api.call('meta.get')).ok).toBe(true); // refreshes meanwhile
    release();
    expect((await late).ok).toBe(true);
    expect(refreshCalls).toBe(1);
    expect(reasons).toEqual([]);
    await api.close();
  });

  it('reloads the session to pick up roles changed on the server', async () => {
    const { api, vault } = await signedIn(['CSM']);
    const { userId } = (await vault.load())!;
    const admin = await server.signIn(['ADMIN']);
    await server.request('PUT', `/admin/accounts/${userId}/roles`, { token: admin.accessToken.value, body: { roles: ['CSM', 'SALES'] } });
    expect(await api.reloadSession()).toMatchObject({ ok: true, data: { roles: ['CSM', 'SALES'] } });
    await api.close();
  });

  it('refuses invalid input without calling the server, in the server’s French wording, naming the field', async () => {
    const { api } = await signedIn(['ADMIN']);
    authorizations = [];
    const result = await api.call('admin.accounts.create', { body: { name: 'x', nickname: '', username: 'not-an-email', roles: [] } });
    expect(result).toEqual({ ok: false, status: 400, errorMsg: 'E-mail : adresse e-mail invalide', field: 'username' });
    const tooLong = await api.call('admin.accounts.create', { body: { name: 'x'.repeat(201), nickname: '', username: 'a@b.fr', roles: [] } });
    expect(tooLong).toEqual({ ok: false, status: 400, errorMsg: 'Nom : 200 caractères au plus', field: 'name' });
    expect(authorizations).toEqual([]);
    // The same input sent straight to the server gets the same words: one wording on both sides.
    const admin = await server.signIn(['ADMIN']);
    const direct = await server.request('POST', '/admin/accounts', {
      token: admin.accessToken.value,
      body: { name: 'x'.repeat(201), nickname: '', username: 'a@b.fr', roles: [] },
    });
    expect(direct.body).toEqual({ errorMsg: 'Nom : 200 caractères au plus', field: 'name' });
    await api.close();
  });

  it('checks every 2xx answer against the response schema, and passes the field of a refused input through', async () => {
    // A server of another version: it answers, but not what the contract says.
    const answers: Record<string, [number, unknown]> = {
      '/password/reset': [200, { unexpected: true }],
      '/password/confirm': [400, { errorMsg: 'Mot de passe : 8 caractères au moins', field: 'password' }],
    };
    const other = createHttpServer((request, response) => {
      const [status, body] = answers[request.url ?? ''] ?? [404, { errorMsg: 'Not found' }];
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const logged: { details: object; message: string }[] = [];
    const vault = await createSessionVault({ service: 'test', account: 'other' });
    const api = new ApiClient({
      baseUrl: () => `http://127.0.0.1:${(other.address() as { port: number }).port}`,
      vault,
      logger: { warn: (details, message) => logged.push({ details, message }) },
    });
    expect(await api.call('password.reset', { body: { username: 'a@b.fr' } })).toEqual({
      ok: false,
      status: 502,
      errorMsg: MESSAGES.unexpectedAnswer,
    });
    expect(logged).toEqual([{ details: expect.objectContaining({ operationId: 'password.reset' }), message: expect.any(String) }]);
    expect(await api.call('password.confirm', { body: { confirmationToken: 'abc', password: 'long enough 1' } })).toEqual({
      ok: false,
      status: 400,
      errorMsg: 'Mot de passe : 8 caractères au moins',
      field: 'password',
    });
    // A real server's answers pass the same check.
    expect(await (await client()).api.call('password.reset', { body: { username: 'nobody@test.local' } })).toMatchObject({ ok: true });
    await api.close();
    other.close();
  });

  it('gives a clear French error when the server is unreachable', async () => {
    const port = await closedPort();
    const { api } = await client({ baseUrl: `http://127.0.0.1:${port}` });
    expect(await api.signIn('a@b.fr', 'whatever1')).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable });
    await api.close();
  });

  it('gives a clear French error on a time-out', async () => {
    const silent: Server = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const { api } = await client({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 300 });
    // The time-out's own message says the client gave up by itself; a client that waited for ever would time the test out.
    expect(await api.signIn('a@b.fr', 'whatever1')).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.networkTimeout });
    await api.close();
    silent.close();
  });

  it('waits for an API that is still starting, and reports why one that failed to start is unavailable', async () => {
    const { email } = await server.createAccount(['CSM']);
    let ready: (url: string) => void = () => undefined;
    const starting = new Promise<string>((resolve) => (ready = resolve));
    const vault = await createSessionVault({ service: 'test', account: 'starting', now: () => clock.now().getTime() });
    const waiting = new ApiClient({ baseUrl: () => starting, vault, now: () => clock.now().getTime() });
    const signIn = waiting.signIn(email, TEST_PASSWORD);
    setTimeout(() => ready(server.url), 50);
    expect(await signIn).toMatchObject({ ok: true, data: { roles: ['CSM'] } });
    await waiting.close();

    const failed = new ApiClient({
      baseUrl: apiAddress(
        () => '',
        () => Promise.reject(new Error('disque plein')),
      ),
      vault,
    });
    expect(await failed.signIn(email, TEST_PASSWORD)).toEqual({ ok: false, status: 0, errorMsg: `${MESSAGES.embeddedServerFailed} : disque plein` });
    await failed.close();
  });

  it('presents a stored session only to the API that issued it: another origin means no session', async () => {
    const { email } = await server.createAccount(['ADMIN']);
    const vault = await createSessionVault({ service: 'test', account: 'shared-key', now: () => clock.now().getTime() });
    let base = server.url;
    const api = new ApiClient({ baseUrl: () => base, vault, now: () => clock.now().getTime() });
    expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
    // The page (or a settings change) points the API elsewhere: a listener that records what it is sent.
    const seen: (string | undefined)[] = [];
    const collector = createHttpServer((request, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    try {
      expect(await api.sessionInfo()).toBeNull();
      expect(await api.call('meta.get')).toMatchObject({ ok: false, status: 401 });
      expect(seen).toEqual([]);
      expect(await api.reloadSession()).toEqual({ ok: true, data: null });
      expect(seen).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => collector.close(() => resolve()));
      await api.close();
    }
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { startWebHost, type WebHost } from '../../src-main/hosts/web';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

let api: TestServer;
let host: WebHost;
const work = mkdtempSync(join(tmpdir(), 'bo-web-'));

beforeAll(async () => {
  api = await startTestServer();
  const rendererDir = join(work, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><html><head><title>t</title></head><body><script type="module" src="/assets/app.js"></script></body></html>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  host = await startWebHost({ port: 0, rendererDir, apiUrl: api.url, settingsFile: join(work, 'settings.json'), logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await host?.close();
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A browser's cookie jar, as far as the host's one cookie goes. */
class Browser {
  cookie = '';
  async ipc(channel: string, payload: unknown, headers: Record<string, string> = {}, target: WebHost = host): Promise<Response> {
    const response = await fetch(`${target.url}/__ipc/${channel}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-backoffice-secret': target.secret,
        origin: target.url,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body: JSON.stringify({ payload }),
    });
    const set = response.headers.get('set-cookie');
    if (set) {
      const pair = set.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? '' : pair;
    }
    return response;
  }
}
const browser = new Browser();
const ipc = (channel: string, payload: unknown, headers: Record<string, string> = {}) => browser.ipc(channel, payload, headers);

/** A raw request: fetch will not let a test choose the Host header or send a malformed path. */
function raw(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('web host', () => {
  it('serves the renderer with the per-launch secret and a strict CSP, for any route', async () => {
    // A route may end like a file name: a new advert named after its action code.
    for (const path of [
      '/',
      '/admin',
      '/password/confirm?confirmationToken=x',
      `/adverts/edit/project-${encodeURIComponent('SANOFA - Cardio HTA - SANCAR26-1.2')}`,
    ]) {
      const response = await fetch(`${host.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain(`<meta name="backoffice-web-secret" content="${host.secret}" />`);
    }
    const asset = await fetch(`${host.url}/assets/app.js`);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${host.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${host.url}/assets/..%2f..%2fsettings.json`)).status).not.toBe(500);
  });

  it('keeps serving the renderer it started with while a build replaces the folder', async () => {
    // A build empties out/renderer and writes new chunk names: an open page still loads the chunks it knows.
    const rendererDir = join(work, 'renderer');
    rmSync(rendererDir, { recursive: true, force: true });
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>new</title></head><body></body></html>');
    writeFileSync(join(rendererDir, 'assets', 'other.js'), 'console.log(2)');
    const asset = await fetch(`${host.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1)');
    expect(await (await fetch(`${host.url}/projects`)).text()).toContain('<script type="module" src="/assets/app.js">');
  });

  it('refuses calls without the secret (as an unknown session) or from another origin', async () => {
    // Our page with another secret (a page of an earlier launch): an unknown session, to sign in again.
    const stale = await ipc('settings:get', undefined, { 'x-backoffice-secret': 'wrong' });
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ ok: false, status: 401, errorMsg: MESSAGES.sessionExpired });
    expect((await ipc('settings:get', undefined, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await ipc('settings:get', undefined, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await fetch(`${host.url}/__events?secret=wrong`)).status).toBe(403);
  });

  it('refuses every request whose Host is not the listening address (DNS rebinding), with 421', async () => {
    const port = new URL(host.url).port;
    const { email } = await api.createAccount(['ADMIN']);
    await ipc('session:signIn', { username: email, password: TEST_PASSWORD });
    const exportRequest = {
      jobId: crypto.randomUUID(),
      operation: 'admin.accounts.list',
      input: { query: {} },
      columns: [{ key: 'username', header: 'E-mail' }],
      defaultName: 'a.csv',
    };
    const saved = await (await ipc('files:exportCsv', exportRequest)).json();
    for (const path of ['/', '/admin', `/__events?secret=${host.secret}`, saved.data.downloadUrl]) {
      for (const foreignHost of ['evil.example', `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`]) {
        const answer = await raw(path, { host: foreignHost });
        expect(answer.status, `${path} as ${foreignHost}`).toBe(421);
        expect(JSON.parse(answer.body)).toEqual({ errorMsg: MESSAGES.unknownHost });
        expect(answer.body).not.toContain(host.secret);
      }
    }
    const ipcAnswer = await raw(
      '/__ipc/settings:get',
      { host: 'evil.example', 'content-type': 'application/json', 'x-backoffice-secret': host.secret },
      'POST',
      '{}',
    );
    expect(ipcAnswer.status).toBe(421);
    // The listening address under each of its names is ours; the download was not spent by the refused tries.
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) expect((await raw('/', { host: `${name}:${port}` })).status).toBe(200);
    expect((await raw(saved.data.downloadUrl, { host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses IPC calls that do not prove they come from our page (no Origin and no Sec-Fetch-Site: same-origin)', async () => {
    const port = new URL(host.url).port;
    const base = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'x-backoffice-secret': host.secret };
    const bare = await raw('/__ipc/settings:get', base, 'POST', '{}');
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.body)).toMatchObject({ ok: false, errorMsg: MESSAGES.userNotAllowed });
    expect((await raw('/__ipc/settings:get', { ...base, 'sec-fetch-site': 'same-origin' }, 'POST', '{}')).status).toBe(200);
    expect((await raw('/__ipc/settings:get', { ...base, origin: `http://localhost:${port}` }, 'POST', '{}')).status).toBe(200);
    expect((await raw('/__ipc/settings:get', { ...base, 'sec-fetch-site': 'none' }, 'POST', '{}')).status).toBe(403);
  });

  it('sends the security headers with IPC and error answers too', async () => {
    for (const response of [await ipc('settings:get', undefined), await ipc('settings:get', undefined, { 'x-backoffice-secret': 'wrong' })]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers a malformed URL with 400 and errorMsg, not 500', async () => {
    const port = new URL(host.url).port;
    for (const path of ['/%E0%A4%A', '/assets/%E0%A4%A.js', '/__ipc/%E0%A4%A']) {
      const answer = await raw(
        path,
        { host: `127.0.0.1:${port}`, origin: host.url, 'content-type': 'application/json', 'x-backoffice-secret': host.secret },
        path.startsWith('/__ipc') ? 'POST' : 'GET',
        path.startsWith('/__ipc') ? '{}' : undefined,
      );
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body), path).toMatchObject({ errorMsg: MESSAGES.badUrl });
    }
  });

  it('validates every payload against the channel map', async () => {
    expect(await (await ipc('no:such', {})).json()).toMatchObject({ ok: false, status: 0 });
    const bad = await (await ipc('session:signIn', { username: 42 })).json();
    expect(bad.ok).toBe(false);
    expect(bad.errorMsg).toContain(MESSAGES.invalidIpcCall);
    const signInThroughApi = await (await ipc('api:call', { operation: 'auth.signIn', input: {} })).json();
    expect(signInThroughApi.ok).toBe(false);
  });

  it('signs in, calls the API through the one generic channel, and never hands out a token', async () => {
    const { email } = await api.createAccount(['ADMIN']);
    const signIn = await (await ipc('session:signIn', { username: email, password: TEST_PASSWORD })).json();
    expect(signIn).toMatchObject({ ok: true, data: { roles: ['ADMIN'] } });
    expect(JSON.stringify(signIn)).not.toContain('eyJ');
    const roles = await (await ipc('api:call', { operation: 'admin.roles', input: {} })).json();
    expect(roles).toEqual({ ok: true, data: ['ADMIN', 'CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR', 'CONTENT_CREATOR_LEAD'] });
    const info = await (await ipc('app:info', undefined)).json();
    expect(info.data).toMatchObject({ apiUrl: api.url, host: 'web' });
    await ipc('session:signOut', undefined);
    expect(await (await ipc('session:get', undefined)).json()).toEqual({ ok: true, data: null });
  });

  it('pushes session:expired over server-sent events', async () => {
    const controller = new AbortController();
    const admin = await api.signIn(['ADMIN']);
    const victim = await api.createAccount(['CSM']);
    await ipc('session:signIn', { username: victim.email, password: TEST_PASSWORD });
    const events = await fetch(`${host.url}/__events?secret=${host.secret}`, { signal: controller.signal, headers: { cookie: browser.cookie } });
    const reader = events.body!.getReader();
    await api.request('POST', `/admin/accounts/${victim.id}/delete`, { token: admin.accessToken.value });
    const call = await (await ipc('api:call', { operation: 'meta.get', input: {} })).json();
    expect(call).toMatchObject({ ok: false, status: 401 });
    let text = '';
    while (!text.includes('event: session:expired')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: session:expired');
    controller.abort();
  });

  it('keeps one session per browser: a cookie-less browser is signed out, two browsers keep their own roles', async () => {
    const adminBrowser = new Browser();
    const salesBrowser = new Browser();
    const fresh = new Browser();
    const admin = await api.createAccount(['ADMIN']);
    const sales = await api.createAccount(['SALES']);
    const signIn = await adminBrowser.ipc('session:signIn', { username: admin.email, password: TEST_PASSWORD });
    // The session cookie, then the device cookie (tests/main/device-token.test.ts).
    const cookie = signIn.headers.getSetCookie()[0];
    expect(cookie).toMatch(/^__Host-backoffice_session_\d+=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Secure; Path=\/$/);
    await salesBrowser.ipc('session:signIn', { username: sales.email, password: TEST_PASSWORD });
    // Signing in as SALES elsewhere changes nothing for the ADMIN browser.
    expect(await (await adminBrowser.ipc('api:call', { operation: 'admin.roles', input: {} })).json()).toMatchObject({ ok: true });
    expect(await (await salesBrowser.ipc('api:call', { operation: 'admin.roles', input: {} })).json()).toMatchObject({ ok: false, status: 403 });
    // A browser with no cookie, or a made-up one, is nobody.
    expect(await (await fresh.ipc('session:get', undefined)).json()).toEqual({ ok: true, data: null });
    fresh.cookie = cookie.split(';')[0]!.replace(/=.*/, '=forged');
    expect(await (await fresh.ipc('session:get', undefined)).json()).toEqual({ ok: true, data: null });
    expect(await (await fresh.ipc('api:call', { operation: 'admin.roles', input: {} })).json()).toMatchObject({ ok: false, status: 401 });
    // Signing out clears the cookie and ends that browser's session only.
    const signOut = await adminBrowser.ipc('session:signOut', undefined);
    expect(signOut.headers.get('set-cookie')).toMatch(/=; HttpOnly; SameSite=Strict; Secure; Path=\/; Max-Age=0$/);
    expect(await (await adminBrowser.ipc('session:get', undefined)).json()).toEqual({ ok: true, data: null });
    expect(await (await salesBrowser.ipc('session:get', undefined)).json()).toMatchObject({ ok: true, data: { roles: ['SALES'] } });
  });

  it('ends a browser session left idle', async () => {
    const idleHost = await startWebHost({
      port: 0,
      rendererDir: join(work, 'renderer'),
      apiUrl: api.url,
      settingsFile: join(work, 'idle.json'),
      sessionIdleMs: 300,
    });
    try {
      const user = await api.createAccount(['CSM']);
      const idle = new Browser();
      await idle.ipc('session:signIn', { username: user.email, password: TEST_PASSWORD }, {}, idleHost);
      expect(await (await idle.ipc('session:get', undefined, {}, idleHost)).json()).toMatchObject({ ok: true, data: { roles: ['CSM'] } });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await (await idle.ipc('session:get', undefined, {}, idleHost)).json()).toEqual({ ok: true, data: null });
    } finally {
      await idleHost.close();
    }
  });

  it('exports a list as a CSV download streamed from disk, offered once, with progress events', async () => {
    const { email } = await api.createAccount(['ADMIN']);
    await ipc('session:signIn', { username: email, password: TEST_PASSWORD });
    const controller = new AbortController();
    // The stream belongs to this browser's session (its cookie): progress goes to its pages only.
    const events = await fetch(`${host.url}/__events?secret=${host.secret}`, { signal: controller.signal, headers: { cookie: browser.cookie } });
    const reader = events.body!.getReader();
    const jobId = crypto.randomUUID();
    const exported = await (
      await ipc('files:exportCsv', {
        jobId,
        operation: 'admin.accounts.list',
        input: { query: {} },
        columns: [{ key: 'username', header: 'E-mail' }],
        defaultName: 'comptes.csv',
      })
    ).json();
    expect(exported).toMatchObject({ ok: true, data: { savedAs: 'comptes.csv', downloadUrl: expect.stringMatching(/^\/__download\//) } });
    expect(exported.data.rows).toBeGreaterThan(0);
    let text = '';
    while (!text.includes(jobId)) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: files:progress');
    controller.abort();
    const first = await fetch(`${host.url}${exported.data.downloadUrl}`);
    expect(first.headers.get('content-disposition')).toContain('comptes.csv');
    const csv = Buffer.from(await first.arrayBuffer()).toString('utf8');
    expect(csv.startsWith('\uFEFFE-mail\r\n')).toBe(true);
    expect(csv).toContain(email);
    expect((await fetch(`${host.url}${exported.data.downloadUrl}`)).status).toBe(404);
    await ipc('session:signOut', undefined);
  });

  it('takes a CSV the page uploads (streamed, with the secret) and previews it by its upload id, once', async () => {
    const upload = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${host.url}/__upload?name=liste.csv`, {
        method: 'POST',
        headers: { 'x-backoffice-secret': host.secret, origin: host.url, ...headers },
        body,
      });
    expect((await upload('email\na@b.fr', { 'x-backoffice-secret': 'wrong' })).status).toBe(403);
    const uploaded = await (await upload('email;Nom\nMédecin@exemple.fr;X\nb@exemple.fr;Y\n')).json();
    expect(uploaded).toMatchObject({ ok: true, data: { uploadId: expect.any(String) } });
    const preview = await (await ipc('files:previewCsv', { uploadId: uploaded.data.uploadId })).json();
    expect(preview).toMatchObject({
      ok: true,
      data: { fileName: 'liste.csv', columns: ['email', 'Nom'], rowCount: 2, rows: [{ email: 'Médecin@exemple.fr' }, { Nom: 'Y' }] },
    });
    // An upload is taken once: the import owns its file.
    expect(await (await ipc('files:previewCsv', { uploadId: uploaded.data.uploadId })).json()).toEqual({ ok: true, data: null });
  });
});

// Each test boots an embedded PGlite: seconds on a quiet machine, much longer on a loaded one.
describe('web host with the embedded API', { timeout: 120_000 }, () => {
  const rendererDir = () => join(work, 'renderer');

  it('serves the page while the embedded API starts, and API calls made meanwhile wait for it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bo-web-embedded-'));
    let startResolved = false;
    let early: Promise<{ pageStatus: number; pageBeforeApi: boolean; info: { ok: boolean; data?: { databaseKind: string } } }> | null = null;
    const starting = startWebHost({
      port: 0,
      rendererDir: rendererDir(),
      dataDir: join(folder, 'pglite'),
      settingsFile: join(folder, 'settings.json'),
      // The demo accounts, without the population seeded behind them (web-host-demo.test.ts covers it): its
      // writes would only compete with this test for the CPU.
      demoPopulation: false,
      logger: pino({ level: 'silent' }),
      onListening: (url) => {
        early = (async () => {
          const page = await fetch(`${url}/login`);
          const pageBeforeApi = !startResolved;
          const secret = /backoffice-web-secret" content="([^"]+)"/.exec(await page.text())![1];
          const info = await fetch(`${url}/__ipc/app:info`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-backoffice-secret': secret, origin: url },
            body: JSON.stringify({}),
          });
          return { pageStatus: page.status, pageBeforeApi, info: await info.json() };
        })();
      },
    });
    const embeddedHost = await starting;
    startResolved = true;
    try {
      const seen = await early!;
      expect(seen.pageStatus).toBe(200);
      // PGlite takes hundreds of milliseconds to open: the page came before.
      expect(seen.pageBeforeApi).toBe(true);
      // The call made before the API was up waited for it instead of failing.
      expect(seen.info).toMatchObject({ ok: true, data: { databaseKind: 'pglite', apiUrl: embeddedHost.apiUrl } });
    } finally {
      await embeddedHost.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses an API address that is not a URL, saying so', async () => {
    await expect(
      startWebHost({ port: 0, rendererDir: rendererDir(), apiUrl: 'backoffice-api:4000', settingsFile: join(work, 'bad.json') }),
    ).rejects.toThrow("Adresse d'API invalide : backoffice-api:4000");
  });

  it('fails to start, closing its port, when the embedded database cannot open', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bo-web-broken-'));
    // A file where the data folder should be.
    writeFileSync(join(folder, 'pglite'), 'not a folder');
    let listenedOn = '';
    try {
      await expect(
        startWebHost({
          port: 0,
          rendererDir: rendererDir(),
          dataDir: join(folder, 'pglite'),
          settingsFile: join(folder, 'settings.json'),
          logger: pino({ level: 'silent' }),
          onListening: (url) => (listenedOn = url),
        }),
      ).rejects.toThrow();
      expect(listenedOn).not.toBe('');
      await expect(fetch(listenedOn)).rejects.toThrow();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf } from '../../src-main/hosts/mime';
import { createMainServices, sessionVaultAccount } from '../../src-main/main-services';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

const root = fileURLToPath(new URL('../..', import.meta.url));
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

function memorySettings(): SettingsStore {
  let settings = { ...DEFAULT_SETTINGS };
  return {
    get: () => settings,
    set: (patch) => (settings = { ...settings, ...patch }),
    getWindowBounds: () => null,
    setWindowBounds: () => undefined,
  };
}

const noFiles = { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null };

describe('createMainServices (both hosts)', () => {
  it('answers app:info from the embedded API and opens independent sessions over the same wiring', async () => {
    const services = createMainServices({
      host: 'web',
      version: () => '9.9.9',
      settings: memorySettings(),
      files: noFiles,
      embedded: async () => ({ url: server.url, databaseKind: 'pglite', demo: true }),
    });
    // The embedded API runs the demo workspace: the page shows its banner.
    expect(await services.appInfo()).toEqual({
      version: '9.9.9',
      apiUrl: server.url,
      databaseKind: 'pglite',
      host: 'web',
      demo: true,
      updates: { feed: '', channel: 'stable', checker: 'browser' },
    });
    const expired: string[] = [];
    const open = async () =>
      services.openSession({ vault: await createSessionVault({ service: 't', account: 'a' }), onSessionExpired: (reason) => expired.push(reason) });
    const first = await open();
    const second = await open();
    const admin = await server.createAccount(['ADMIN']);
    const sales = await server.createAccount(['SALES']);
    expect(await first.dispatch('session:signIn', { username: admin.email, password: TEST_PASSWORD })).toMatchObject({
      ok: true,
      data: { roles: ['ADMIN'] },
    });
    expect(await second.dispatch('session:signIn', { username: sales.email, password: TEST_PASSWORD })).toMatchObject({
      ok: true,
      data: { roles: ['SALES'] },
    });
    // Each session keeps its own tokens: the SALES sign-in did not replace the ADMIN one.
    expect(await first.dispatch('api:call', { operation: 'admin.roles', input: {} })).toMatchObject({ ok: true });
    expect(await second.dispatch('api:call', { operation: 'admin.roles', input: {} })).toMatchObject({ ok: false, status: 403 });
    expect(expired).toEqual([]);
    await first.close();
    await second.close();
  });

  it('keys a stored session by the team server origin or by the embedded data folder', () => {
    expect(sessionVaultAccount('https://api.example.com/v1', '/data')).toBe('https://api.example.com');
    expect(sessionVaultAccount('', '/data')).toBe('embedded:/data');
  });

  it('gives both hosts one MIME table', () => {
    expect(contentTypeOf('/x/app.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('favicon.ico')).toBe('image/x-icon');
    expect(contentTypeOf('data.bin')).toBe('application/octet-stream');
  });
});

describe('the hosts are thin', () => {
  const hostFiles = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? hostFiles(join(folder, entry.name))
        : entry.name.endsWith('.ts') && !entry.name.endsWith('.config.ts')
          ? [join(folder, entry.name)]
          : [],
    );
  const files = hostFiles(join(root, 'src-main/hosts'));

  it('wire services only through createMainServices (no API client, handlers, MIME table or vault key of their own)', () => {
    for (const file of files.filter((name) => !name.endsWith('mime.ts'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/new ApiClient\(|createIpcHandlers\(|const MIME\b|`embedded:/);
    }
  });

  it('hold no user-facing text of their own (every French text comes from MESSAGES)', () => {
    for (const file of files) {
      const literals = readFileSync(file, 'utf8').match(/(['"`])(?:(?!\1)[^\\\n]|\\.)*\1/g) ?? [];
      const french = literals.filter((literal) => /[À-ÿ]/.test(literal) || /User not allowed/.test(literal));
      expect(french, file).toEqual([]);
    }
  });

  it('split the web host into static files, IPC over HTTP, events and file transfers', () => {
    expect(readdirSync(join(root, 'src-main/hosts/web')).sort()).toEqual(
      expect.arrayContaining(['files.ts', 'events.ts', 'ipc-http.ts', 'static-files.ts']),
    );
  });
});

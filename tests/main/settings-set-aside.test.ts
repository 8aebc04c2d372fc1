import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKPLACE_MESSAGES } from '@shared/messages';
import { startWebHost } from '../../src-main/hosts/web';
import { createMainServices } from '../../src-main/main-services';
import { createRollingLog } from '../../src-main/services/logs';
import { DEFAULT_SETTINGS, createJsonSettingsStore, createSettingsStore, setAsideUnreadableFile } from '../../src-main/services/settings';
import type { KeyValueStore } from '../../src-main/services/session-vault';
import { startTestServer } from '../helpers/server';
import { until } from '../helpers/until';

/**
 * A settings file a hand edit broke (issue 52: a trailing comma in backoffice.json threw SyntaxError before any
 * log opened, and the app did not start): set aside with the time, the app on its defaults, the copy named.
 */
const work = mkdtempSync(join(tmpdir(), 'bo-set-aside-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TRAILING_COMMA = '{\n  "settings": {\n    "apiUrl": "https://backoffice.exemple.fr",\n  },\n}\n';

describe('an unreadable settings file', () => {
  it('is renamed beside itself with the time, its bytes kept, and an absent or good file is left alone', () => {
    const folder = join(work, 'desktop');
    mkdirSync(folder);
    const file = join(folder, 'backoffice.json');
    expect(setAsideUnreadableFile(file)).toBeNull();
    writeFileSync(file, '{"settings":{"environmentLabel":"recette"}}');
    expect(setAsideUnreadableFile(file)).toBeNull();
    expect(existsSync(file)).toBe(true);

    writeFileSync(file, TRAILING_COMMA);
    const setAside = setAsideUnreadableFile(file, new Date('2026-12-07T15:04:05.678Z'));
    expect(setAside).toMatchObject({ file, copy: join(folder, 'backoffice.illisible-2026-12-07T15-04-05-678Z.json') });
    expect(setAside!.reason).toMatch(/JSON/);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(setAside!.copy, 'utf8')).toBe(TRAILING_COMMA);

    // Valid JSON that is not an object (a truncated write left "null") is no settings file either.
    writeFileSync(file, 'null');
    expect(setAsideUnreadableFile(file, new Date('2026-12-07T15:04:06Z'))?.reason).toBe('not a JSON object');
    expect(readdirSync(folder).sort()).toEqual([
      'backoffice.illisible-2026-12-07T15-04-05-678Z.json',
      'backoffice.illisible-2026-12-07T15-04-06-000Z.json',
    ]);
  });

  it("starts the desktop app's store on the defaults, and app:info names the copy for the page's banner", async () => {
    const file = join(work, 'main.json');
    writeFileSync(file, TRAILING_COMMA);
    const setAside = setAsideUnreadableFile(file);
    const values = new Map<string, unknown>();
    const backend: KeyValueStore = {
      get: (key) => values.get(key),
      set: (key, value) => void values.set(key, value),
      delete: (key) => void values.delete(key),
    };
    const settings = createSettingsStore(backend, setAside);
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    const services = createMainServices({
      host: 'electron',
      version: () => '1.0.0',
      settings,
      files: {} as never,
      embedded: async () => ({ url: 'http://127.0.0.1:1', databaseKind: 'pglite' }),
    });
    expect((await services.appInfo()).settingsSetAside).toBe(setAside!.copy);
  });

  it("the web host's file the same: set aside, started on defaults, logged, and the copy said to the page", async () => {
    const api = await startTestServer();
    const folder = join(work, 'web');
    const rendererDir = join(folder, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    const settingsFile = join(folder, 'settings.json');
    writeFileSync(settingsFile, TRAILING_COMMA);
    const log = await createRollingLog({ dir: join(folder, 'logs'), name: 'web' });
    const host = await startWebHost({ port: 0, rendererDir, apiUrl: api.url, settingsFile, logger: log.logger, logDir: log.dir });
    try {
      const [copy] = readdirSync(folder).filter((name) => name.startsWith('settings.illisible-'));
      expect(copy).toMatch(/^settings\.illisible-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/);
      expect(readFileSync(join(folder, copy!), 'utf8')).toBe(TRAILING_COMMA);
      // The host's own API address went into a fresh file: nothing of the broken one was overwritten.
      expect(JSON.parse(readFileSync(settingsFile, 'utf8')).settings.apiUrl).toBe(api.url);
      const page = await fetch(host.url);
      const cookie = page.headers.get('set-cookie')?.split(';')[0];
      const info = await fetch(`${host.url}/__ipc/app:info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-backoffice-secret': host.secret, origin: host.url, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({}),
      });
      const answer = (await info.json()) as { ok: boolean; data: { settingsSetAside?: string } };
      expect(answer.data.settingsSetAside).toBe(join(folder, copy!));
      expect(WORKPLACE_MESSAGES.settingsSetAside(answer.data.settingsSetAside!)).toContain(join(folder, copy!));
      const logged = () =>
        readdirSync(log.dir).some((name) => readFileSync(join(log.dir, name), 'utf8').includes('unreadable settings file set aside'));
      expect(await until(logged)).toBe(true);
    } finally {
      await host.close();
      log.close();
      await api.close();
    }
  });

  it('a file that turns corrupt while the app runs reads as defaults, and the next start sets it aside', () => {
    const file = join(work, 'later.json');
    const store = createJsonSettingsStore(file);
    store.set({ environmentLabel: 'recette' });
    writeFileSync(file, '{ "settings": ');
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(createJsonSettingsStore(file).setAside?.copy).toMatch(/later\.illisible-.*\.json$/);
  });
});

import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { createIpcHandlers, dispatchIpc, type HostFiles } from '../../src-main/ipc/handlers';
import { isTrustedSender } from '../../src-main/ipc/sender';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, createSettingsStore, type SettingsStore } from '../../src-main/services/settings';

describe('IPC sender check', () => {
  const expected = { webContentsId: 3, origin: 'app://renderer' };
  it('accepts our window’s main frame on our origin only', () => {
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: 'app://renderer/admin' }, expected)).toBe(true);
    expect(isTrustedSender({ webContentsId: 4, isMainFrame: true, frameUrl: 'app://renderer/admin' }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: false, frameUrl: 'app://renderer/admin' }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: 'https://evil.example/' }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: undefined }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: 'garbage' }, expected)).toBe(false);
  });
});

describe('IPC dispatch', () => {
  async function handlers(files: Partial<HostFiles> = {}) {
    const vault = await createSessionVault({ service: 't', account: 't' });
    const settings: SettingsStore = {
      get: () => ({ ...DEFAULT_SETTINGS }),
      set: () => {
        throw new Error('settings are read-only here');
      },
      getWindowBounds: () => null,
      setWindowBounds: () => undefined,
    };
    return createIpcHandlers({
      api: new ApiClient({ baseUrl: () => 'http://127.0.0.1:9', vault }),
      settings,
      files: { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null, ...files },
      appInfo: () => ({ version: '1', apiUrl: 'x', databaseKind: 'pglite', host: 'electron', demo: false }),
    });
  }

  it('answers an unknown channel and a bad payload with a typed failure, never a throw', async () => {
    const h = await handlers();
    for (const channel of [undefined, 42, 'nope', '__proto__', 'constructor']) {
      expect(await dispatchIpc(h, channel, {})).toMatchObject({ ok: false, status: 0 });
    }
    const bad = await dispatchIpc(h, 'api:call', { operation: 'admin.roles', input: { body: 1 }, extra: true });
    expect(bad).toMatchObject({ ok: false, status: 0, errorMsg: expect.stringContaining(MESSAGES.invalidIpcCall) });
    // The same French wording as every other validation failure, naming the field.
    expect(await dispatchIpc(h, 'session:signIn', { username: 'a@b.fr', password: 'x'.repeat(1025) })).toEqual({
      ok: false,
      status: 0,
      errorMsg: `${MESSAGES.invalidIpcCall} : Mot de passe : 1024 caractères au plus`,
      field: 'password',
    });
    expect(await dispatchIpc(h, 'api:call', { operation: 'auth.signIn', input: {} })).toMatchObject({ ok: false });
    expect(await dispatchIpc(h, 'files:savePdf', { defaultName: '', contentBase64: '' })).toMatchObject({ ok: false });
  });

  it('files:exportCsv takes columns for a paged list only: an operation answering its own file takes none', async () => {
    const h = await handlers();
    const exportOf = (operation: string, extra: object) =>
      dispatchIpc(h, 'files:exportCsv', { jobId: crypto.randomUUID(), operation, input: { body: {} }, defaultName: 'a.csv', ...extra });
    const columns = [{ key: 'name', header: 'Nom' }];
    // Valid calls reach the save dialog, which this host closes (null).
    expect(await exportOf('targets.export', {})).toEqual({ ok: true, data: null });
    expect(await exportOf('groups.list', { columns, input: { query: {} } })).toEqual({ ok: true, data: null });
    expect(await exportOf('targets.export', { columns })).toMatchObject({ ok: false, status: 0, field: 'columns' });
    expect(await exportOf('groups.list', { input: { query: {} } })).toMatchObject({ ok: false, status: 0, field: 'columns' });
  });

  it('turns a throwing handler into a failure with its message', async () => {
    const h = await handlers({
      pickCsv: async () => {
        throw new Error(MESSAGES.csvOnly);
      },
    });
    expect(await dispatchIpc(h, 'files:previewCsv', {})).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.csvOnly });
    expect(await dispatchIpc(h, 'settings:set', { environmentLabel: 'recette' })).toEqual({ ok: false, status: 0, errorMsg: 'settings are read-only here' });
  });

  it('reports an unreachable server on api:call in French', async () => {
    const h = await handlers();
    expect(await dispatchIpc(h, 'api:call', { operation: 'password.reset', input: { body: { username: 'a@b.fr' } } })).toEqual({
      ok: false,
      status: 0,
      errorMsg: MESSAGES.networkUnreachable,
    });
  });

  it('never lets the page change the API address through settings:set', async () => {
    const h = await handlers();
    const refused = await dispatchIpc(h, 'settings:set', { apiUrl: 'https://collector.example' });
    expect(refused).toMatchObject({ ok: false, status: 0, errorMsg: expect.stringContaining(MESSAGES.invalidIpcCall), field: 'apiUrl' });
  });
});

describe('settings:changeApiUrl', () => {
  async function withConfirm(confirmApiUrl?: (apiUrl: string) => Promise<boolean>) {
    const store = new Map<string, unknown>();
    const settings = createSettingsStore({ get: (key) => store.get(key), set: (key, value) => void store.set(key, value), delete: (key) => void store.delete(key) });
    const vault = await createSessionVault({ service: 't', account: 't' });
    const asked: string[] = [];
    const h = createIpcHandlers({
      api: new ApiClient({ baseUrl: () => 'http://127.0.0.1:9', vault }),
      settings,
      files: { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null },
      appInfo: () => ({ version: '1', apiUrl: 'x', databaseKind: 'pglite', host: 'electron', demo: false }),
      emit: () => undefined,
      confirmApiUrl: confirmApiUrl && (async (apiUrl) => (asked.push(apiUrl), confirmApiUrl(apiUrl))),
    });
    return { h, settings, asked };
  }

  it('changes the address only once the user confirmed it outside the page', async () => {
    const no = await withConfirm(async () => false);
    expect(await dispatchIpc(no.h, 'settings:changeApiUrl', { apiUrl: 'https://api.exemple.fr/' })).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.apiUrlChangeRefused });
    expect(no.asked).toEqual(['https://api.exemple.fr']);
    expect(no.settings.get().apiUrl).toBe('');
    const yes = await withConfirm(async () => true);
    expect(await dispatchIpc(yes.h, 'settings:changeApiUrl', { apiUrl: 'https://api.exemple.fr/' })).toMatchObject({ ok: true, data: { apiUrl: 'https://api.exemple.fr' } });
    expect(yes.settings.get().apiUrl).toBe('https://api.exemple.fr');
  });

  it('refuses plain http elsewhere than this machine before asking anyone', async () => {
    const yes = await withConfirm(async () => true);
    expect(await dispatchIpc(yes.h, 'settings:changeApiUrl', { apiUrl: 'http://collector.example:8080' })).toEqual({ ok: false, status: 0, errorMsg: MESSAGES.invalidServerUrl });
    expect(yes.asked).toEqual([]);
    expect(yes.settings.get().apiUrl).toBe('');
  });

  it('refuses any change where the host offers no confirmation (web host)', async () => {
    const web = await withConfirm(undefined);
    expect(await dispatchIpc(web.h, 'settings:changeApiUrl', { apiUrl: 'https://api.exemple.fr' })).toEqual({ ok: false, status: 403, errorMsg: MESSAGES.apiUrlFromHostOnly });
  });
});

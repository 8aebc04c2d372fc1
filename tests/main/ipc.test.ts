import { describe, expect, it } from 'vitest';
import { ipcChannels } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { createIpcHandlers, dispatchIpc } from '../../src-main/ipc/handlers';
import type { HostFiles } from '../../src-main/services/host-files';
import { isTrustedSender } from '../../src-main/ipc/sender';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';

describe('IPC sender check', () => {
  const expected = { webContentsIds: new Set([3, 8]), origin: 'app://renderer' };
  it('accepts our window’s main frame on our origin only', () => {
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: 'app://renderer/admin' }, expected)).toBe(true);
    expect(isTrustedSender({ webContentsId: 4, isMainFrame: true, frameUrl: 'app://renderer/admin' }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: false, frameUrl: 'app://renderer/admin' }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: 'https://evil.example/' }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: undefined }, expected)).toBe(false);
    expect(isTrustedSender({ webContentsId: 3, isMainFrame: true, frameUrl: 'garbage' }, expected)).toBe(false);
    // A second app window (an in-app link opened in a "new tab"), and only while it is one of ours.
    expect(isTrustedSender({ webContentsId: 8, isMainFrame: true, frameUrl: 'app://renderer/adverts/edit/5' }, expected)).toBe(true);
    expect(isTrustedSender({ webContentsId: 8, isMainFrame: false, frameUrl: 'app://renderer/adverts/edit/5' }, expected)).toBe(false);
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
  });

  it('reports an unreachable server on api:call in French', async () => {
    const h = await handlers();
    expect(await dispatchIpc(h, 'api:call', { operation: 'password.reset', input: { body: { username: 'a@b.fr' } } })).toEqual({
      ok: false,
      status: 0,
      errorMsg: MESSAGES.networkUnreachable,
    });
  });

  it('offers the page no channel that changes a setting (the API address receives passwords and tokens)', () => {
    expect(Object.keys(ipcChannels).filter((channel) => channel.startsWith('settings:'))).toEqual(['settings:get']);
  });
});

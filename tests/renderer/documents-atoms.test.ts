import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { BackofficeBridge, IpcChannel, IpcResult } from '@shared/ipc';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import {
  createFolderAtom,
  currentFolderAtom,
  deleteFileAtom,
  openFolderAtom,
  selectedFileAtom,
  treeAtom,
  uploadDocumentAtom,
} from '../../src-renderer/features/documents/atoms';
import { formatDate } from '@shared/rules/dates';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import { pendingNoticesAtom } from '../../src-renderer/lib/notices';
import { cancelUploadAtom, uploadFileAtom, uploadProgressAtom, uploadsAtom } from '../../src-renderer/lib/uploads';

const file = (name: string, folder = 'assets/clients') => ({
  name,
  path: `${folder}/${name}`,
  url: `/cdn/${folder}/${name}?d=1`,
  size: 10,
  updatedAt: Date.UTC(2026, 0, 5),
});

/** A bridge that answers each channel from `answers` (a function of the payload) and records every call. */
function scriptedBridge(answers: Partial<Record<IpcChannel, (payload: any) => IpcResult<unknown> | Promise<IpcResult<unknown>>>>) {
  const calls: { channel: IpcChannel; payload: any }[] = [];
  const bridge: BackofficeBridge = {
    invoke: (async (channel: IpcChannel, payload?: unknown) => {
      calls.push({ channel, payload });
      return (answers[channel] ?? (() => ({ ok: true, data: null })))(payload);
    }) as BackofficeBridge['invoke'],
    on: () => () => undefined,
  };
  return { bridge, calls };
}

const listing = (folder: string, files: ReturnType<typeof file>[], folders: string[] = []) => ({
  ok: true as const,
  data: { folder, files, folders: folders.map((name) => ({ name, path: `${folder}/${name}` })) },
});

describe('upload jobs (lib/uploads)', () => {
  it('shows the job and its progress while main uploads, ignores other jobs, forgets it after, and cancels', async () => {
    const store = createStore();
    let finish: (result: IpcResult<unknown>) => void = () => undefined;
    const { bridge, calls } = scriptedBridge({
      'files:upload': () => new Promise((resolve) => (finish = resolve)),
      'files:cancel': () => ({ ok: true, data: { cancelled: true } }),
    });
    store.set(bridgeAtom, bridge);
    const running = store.set(uploadFileAtom, { operation: 'storage.uploadDocument', fields: { path: 'assets/clients' }, label: 'clients' });
    const [job] = store.get(uploadsAtom);
    expect(calls[0]).toEqual({
      channel: 'files:upload',
      payload: { operation: 'storage.uploadDocument', fields: { path: 'assets/clients' }, jobId: job.id },
    });
    store.set(uploadProgressAtom, { jobId: job.id, done: 5, total: 10 });
    store.set(uploadProgressAtom, { jobId: 'other', done: 1, total: 1 });
    expect(store.get(uploadsAtom)).toEqual([{ id: job.id, label: 'clients', done: 5, total: 10, cancelling: false }]);
    await store.set(cancelUploadAtom, job.id);
    expect(store.get(uploadsAtom)[0].cancelling).toBe(true);
    expect(calls[1]).toEqual({ channel: 'files:cancel', payload: { jobId: job.id } });
    finish({ ok: false, status: 0, errorMsg: STORAGE_MESSAGES.uploadCancelled });
    expect(await running).toMatchObject({ ok: false });
    expect(store.get(uploadsAtom)).toEqual([]);
  });
});

describe('storage browser atoms', () => {
  it('opens folders into the tree, uploads with the spec toast and reloads, deletes with its toast and resets the selection', async () => {
    const store = createStore();
    let files = [file('logo.png')];
    const { bridge, calls } = scriptedBridge({
      'api:call': ({ operation, input }) => {
        if (operation === 'storage.list') return listing(input.query.folder, files, ['Labo']);
        if (operation === 'storage.deleteDocument') {
          files = files.filter((entry) => entry.path !== input.body.filePath);
          return { ok: true, data: { deleted: input.body.filePath } };
        }
        return { ok: false, status: 500, errorMsg: 'unexpected' };
      },
      'files:upload': () => {
        files = [...files, file('deck.pptx')];
        return { ok: true, data: { fileName: 'deck.pptx', answer: {} } };
      },
    });
    store.set(bridgeAtom, bridge);
    await store.set(openFolderAtom, 'assets/clients');
    expect(store.get(treeAtom)).toEqual({ 'assets/clients': [{ name: 'Labo', path: 'assets/clients/Labo' }] });

    await store.set(uploadDocumentAtom);
    expect(store.get(pendingNoticesAtom).map((notice) => [notice.text, notice.kind])).toEqual([['Fichier importé avec succès', 'success']]);
    expect(calls.filter((call) => call.channel === 'api:call')).toHaveLength(2);

    store.set(selectedFileAtom, files[1]);
    await store.set(deleteFileAtom, files[1]);
    expect(store.get(pendingNoticesAtom).at(-1)).toMatchObject({ text: 'Fichier supprimé avec succès', kind: 'success' });
    expect(store.get(selectedFileAtom)).toBeNull();
    await store.set(deleteFileAtom, files[0]);
    expect(store.get(pendingNoticesAtom).at(-1)).toMatchObject({ text: 'Image supprimée avec succès', kind: 'success' });
  });

  it("says 'Une erreur est survenue: {detail}' when a delete or an upload fails; a cancel is information", async () => {
    const store = createStore();
    const { bridge } = scriptedBridge({
      'api:call': ({ operation, input }) =>
        operation === 'storage.list' ? listing(input.query.folder, []) : { ok: false, status: 404, errorMsg: STORAGE_MESSAGES.fileNotFound },
      'files:upload': ({ fields }) =>
        fields.path.endsWith('Stop')
          ? { ok: false, status: 0, errorMsg: STORAGE_MESSAGES.uploadCancelled }
          : { ok: false, status: 400, errorMsg: 'Type de fichier non autorisé' },
    });
    store.set(bridgeAtom, bridge);
    await store.set(deleteFileAtom, file('x.pdf'));
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual({
      text: `Une erreur est survenue: ${STORAGE_MESSAGES.fileNotFound}`,
      kind: 'error',
      durationMs: 2500,
    });
    await store.set(uploadDocumentAtom);
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual({
      text: 'Une erreur est survenue: Type de fichier non autorisé',
      kind: 'error',
      durationMs: 2500,
    });
    store.set(currentFolderAtom, 'assets/clients/Stop');
    await store.set(uploadDocumentAtom);
    expect(store.get(pendingNoticesAtom).at(-1)).toMatchObject({ text: STORAGE_MESSAGES.uploadCancelled, kind: 'info' });
  });

  it('checks the new folder name beside the field, then uploads an empty .keep without a dialog', async () => {
    const store = createStore();
    const { bridge, calls } = scriptedBridge({
      'api:call': ({ input }) => listing(input.query.folder, []),
      'files:upload': () => ({ ok: true, data: { fileName: '.keep', answer: {} } }),
    });
    store.set(bridgeAtom, bridge);
    expect(await store.set(createFolderAtom, '  ')).toBe(STORAGE_MESSAGES.folderNameRequired);
    expect(await store.set(createFolderAtom, '../x')).toBe(STORAGE_MESSAGES.folderNameInvalid);
    expect(calls).toEqual([]);
    expect(await store.set(createFolderAtom, ' Labo Été ')).toBeNull();
    expect(calls[0]).toMatchObject({
      channel: 'files:upload',
      payload: { operation: 'storage.uploadDocument', fields: { path: 'assets/clients/Labo Été' }, folderMarker: true },
    });
  });

  it('shows dates as DD/MM/yyyy', () => {
    expect(formatDate(new Date(2026, 0, 5, 12).getTime() / 1000)).toBe('05/01/2026');
  });
});

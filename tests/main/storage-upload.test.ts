import { randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcEventPayload } from '@shared/ipc';
import { STORAGE_MESSAGES, formatNotAllowed, tooLargeFor } from '@shared/messages/storage';
import { DOCUMENT_FORMATS, DOCUMENT_MAX_BYTES } from '@shared/rules/storage';
import { createIpcHandlers, dispatchIpc, type IpcHandlers } from '../../src-main/ipc/handlers';
import type { PickedFile } from '../../src-main/services/host-files';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * The upload channel end to end below the page: main picks a file (as the dialog would), checks it against the
 * contract, streams it from disk to the real API with progress events, and can be cancelled. A 200 MB file goes
 * through with memory flat (RSS sampled while it streams; the API runs in this same process, so both ends count).
 */
const MB = 1024 * 1024;
/** An MP4 file type box: the bytes say video/mp4. */
const MP4_HEAD = Buffer.from('0000001866747970' + '6d70343200000000' + '69736f6d6d703432', 'hex');

let server: TestServer;
let folder: string;
let picks: { formats: readonly string[] }[] = [];
let nextPick: PickedFile | null = null;
let events: IpcEventPayload<'files:progress'>[] = [];
let handlers: IpcHandlers;
let api: ApiClient;
const root = 'assets/clients/main-upload';

function writeVideo(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  writeSync(fd, MP4_HEAD);
  const chunk = Buffer.alloc(4 * MB, 1);
  let written = MP4_HEAD.length;
  while (written < bytes) {
    const size = Math.min(chunk.length, bytes - written);
    writeSync(fd, chunk, 0, size);
    written += size;
  }
  closeSync(fd);
}

beforeAll(async () => {
  server = await startTestServer();
  folder = mkdtempSync(join(tmpdir(), 'bo-main-upload-'));
  const { email } = await server.createAccount(['CONTENT_CREATOR']);
  const vault = await createSessionVault({ service: 't', account: 't' });
  api = new ApiClient({ baseUrl: () => server.url, vault });
  expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
  const settings: SettingsStore = {
    get: () => ({ ...DEFAULT_SETTINGS }),
    set: () => ({ ...DEFAULT_SETTINGS }),
    getWindowBounds: () => null,
    setWindowBounds: () => undefined,
  };
  handlers = createIpcHandlers({
    api,
    settings,
    files: {
      exportDestination: async () => null,
      pickCsv: async () => null,
      savePdf: async () => null,
      pickUpload: async (request) => {
        picks.push({ formats: request.formats });
        return nextPick;
      },
    },
    appInfo: () => ({ version: '1', apiUrl: server.url, databaseKind: 'pglite', host: 'electron', demo: false }),
    emit: (event, payload) => {
      if (event === 'files:progress') events.push(payload as IpcEventPayload<'files:progress'>);
    },
  });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

function upload(extra: Record<string, unknown> = {}) {
  return dispatchIpc(handlers, 'files:upload', { jobId: randomUUID(), operation: 'storage.uploadDocument', fields: { path: root }, ...extra });
}

async function listed(path = root): Promise<string[]> {
  const answer = await api.call('storage.list', { query: { folder: path } });
  if (!answer.ok) throw new Error(answer.errorMsg);
  return answer.data.files.map((file) => file.name);
}

describe('files:upload', () => {
  it('streams a 200 MB file from disk with progress, memory flat, and answers the server reply', async () => {
    const path = join(folder, 'film.mp4');
    writeVideo(path, 200 * MB);
    nextPick = { path, fileName: 'film.mp4', temporary: false };
    events = [];
    picks = [];
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const result = await upload();
    clearInterval(sampler);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const data = (result as { data: { fileName: string; answer: { path: string; size: number; url: string } } }).data;
    expect(data.fileName).toBe('film.mp4');
    expect(data.answer).toMatchObject({ path: `${root}/film.mp4`, size: 200 * MB });
    // The dialog was filtered to the operation's formats.
    expect(picks).toEqual([{ formats: DOCUMENT_FORMATS }]);
    // Progress: from 0 to the whole file, in order, about one event per percent.
    expect(events[0]).toMatchObject({ done: 0, total: 200 * MB });
    expect(events.at(-1)).toMatchObject({ done: 200 * MB, total: 200 * MB });
    expect(events.length).toBeGreaterThan(50);
    expect(events.length).toBeLessThan(250);
    for (let i = 1; i < events.length; i += 1) expect(events[i].done).toBeGreaterThanOrEqual(events[i - 1].done);
    // Whole-file buffering would add 200 MB at least (twice with the server in this process).
    const growth = (peak - before) / MB;
    expect(growth, `RSS grew ${growth.toFixed(0)} MB`).toBeLessThan(120);
    const media = await fetch(`${server.url}${data.answer.url}`, { method: 'GET' });
    expect(media.headers.get('content-type')).toBe('video/mp4');
    expect(media.headers.get('content-length')).toBe(String(200 * MB));
    await media.body?.cancel();
  }, 240_000);

  it('cancels an upload under way: the answer says so and nothing is stored', async () => {
    const path = join(folder, 'long.mp4');
    writeVideo(path, 120 * MB);
    nextPick = { path, fileName: 'long.mp4', temporary: false };
    events = [];
    const jobId = randomUUID();
    const running = dispatchIpc(handlers, 'files:upload', { jobId, operation: 'storage.uploadDocument', fields: { path: root } });
    while (!events.some((event) => event.done > 10 * MB)) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await dispatchIpc(handlers, 'files:cancel', { jobId })).toEqual({ ok: true, data: { cancelled: true } });
    expect(await running).toEqual({ ok: false, status: 0, errorMsg: STORAGE_MESSAGES.uploadCancelled });
    // The server drops the half-received file once the connection is gone.
    for (let i = 0; i < 100 && (await listed()).includes('long.mp4'); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await listed()).not.toContain('long.mp4');
  }, 120_000);

  it('checks fields, extension and size against the contract before a byte leaves; a cancelled dialog is null', async () => {
    nextPick = null;
    expect(await upload()).toEqual({ ok: true, data: null });
    const exe = join(folder, 'tool.exe');
    writeFileSync(exe, 'MZ');
    nextPick = { path: exe, fileName: 'tool.exe', temporary: false };
    expect(await upload()).toEqual({ ok: false, status: 400, errorMsg: formatNotAllowed(DOCUMENT_FORMATS) });
    const huge = join(folder, 'huge.mp4');
    writeFileSync(huge, MP4_HEAD);
    truncateSync(huge, DOCUMENT_MAX_BYTES + 1);
    nextPick = { path: huge, fileName: 'huge.mp4', temporary: false };
    expect(await upload()).toEqual({ ok: false, status: 413, errorMsg: tooLargeFor(DOCUMENT_MAX_BYTES) });
    expect(await upload({ fields: { path: root, other: 'x' } })).toMatchObject({ ok: false, status: 400 });
    expect(await dispatchIpc(handlers, 'files:upload', { jobId: randomUUID(), operation: 'storage.list', fields: {} })).toMatchObject({
      ok: false,
      status: 0,
    });
    // The server's refusal comes back as is: a PNG named .mp4.
    const fake = join(folder, 'fake.mp4');
    writeFileSync(fake, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    nextPick = { path: fake, fileName: 'fake.mp4', temporary: true };
    expect(await upload()).toEqual({ ok: false, status: 400, errorMsg: STORAGE_MESSAGES.invalidFileType });
  });

  it('makes a folder with an empty .keep, no dialog', async () => {
    picks = [];
    const result = await upload({ fields: { path: `${root}/Nouveau dossier` }, folderMarker: true });
    expect(result).toMatchObject({ ok: true, data: { fileName: '.keep', answer: { path: `${root}/Nouveau dossier/.keep`, size: 0 } } });
    expect(picks).toEqual([]);
    const answer = await api.call('storage.list', { query: { folder: root } });
    expect(answer.ok && answer.data.folders).toEqual([{ name: 'Nouveau dossier', path: `${root}/Nouveau dossier` }]);
  });
});

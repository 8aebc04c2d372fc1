import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_UPLOAD_MAX_BYTES, type IpcEventPayload } from '@shared/ipc';
import { STORAGE_MESSAGES, formatNotAllowed } from '@shared/messages/storage';
import { ADVERT_ATTACHMENT_FORMATS } from '@shared/rules/storage';
import { createIpcHandlers, dispatchIpc, type IpcHandlers } from '../../src-main/ipc/handlers';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';
import { PNG } from '../fixtures/storage-files';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * 'files:uploadBytes' below the page: bytes the image editor made go to an upload operation through main, with
 * the same checks as a file from disk (fields, extension, size, 10 MB cap), progress events and the server's answer.
 */
let server: TestServer;
let handlers: IpcHandlers;
let api: ApiClient;
let advertId: number;
let events: IpcEventPayload<'files:progress'>[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const { email } = await server.createAccount(['CSM']);
  const vault = await createSessionVault({ service: 't', account: 't' });
  api = new ApiClient({ baseUrl: () => server.url, vault });
  expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
  const created = await api.call('adverts.create', { body: { advert: { name: 'Octets', type: 'post' } } });
  if (!created.ok) throw new Error(created.errorMsg);
  advertId = created.data.id;
  const settings: SettingsStore = {
    get: () => ({ ...DEFAULT_SETTINGS }),
    set: () => ({ ...DEFAULT_SETTINGS }),
    getWindowBounds: () => null,
    setWindowBounds: () => undefined,
  };
  handlers = createIpcHandlers({
    api,
    settings,
    files: { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null },
    appInfo: () => ({ version: '1', apiUrl: server.url, databaseKind: 'pglite', host: 'electron', demo: false }),
    emit: (event, payload) => {
      if (event === 'files:progress') events.push(payload as IpcEventPayload<'files:progress'>);
    },
  });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await server?.close();
});

function send(bytes: Buffer, extra: Record<string, unknown> = {}) {
  return dispatchIpc(handlers, 'files:uploadBytes', {
    jobId: randomUUID(),
    operation: 'adverts.uploadAttachment',
    params: { kind: 'cover' },
    fields: { advertId: String(advertId) },
    fileName: 'recadre.png',
    contentBase64: bytes.toString('base64'),
    ...extra,
  });
}

describe('files:uploadBytes', () => {
  it("sends the page's bytes with progress and answers the server's reply", async () => {
    events = [];
    const result = await send(PNG);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const answer = (result as { data: { fileName: string; answer: { webpath: string; advert: { image: string } } } }).data;
    expect(answer.fileName).toBe('recadre.png');
    expect(answer.answer.webpath).toMatch(new RegExp(`^/cdn/assets/adverts/${advertId}/cover-[0-9a-f]{8}\\.png\\?d=\\d{10}$`));
    expect(answer.answer.advert.image).toBe(answer.answer.webpath);
    expect(events.at(-1)).toMatchObject({ done: PNG.length, total: PNG.length });
    const media = await fetch(`${server.url}${answer.answer.webpath}`);
    expect(Buffer.from(await media.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('checks extension, size and payload before a byte leaves; the server refuses bytes that are not what the name says', async () => {
    expect(await send(PNG, { fileName: 'recadre.exe' })).toEqual({ ok: false, status: 400, errorMsg: formatNotAllowed(ADVERT_ATTACHMENT_FORMATS) });
    expect(await send(Buffer.concat([PNG, Buffer.alloc(PAGE_UPLOAD_MAX_BYTES + 1 - PNG.length)]))).toEqual({
      ok: false,
      status: 413,
      errorMsg: STORAGE_MESSAGES.tooLarge,
    });
    // Past the cap the payload itself is refused, and so is text that is not base64.
    expect(await send(Buffer.alloc(PAGE_UPLOAD_MAX_BYTES + 4))).toMatchObject({ ok: false, status: 0 });
    expect(await send(PNG, { contentBase64: 'not base64!' })).toMatchObject({ ok: false, status: 0 });
    expect(await send(PNG, { fields: { advertId: 'x' } })).toMatchObject({ ok: false, status: 400 });
    expect(await send(PNG, { fileName: 'clip.mp4', params: { kind: 'video' } })).toEqual({
      ok: false,
      status: 400,
      errorMsg: STORAGE_MESSAGES.invalidFileType,
    });
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_UPLOAD_MAX_BYTES } from '@shared/ipc';
import { formatNotAllowed, tooLargeFor } from '@shared/messages/storage';
import { SCREENSHOT_FORMATS, SCREENSHOT_MAX_BYTES } from '@shared/rules/preview';
import { createIpcHandlers, dispatchIpc, type IpcHandlers } from '../../src-main/ipc/handlers';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';
import { PNG } from '../fixtures/storage-files';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * 'files:uploadBytes': a capture made by the page goes to bat.uploadScreenshot through main, checked against the
 * channel map (size cap, base64) and the operation's contract (fields, extension, size) before a byte leaves.
 */
let server: TestServer;
let handlers: IpcHandlers;
let api: ApiClient;
let advertId: number;

beforeAll(async () => {
  server = await startTestServer();
  const { email } = await server.createAccount(['CSM']);
  const vault = await createSessionVault({ service: 't', account: 't' });
  api = new ApiClient({ baseUrl: () => server.url, vault });
  expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
  const created = await api.call('adverts.create', { body: { advert: { name: 'Capture', type: 'post' } } });
  if (!created.ok) throw new Error(created.errorMsg);
  advertId = (created.data as { id: number }).id;
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
    emit: () => undefined,
  });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await server?.close();
});

const send = (extra: Record<string, unknown>) =>
  dispatchIpc(handlers, 'files:uploadBytes', {
    jobId: randomUUID(),
    operation: 'bat.uploadScreenshot',
    fields: { advertId: String(advertId) },
    fileName: 'preview.png',
    contentBase64: PNG.toString('base64'),
    ...extra,
  });

describe('files:uploadBytes', () => {
  it("sends the page's PNG to the advert's BAT screenshots and answers webpath[]", async () => {
    const result = await send({});
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const answer = (result as { data: { answer: { webpath: string[] } } }).data.answer;
    expect(answer.webpath[0]).toMatch(new RegExp(`^/cdn/assets/bat/${advertId}/`));
    const listed = await api.call('bat.listScreenshots', { params: { advertId } });
    expect(listed.ok && listed.data.screenshots.map((shot) => shot.imgPath)).toEqual(answer.webpath);
  });

  it('refuses before sending: another extension, a file over the limit, bad fields, bad base64, past the channel cap', async () => {
    expect(await send({ fileName: 'preview.jpg' })).toMatchObject({ ok: false, errorMsg: formatNotAllowed(SCREENSHOT_FORMATS) });
    const big = Buffer.alloc(SCREENSHOT_MAX_BYTES + 1).toString('base64');
    expect(await send({ contentBase64: big })).toMatchObject({ ok: false, status: 413, errorMsg: tooLargeFor(SCREENSHOT_MAX_BYTES) });
    expect(await send({ fields: { advertId: 'abc' } })).toMatchObject({ ok: false });
    expect(await send({ contentBase64: 'not base64 !' })).toMatchObject({ ok: false });
    expect(await send({ contentBase64: 'A'.repeat(Math.ceil(PAGE_UPLOAD_MAX_BYTES / 3) * 4 + 4) })).toMatchObject({ ok: false });
    expect(await send({ operation: 'adverts.create' })).toMatchObject({ ok: false });
    // None of them reached the server.
    const listed = await api.call('bat.listScreenshots', { params: { advertId } });
    expect(listed.ok && listed.data.screenshots).toHaveLength(1);
  });
});

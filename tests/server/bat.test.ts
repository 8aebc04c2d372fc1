import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { formatNotAllowed } from '@shared/messages/storage';
import { SCREENSHOT_FORMATS } from '@shared/rules/preview';
import { PNG } from '../fixtures/storage-files';
import { startTestServer, type TestServer } from '../helpers/server';

/** BAT screenshots (adverts-articles.md §2.2 capture, §7 BAT upload answering webpath[]), on the local storage. */
describe('BAT screenshots', () => {
  let server: TestServer;
  let folder: string;
  let token: string;
  let advertId: number;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'bo-bat-test-'));
    server = await startTestServer({ config: { storage: { kind: 'local', dir: join(folder, 'files') } } });
    token = (await server.signIn(['CSM'])).accessToken.value;
    const created = await server.request('POST', '/advert/create', { token, body: { advert: { name: 'Capture', type: 'post' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    advertId = created.body.id;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function upload(bearer: string, fields: Record<string, string>, name: string, content: Uint8Array) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file0', new Blob([new Uint8Array(content)]), name);
    const response = await fetch(`${server.url}/bat/screenshot/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('stores a PNG capture, answers webpath[] and lists it, newest first', async () => {
    const first = await upload(token, { advertId: String(advertId) }, 'preview.png', PNG);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.webpath).toHaveLength(1);
    expect(first.body.webpath[0]).toMatch(new RegExp(`^/cdn/assets/bat/${advertId}/[0-9a-f]{8}-preview\\.png\\?d=\\d{10}$`));
    const served = await fetch(`${server.url}${first.body.webpath[0]}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    const second = await upload(token, { advertId: String(advertId) }, 'preview.png', PNG);
    expect(second.body.webpath[0]).not.toBe(first.body.webpath[0]);

    const listed = await server.request('GET', `/bat/${advertId}/screenshots`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.screenshots.map((shot: { imgPath: string }) => shot.imgPath)).toEqual([second.body.webpath[0], first.body.webpath[0]]);
  });

  it('refuses what is not a PNG, an unknown advert, and SALES', async () => {
    expect(await upload(token, { advertId: String(advertId) }, 'preview.jpg', PNG)).toEqual({
      status: 400,
      body: { errorMsg: formatNotAllowed(SCREENSHOT_FORMATS) },
    });
    expect(await upload(token, { advertId: String(advertId) }, 'preview.png', Buffer.from('not a png at all'))).toEqual({
      status: 400,
      body: { errorMsg: 'Type de fichier non autorisé' },
    });
    expect(await upload(token, { advertId: '999999' }, 'preview.png', PNG)).toEqual({
      status: 404,
      body: { errorMsg: PREVIEW_MESSAGES.screenshotAdvertMissing },
    });
    expect((await server.request('GET', '/bat/999999/screenshots', { token })).status).toBe(404);
    const sales = (await server.signIn(['SALES'])).accessToken.value;
    expect(await upload(sales, { advertId: String(advertId) }, 'preview.png', PNG)).toEqual({ status: 403, body: { errorMsg: 'User not allowed' } });
    // Reading the captures stays open to every signed-in role, as reading adverts is.
    expect((await server.request('GET', `/bat/${advertId}/screenshots`, { token: sales })).status).toBe(200);
  });
});

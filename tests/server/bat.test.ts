import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAT_MESSAGES } from '@shared/messages/bat';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { formatNotAllowed } from '@shared/messages/storage';
import { SCREENSHOT_FORMATS } from '@shared/rules/preview';
import { PNG } from '../fixtures/storage-files';
import { startTestServer, type TestServer } from '../helpers/server';

/** The proof (adverts-articles.md §2.6, §7 BAT, §6 roles), on the local storage. */
describe('BAT', () => {
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

  async function upload(
    bearer: string,
    fields: Record<string, string>,
    name: string,
    content: Uint8Array,
    more: [string, Uint8Array][] = [],
    path = '/bat/screenshot/upload',
  ) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    for (const [index, [fileName, bytes]] of [[name, content] as [string, Uint8Array], ...more].entries()) {
      form.append(`file${index}`, new Blob([new Uint8Array(bytes)]), fileName);
    }
    const response = await fetch(`${server.url}${path}`, {
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

    const listed = await server.request('GET', `/bat/screenshots/${advertId}`, { token });
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
    expect((await server.request('GET', '/bat/screenshots/999999', { token })).status).toBe(404);
    const sales = (await server.signIn(['SALES'])).accessToken.value;
    expect(await upload(sales, { advertId: String(advertId) }, 'preview.png', PNG)).toEqual({ status: 403, body: { errorMsg: 'User not allowed' } });
    // Reading the captures stays open to every signed-in role, as reading adverts is.
    expect((await server.request('GET', `/bat/screenshots/${advertId}`, { token: sales })).status).toBe(200);
  });

  const text = (i: string, x: number, y: number, content: unknown = null) => ({
    i,
    x,
    y,
    w: 6,
    h: 2,
    type: 'text',
    url: null,
    displayApp: false,
    content,
  });
  const fetchBat = async (id: number, bearer = token) => (await server.request('GET', `/bat/fetch/${id}`, { token: bearer })).body;

  it('uploads several PNG files at once, refuses the lot when one is not a PNG, and deletes a capture', async () => {
    const created = await server.request('POST', '/advert/create', { token, body: { advert: { name: 'Library', type: 'post' } } });
    const id = created.body.id as number;
    expect((await fetchBat(id)).bat).toBeNull();
    const both = await upload(token, { advertId: String(id) }, 'a.png', PNG, [['b.png', PNG]]);
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.webpath).toHaveLength(2);
    // The first capture made the proof: one page with one layer.
    const document = await fetchBat(id);
    expect(document.bat.pages).toEqual([{ page: 1, layers: [{ id: expect.any(Number), level: 1, content: [] }] }]);
    expect(document.screenshots).toHaveLength(2);
    const refused = await upload(token, { advertId: String(id) }, 'c.png', PNG, [['d.png', Buffer.from('not a png')]]);
    expect(refused).toEqual({ status: 400, body: { errorMsg: 'Type de fichier non autorisé' } });
    expect((await fetchBat(id)).screenshots).toHaveLength(2);
    const shot = document.screenshots[0];
    const deleted = await server.request('DELETE', `/bat/screenshot/${id}/${shot.id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.screenshots.map((s: { id: number }) => s.id)).toEqual([document.screenshots[1].id]);
    expect((await fetch(`${server.url}${shot.imgPath}`)).status).toBe(404);
    expect((await server.request('DELETE', `/bat/screenshot/${id}/${shot.id}`, { token })).body).toEqual({
      errorMsg: BAT_MESSAGES.screenshotMissing,
    });
  });

  it('adds and deletes pages and layers, saves items, refuses a stale save with 409 and SALES writes', async () => {
    const bat = () => fetchBat(advertId);
    const before = await bat();
    const layerId = before.bat.pages[0].layers[0].id;
    const added = await server.request('POST', `/bat/newpage/${advertId}`, { token });
    expect(added.status).toBe(200);
    expect(added.body.bat.pages.map((p: { page: number }) => p.page)).toEqual([1, 2]);
    expect(added.body.bat.version).toBe(before.bat.version + 1);
    const layered = await server.request('POST', `/bat/newlayer/${advertId}`, { token, body: { page: 1 } });
    expect(layered.body.bat.pages[0].layers.map((l: { level: number }) => l.level)).toEqual([1, 2]);
    const secondLayer = layered.body.bat.pages[0].layers[1].id;
    const version = layered.body.bat.version;

    const items = [
      text('t1', 0, 0, {
        root: {
          type: 'root',
          children: [
            { type: 'paragraph', children: [{ type: 'text', text: 'Bonjour', format: 1, style: 'color: #ff0000; background-image: url(x)' }] },
          ],
        },
      }),
      { i: 'img', x: 6, y: 0, w: 6, h: 8, type: 'image', url: '/cdn/assets/bat/1/a.png', displayApp: true, content: null },
      { i: 'arrow', x: 10, y: 20, w: 300, h: 400, type: 'arrow', url: null, displayApp: false, content: null },
    ];
    const saved = await server.request('POST', `/bat/save/${advertId}`, {
      token,
      body: { version, pages: [{ page: 1, layers: [{ id: layerId, level: 1, content: items }] }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.version).toBe(version + 1);
    const reloaded = await bat();
    const content = reloaded.bat.pages[0].layers[0].content;
    expect(content.map((item: { i: string }) => item.i)).toEqual(['t1', 'img', 'arrow']);
    expect(content[0].content.root.children[0].children[0]).toMatchObject({ text: 'Bonjour', format: 1, style: 'color: #ff0000;' });
    expect(content[1]).toMatchObject({ displayApp: true, w: 6, h: 8 });
    expect(content[2]).toMatchObject({ x: 10, y: 20, w: 300, h: 400 });

    // Another member of staff saved from version `version`: refused, nothing overwritten.
    const stale = await server.request('POST', `/bat/save/${advertId}`, {
      token,
      body: { version, pages: [{ page: 1, layers: [{ id: layerId, level: 1, content: [] }] }] },
    });
    // The refusal names who changed the proof and when (docs/architecture.md, "Versions and conflicts").
    expect(stale.status).toBe(409);
    expect(stale.body.errorMsg).toMatch(/^Ce BAT a été modifié par .+ à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/);
    expect(stale.body.errorMsg).not.toContain('un autre utilisateur');
    expect(stale.body.conflict).toMatchObject({ version: version + 1, updatedBy: expect.any(String) });
    expect((await bat()).bat.pages[0].layers[0].content).toHaveLength(3);

    const deletedLayer = await server.request('DELETE', `/bat/layer/${advertId}`, { token, body: { page: 1, layerId: secondLayer } });
    expect(deletedLayer.body.bat.pages[0].layers).toHaveLength(1);
    expect(await server.request('DELETE', `/bat/layer/${advertId}`, { token, body: { page: 1, layerId } })).toMatchObject({
      status: 409,
      body: { errorMsg: BAT_MESSAGES.lastLayer },
    });
    const deletedPage = await server.request('DELETE', `/bat/page/${advertId}`, { token, body: { page: 1 } });
    expect(deletedPage.body.bat.pages).toEqual([{ page: 1, layers: [expect.objectContaining({ level: 1, content: [] })] }]);
    expect(await server.request('DELETE', `/bat/page/${advertId}`, { token, body: { page: 1 } })).toMatchObject({
      status: 409,
      body: { errorMsg: BAT_MESSAGES.lastPage },
    });
    expect((await server.request('DELETE', `/bat/page/${advertId}`, { token, body: { page: 7 } })).status).toBe(404);

    const sales = (await server.signIn(['SALES'])).accessToken.value;
    for (const [method, path, body] of [
      ['POST', `/bat/newpage/${advertId}`, undefined],
      ['POST', `/bat/newlayer/${advertId}`, { page: 1 }],
      ['DELETE', `/bat/page/${advertId}`, { page: 1 }],
      ['POST', `/bat/save/${advertId}`, { version: 1, pages: [] }],
    ] as const) {
      expect(await server.request(method, path, { token: sales, body })).toMatchObject({ status: 403, body: { errorMsg: 'User not allowed' } });
    }
    expect((await fetchBat(advertId, sales)).advertId).toBe(advertId);
  });

  it('an autosave writes only the items that differ from the stored ones, and answers the new version', async () => {
    const created = await server.request('POST', '/advert/create', { token, body: { advert: { name: 'Autosave', type: 'post' } } });
    const id = created.body.id as number;
    await upload(token, { advertId: String(id) }, 'a.png', PNG);
    const { bat } = await fetchBat(id);
    const layer = bat.pages[0].layers[0];
    let version = bat.version as number;
    const save = async (content: unknown[]) => {
      const answer = await server.request('POST', `/bat/save/${id}`, {
        token,
        body: { version, pages: [{ page: 1, layers: [{ ...layer, content }] }] },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({ version: version + 1, updatedAt: expect.any(Number) });
      version = answer.body.version;
    };
    // Which row holds each item, and the transaction that last wrote it.
    const stored = async () => {
      const result = (await server.database.db.execute(
        sql`SELECT i.item_key AS key, i.id, i.xmin::text AS written FROM bat_items i JOIN bat_layers l ON l.id = i.layer_id
            JOIN bat_pages p ON p.id = l.page_id WHERE p.advert_id = ${id} ORDER BY i.item_key`,
      )) as unknown as { rows: { key: string; id: number; written: string }[] };
      return Object.fromEntries(result.rows.map((row) => [row.key, row]));
    };
    const bold = { root: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'Gras', format: 1 }] }] } };
    const image = { i: 'img', x: 12, y: 0, w: 6, h: 8, type: 'image', url: '/cdn/assets/bat/1/a.png', displayApp: false, content: null };
    await save([text('a', 0, 0, bold), text('b', 6, 0), image]);
    const first = await stored();
    expect(Object.keys(first)).toEqual(['a', 'b', 'img']);

    // The same proof again (a text state in another key order is the same text): no row written.
    const reordered = { root: { children: [{ children: [{ format: 1, text: 'Gras', type: 'text' }], type: 'paragraph' }], type: 'root' } };
    await save([text('a', 0, 0, reordered), text('b', 6, 0), image]);
    expect(await stored()).toEqual(first);

    // b moved, the image framed, a new text c, nothing else: a keeps its row as it was.
    await save([text('a', 0, 0, bold), text('b', 6, 10), { ...image, displayApp: true }, text('c', 0, 20)]);
    const second = await stored();
    expect(second.a).toEqual(first.a);
    for (const key of ['b', 'img']) {
      expect(second[key].id).toBe(first[key].id);
      expect(second[key].written).not.toBe(first[key].written);
    }
    expect(second.c).toBeDefined();

    // The image removed, the order changed: the reload reads what was saved, in its order.
    await save([text('c', 0, 20), text('b', 6, 10), text('a', 0, 0, bold)]);
    expect(Object.keys(await stored())).toEqual(['a', 'b', 'c']);
    const content = (await fetchBat(id)).bat.pages[0].layers[0].content;
    expect(content.map((item: { i: string; y: number }) => [item.i, item.y])).toEqual([
      ['c', 20],
      ['b', 10],
      ['a', 0],
    ]);
    expect(content[2].content.root.children[0].children[0]).toMatchObject({ text: 'Gras', format: 1 });
  });

  it('checks items against the grid and the arrow rules, and no script survives a save and a reload', async () => {
    const { bat } = await fetchBat(advertId);
    const layer = bat.pages[0].layers[0];
    const save = (content: unknown[]) =>
      server.request('POST', `/bat/save/${advertId}`, {
        token,
        body: { version: bat.version, pages: [{ page: 1, layers: [{ id: layer.id, level: 1, content }] }] },
      });
    for (const item of [
      text('wide', 31, 0),
      text('low', 0, 39),
      text('left', -1, 0),
      { ...text('zero', 0, 0), w: 0 },
      { i: 'a', x: 0, y: 5, w: 10, h: 10, type: 'arrow', url: null, displayApp: false, content: null },
      { i: 'a', x: 5, y: 5, w: 1200, h: 10, type: 'arrow', url: null, displayApp: false, content: null },
      { i: 'img', x: 0, y: 0, w: 6, h: 8, type: 'image', url: 'javascript:alert(1)', displayApp: false, content: null },
    ]) {
      const answer = await save([item]);
      expect(answer.status, JSON.stringify(item)).toBe(400);
      expect(answer.body.errorMsg).toMatch(/^Élément /);
    }
    expect((await save([text('a', 0, 0), text('b', 3, 1)])).body).toEqual({ errorMsg: BAT_MESSAGES.collision('a', 'b') });
    expect((await save([text('a', 0, 0), text('a', 10, 0)])).body).toEqual({ errorMsg: BAT_MESSAGES.duplicateItem('a') });

    const hostile = {
      root: {
        type: 'root',
        children: [
          { type: 'script', children: [{ type: 'text', text: 'alert(1)' }] },
          {
            type: 'paragraph',
            children: [
              { type: 'link', url: 'javascript:alert(1)', children: [{ type: 'text', text: 'clic' }] },
              {
                type: 'link',
                url: 'https://example.com',
                children: [{ type: 'text', text: 'site', style: 'color: red; font-size: expression(alert(1))' }],
              },
              { type: 'html', html: '<img src=x onerror=alert(1)>', children: [] },
            ],
          },
        ],
      },
    };
    const saved = await save([text('t', 0, 0, hostile)]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const stored = JSON.stringify((await fetchBat(advertId)).bat.pages[0].layers[0].content[0].content);
    expect(stored).not.toMatch(/javascript:|onerror|expression|"script"|"html"/);
    expect(stored).toContain('https://example.com');
    expect(stored).toContain('clic');
  });

  const summary = async (id: number, bearer = token) => server.request('GET', `/bat/summary/${id}`, { token: bearer });

  it('freezes a version with its PDF in the documents and moves it draft → sent → validated', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const pages = (await fetchBat(advertId)).bat.pages.length;
    expect((await summary(advertId)).body).toEqual({ advertId, pages, latest: null });
    const frozen = await upload(token, { advertId: String(advertId) }, 'bat.pdf', pdf, [], '/bat/version/upload');
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(200);
    expect(frozen.body.version).toMatchObject({ number: 1, state: 'draft' });
    const served = await fetch(`${server.url}${frozen.body.version.pdfUrl}`);
    expect(served.status).toBe(200);
    expect(
      Buffer.from(await served.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const id = frozen.body.version.id;
    const move = (state: string) => server.request('PUT', `/bat/version/${advertId}/${id}`, { token, body: { state } });
    expect(await move('validated')).toMatchObject({ status: 409, body: { errorMsg: BAT_MESSAGES.versionMove('draft', 'validated') } });
    expect((await move('sent')).body).toMatchObject({ state: 'sent' });
    const validated = await move('validated');
    expect(validated.body).toMatchObject({ state: 'validated', number: 1 });
    expect(validated.body.stateBy).toBeTruthy();
    expect((await move('changes_requested')).status).toBe(409);
    const second = await upload(token, { advertId: String(advertId) }, 'bat.pdf', pdf, [], '/bat/version/upload');
    expect(second.body.version.number).toBe(2);
    expect((await fetchBat(advertId)).versions.map((v: { number: number; state: string }) => [v.number, v.state])).toEqual([
      [2, 'draft'],
      [1, 'validated'],
    ]);
    expect((await upload(token, { advertId: String(advertId) }, 'bat.pdf', PNG, [], '/bat/version/upload')).status).toBe(400);
  });

  it("answers the advert editor's toolbar: the newest version's state with who and when, to every role", async () => {
    const sales = (await server.signIn(['SALES'])).accessToken.value;
    const answer = await summary(advertId, sales);
    expect(answer.status).toBe(200);
    const { versions } = await fetchBat(advertId);
    expect(answer.body).toEqual({ advertId, pages: expect.any(Number), latest: versions[0] });
    expect(answer.body.latest).toMatchObject({ number: 2, state: 'draft', stateBy: expect.any(String), stateAt: expect.any(Number) });
    const moved = await server.request('PUT', `/bat/version/${advertId}/${versions[0].id}`, { token, body: { state: 'sent' } });
    expect((await summary(advertId)).body.latest).toMatchObject({
      number: 2,
      state: 'sent',
      stateBy: moved.body.stateBy,
      stateAt: moved.body.stateAt,
    });

    const created = await server.request('POST', '/advert/create', { token, body: { advert: { name: 'Sans BAT', type: 'post' } } });
    expect((await summary(created.body.id)).body).toEqual({ advertId: created.body.id, pages: null, latest: null });
    expect(await summary(999999)).toMatchObject({ status: 404, body: { errorMsg: BAT_MESSAGES.advertNotFound } });
  });
});

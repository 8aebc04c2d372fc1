import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { PNG } from '../fixtures/storage-files';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Deleting a library media that adverts show. The server names the adverts (409) and deletes
 * only once the user confirmed (`force`); a media no advert shows goes at once. PGlite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
let server: TestServer;
let token: string;
const folder = mkdtempSync(join(tmpdir(), 'bo-library-usage-'));

beforeAll(async () => {
  server = await startTestServer({ config: { storage: { kind: 'local', dir: join(folder, 'files') } } });
  token = (await server.signIn(['CSM'])).accessToken.value;
});
afterAll(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function uploadMedia(libraryId: number, name: string) {
  const form = new FormData();
  form.append('libraryId', String(libraryId));
  form.append('file', new Blob([new Uint8Array(PNG)]), name);
  const response = await fetch(`${server.url}/library/attachment/media/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await response.json()) as { webpaths: string[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.webpaths[0];
}

async function advert(name: string, fields: Record<string, unknown>) {
  const created = await server.request('POST', '/advert/create', { token, body: { advert: { name, type: 'post', ...fields } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: number };
}

const deleteItem = (libraryId: number, item: string, force?: boolean) =>
  server.request('DELETE', `/library/${libraryId}/item`, { token, body: force === undefined ? { item } : { item, force } });

describe('deleting a library media that adverts show', () => {
  it('answers 409 naming the adverts using it (by URL), keeps the file, and deletes once forced', async () => {
    const libraryId = (await server.request('GET', '/library/advert/501', { token })).body.id as number;
    const used = await uploadMedia(libraryId, 'visuel cardio.png');
    const other = await uploadMedia(libraryId, 'visuel-cardio.png');
    // The same media under another host and cache-busting value is still this media; a name that only starts
    // like it is not.
    const cardio = await advert('Cardio HTA', { image: used });
    const derm = await advert('Dermato', { images: [`http://media.example${used.split('?')[0]}?d=1`] });
    await advert('Sans rapport', { image: other });

    const refused = await deleteItem(libraryId, used);
    expect(refused.status).toBe(409);
    const expected = STORAGE_MESSAGES.mediaUsedByAdverts(
      [
        { id: cardio.id, name: 'Cardio HTA' },
        { id: derm.id, name: 'Dermato' },
      ],
      2,
    );
    expect(refused.body).toEqual({ errorMsg: expected });
    expect(expected).toBe(`Ce média est utilisé par 2 publicités : « Cardio HTA » (n° ${cardio.id}), « Dermato » (n° ${derm.id}).`);
    // Nothing was removed: the library keeps it, the file is served.
    expect((await server.request('GET', '/library/advert/501', { token })).body.content).toEqual([used, other]);
    expect((await fetch(`${server.url}${used}`)).status).toBe(200);

    // The user confirmed: it goes.
    const forced = await deleteItem(libraryId, used, true);
    expect(forced.status).toBe(200);
    expect(forced.body.content).toEqual([other]);
    expect((await fetch(`${server.url}${used}`)).status).toBe(404);
  });

  it('deletes at once a media no advert shows', async () => {
    const libraryId = (await server.request('GET', '/library/advert/502', { token })).body.id as number;
    const unused = await uploadMedia(libraryId, 'libre.png');
    const answer = await deleteItem(libraryId, unused);
    expect(answer.status).toBe(200);
    expect(answer.body.content).toEqual([]);
  });

  it('names the first 10 adverts and counts the others', async () => {
    const libraryId = (await server.request('GET', '/library/advert/503', { token })).body.id as number;
    const shared = await uploadMedia(libraryId, 'partage.png');
    const ids: number[] = [];
    for (let i = 1; i <= 12; i += 1) ids.push((await advert(`Pub ${i}`, { logo: shared })).id);
    const refused = await deleteItem(libraryId, shared);
    expect(refused.status).toBe(409);
    expect(refused.body.errorMsg).toBe(
      STORAGE_MESSAGES.mediaUsedByAdverts(
        ids.slice(0, 10).map((id, index) => ({ id, name: `Pub ${index + 1}` })),
        12,
      ),
    );
    expect(refused.body.errorMsg).toMatch(/^Ce média est utilisé par 12 publicités : .* et 2 autres\.$/);
  });
});

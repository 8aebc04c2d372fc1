import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { STORAGE_MESSAGES, formatNotAllowed } from '@shared/messages/storage';
import { ADVERT_IMAGE_FORMATS, STORY_ILLUSTRATION_FORMATS, STORY_IMAGE_FORMATS, VIDEO_FORMATS } from '@shared/rules/storage';
import type { StorageConfig } from '../../src-server/storage/config';
import { MP4, PNG } from '../fixtures/storage-files';
import { startS3Emulator, type S3Emulator } from '../helpers/s3';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Advert and story media uploads (adverts-articles.md §7 Uploads, §5 upload rules, §6 SALES) over real HTTP, on
 * the local folder and on an S3 emulator; PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
let emulator: S3Emulator;
const folders: string[] = [];
beforeAll(async () => {
  emulator = await startS3Emulator();
});
afterAll(async () => {
  await emulator?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const kinds = {
  local: (): StorageConfig => {
    const folder = mkdtempSync(join(tmpdir(), 'bo-advert-media-'));
    folders.push(folder);
    return { kind: 'local', dir: join(folder, 'files') };
  },
  s3: (): StorageConfig => ({ kind: 's3', bucket: emulator.bucket, endpoint: emulator.endpoint, credentials: emulator.credentials }),
};

describe.each(Object.keys(kinds) as (keyof typeof kinds)[])('advert media uploads on %s storage', (kind) => {
  let server: TestServer;
  let csm: string;
  let sales: string;
  beforeAll(async () => {
    server = await startTestServer({ config: { storage: kinds[kind]() } });
    csm = (await server.signIn(['CSM'])).accessToken.value;
    sales = (await server.signIn(['SALES'])).accessToken.value;
  });
  afterAll(() => server?.close());

  async function upload(path: string, fields: Record<string, string | number>, name: string, content: Uint8Array, token = csm) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
    form.append('file', new Blob([new Uint8Array(content)]), name);
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function advert(fields: Record<string, unknown>) {
    const created = await server.request('POST', '/advert/create', { token: csm, body: { advert: { name: 'Média', ...fields } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: number };
  }

  it('sets the logo, the cover (image and first of images) and the video, under keys of the advert id', async () => {
    const { id } = await advert({ type: 'video' });
    const logo = await upload('/f/advert/attachment/logo/upload', { advertId: id }, '../../logo.png', PNG);
    expect(logo.status, JSON.stringify(logo.body)).toBe(200);
    expect(logo.body.webpath).toMatch(new RegExp(`^/cdn/assets/adverts/${id}/logo-[0-9a-f]{8}\\.png\\?d=\\d{10}$`));
    expect(logo.body.advert.logo).toBe(logo.body.webpath);
    const served = await fetch(`${server.url}${logo.body.webpath}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const first = await upload('/f/advert/attachment/cover/upload', { advertId: id }, 'visuel.png', PNG);
    const second = await upload('/f/advert/attachment/cover/upload', { advertId: id }, 'visuel.png', PNG);
    expect(second.body.advert.image).toBe(second.body.webpath);
    expect(second.body.advert.images).toEqual([second.body.webpath, first.body.webpath]);

    const video = await upload('/f/advert/attachment/video/upload', { advertId: id }, 'clip.mp4', MP4);
    expect(video.status, JSON.stringify(video.body)).toBe(200);
    expect(video.body.webpath).toMatch(new RegExp(`^/cdn/assets/adverts/${id}/video-[0-9a-f]{8}\\.mp4\\?d=\\d{10}$`));
    const saved = await server.request('GET', `/v2/advert/${id}`, { token: csm });
    expect(saved.body).toMatchObject({ logo: logo.body.webpath, image: second.body.webpath, video: video.body.webpath });
    // The change is in the advert's history like any other write.
    expect((await server.request('GET', `/advert/${id}/history`, { token: csm })).body.length).toBeGreaterThanOrEqual(5);
  });

  it("refuses a PNG renamed .mp4, formats outside the kind's list, 11 MB and a missing advert; the advert's media stay empty", async () => {
    const { id } = await advert({ type: 'post' });
    expect(await upload('/f/advert/attachment/video/upload', { advertId: id }, 'clip.mp4', PNG)).toEqual({
      status: 400,
      body: { errorMsg: 'Type de fichier non autorisé' },
    });
    expect(await upload('/f/advert/attachment/video/upload', { advertId: id }, 'logo.png', PNG)).toEqual({
      status: 400,
      body: { errorMsg: formatNotAllowed(VIDEO_FORMATS) },
    });
    expect(await upload('/f/advert/attachment/logo/upload', { advertId: id }, 'clip.mp4', MP4)).toEqual({
      status: 400,
      body: { errorMsg: formatNotAllowed(ADVERT_IMAGE_FORMATS) },
    });
    expect((await upload('/f/advert/attachment/logo/upload', { advertId: id }, 'brief.pdf', PNG)).body.errorMsg).toMatch(
      /^Format non autorisé: .*, seulement\.$/,
    );
    const big = Buffer.concat([PNG, Buffer.alloc(11 * 1024 * 1024)]);
    expect(await upload('/f/advert/attachment/cover/upload', { advertId: id }, 'big.png', big)).toEqual({
      status: 413,
      body: { errorMsg: STORAGE_MESSAGES.tooLarge },
    });
    expect(await upload('/f/advert/attachment/logo/upload', { advertId: 999_999 }, 'logo.png', PNG)).toEqual({
      status: 404,
      body: { errorMsg: MESSAGES.advertNotFound },
    });
    expect((await upload('/f/advert/attachment/poster/upload', { advertId: id }, 'logo.png', PNG)).status).toBe(400);
    expect((await upload('/f/advert/attachment/logo/upload', { advertId: 'abc' }, 'logo.png', PNG)).status).toBe(400);
    const saved = await server.request('GET', `/v2/advert/${id}`, { token: csm });
    expect(saved.body).toMatchObject({ logo: null, image: null, images: [], video: null });
  });

  it('refuses SALES with User not allowed', async () => {
    const { id } = await advert({ type: 'story' });
    await server.request('POST', `/stories/${id}/screen`, { token: csm, body: {} });
    for (const [path, fields] of [
      ['/f/advert/attachment/logo/upload', { advertId: id }],
      ['/f/advert/attachment/story/logo/upload', { advertId: id }],
      ['/f/advert/attachment/story/screen/logo/upload', { advertId: id, screenId: 1 }],
      ['/f/advert/attachment/story/screen/upload', { advertId: id, screenId: 1 }],
    ] as const) {
      expect(await upload(path, fields, 'logo.png', PNG, sales), path).toEqual({ status: 403, body: { errorMsg: 'User not allowed' } });
    }
  });

  it("sets a story's logo, a screen's logo and its illustration (image or video), with the story's shorter list", async () => {
    const { id } = await advert({ type: 'story' });
    const logo = await upload('/f/advert/attachment/story/logo/upload', { advertId: id }, 'marque.png', PNG);
    expect(logo.status, JSON.stringify(logo.body)).toBe(200);
    expect(logo.body.webpath).toMatch(new RegExp(`^/cdn/assets/adverts/${id}/story/logo-[0-9a-f]{8}\\.png\\?d=\\d{10}$`));
    expect(logo.body.advert.story.logo).toBe(logo.body.webpath);

    await server.request('POST', `/stories/${id}/screen`, { token: csm, body: {} });
    await server.request('POST', `/stories/${id}/screen`, { token: csm, body: {} });
    const screenLogo = await upload('/f/advert/attachment/story/screen/logo/upload', { advertId: id, screenId: 2 }, 'logo.png', PNG);
    expect(screenLogo.status, JSON.stringify(screenLogo.body)).toBe(200);
    expect(screenLogo.body.webpath).toMatch(new RegExp(`^/cdn/assets/adverts/${id}/story/screens/2/logo-[0-9a-f]{8}\\.png`));
    const illustration = await upload('/f/advert/attachment/story/screen/upload', { advertId: id, screenId: 1 }, 'fond.mp4', MP4);
    expect(illustration.status, JSON.stringify(illustration.body)).toBe(200);
    const screens = illustration.body.advert.story.screens;
    expect(screens[0]).toMatchObject({ id: 1, illustration: illustration.body.webpath, logo: null });
    expect(screens[1]).toMatchObject({ id: 2, logo: screenLogo.body.webpath, illustration: null });
    expect(logo.body.advert.story.logo).toBe((await server.request('GET', `/v2/advert/${id}`, { token: csm })).body.story.logo);

    expect(
      await upload('/f/advert/attachment/story/logo/upload', { advertId: id }, 'logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
    ).toEqual({
      status: 400,
      body: { errorMsg: formatNotAllowed(STORY_IMAGE_FORMATS) },
    });
    expect((await upload('/f/advert/attachment/story/screen/upload', { advertId: id, screenId: 1 }, 'doc.pdf', PNG)).body.errorMsg).toBe(
      formatNotAllowed(STORY_ILLUSTRATION_FORMATS),
    );
    expect(await upload('/f/advert/attachment/story/screen/upload', { advertId: id, screenId: 1 }, 'fond.webm', PNG)).toEqual({
      status: 400,
      body: { errorMsg: 'Type de fichier non autorisé' },
    });
    expect(await upload('/f/advert/attachment/story/screen/logo/upload', { advertId: id, screenId: 9 }, 'logo.png', PNG)).toMatchObject({
      status: 404,
      body: { errorMsg: MESSAGES.screenNotFound },
    });
    expect((await upload('/f/advert/attachment/story/screen/logo/upload', { advertId: id }, 'logo.png', PNG)).status).toBe(400);
    const post = await advert({ type: 'post' });
    expect(await upload('/f/advert/attachment/story/logo/upload', { advertId: post.id }, 'logo.png', PNG)).toMatchObject({
      status: 400,
      body: { errorMsg: MESSAGES.notAStory },
    });
  });

  it('a video advert is published only with a video, uploaded or not', async () => {
    const { id } = await advert({ type: 'video', author: 'Labo', source: 'https://labo.example/', title: 'Titre' });
    await upload('/f/advert/attachment/logo/upload', { advertId: id }, 'logo.png', PNG);
    const refused = await server.request('PUT', `/v2/advert/${id}/publish`, { token: csm, body: { publish: true, updateDates: false } });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toContain('Vous devez ajouter une vidéo avant de publier la publicité');
    await upload('/f/advert/attachment/video/upload', { advertId: id }, 'clip.mp4', MP4);
    const again = await server.request('PUT', `/v2/advert/${id}/publish`, { token: csm, body: { publish: true, updateDates: false } });
    expect(again.body.errorMsg ?? '').not.toContain('vidéo');
  });
});

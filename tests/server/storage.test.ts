import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_MESSAGES, formatNotAllowed } from '@shared/messages/storage';
import { DOCUMENT_FORMATS, LIBRARY_MAX_BYTES, MEDIA_FORMATS } from '@shared/rules/storage';
import { z } from 'zod';
import type { StorageAdapter } from '../../src-server/storage/adapter';
import type { StorageConfig } from '../../src-server/storage/config';
import { LocalStorage } from '../../src-server/storage/local';
import { receiveFile } from '../../src-server/storage/multipart';
import { S3Storage } from '../../src-server/storage/s3';
import { handleError } from '../../src-server/errors';
import { PNG, SVG_WITH_SCRIPT } from '../fixtures/storage-files';
import { ManualClock } from '../helpers/clock';
import { startS3Emulator, type S3Emulator } from '../helpers/s3';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The same suite against the local folder and an S3 emulator (s3rver, in this process): the adapters, then the
 * storage browser's calls and the media route through the real server on each.
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

function localFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'bo-storage-test-'));
  folders.push(folder);
  return join(folder, 'files');
}

const kinds = {
  local: (): StorageConfig => ({ kind: 'local', dir: localFolder() }),
  s3: (): StorageConfig => ({ kind: 's3', bucket: emulator.bucket, endpoint: emulator.endpoint, credentials: emulator.credentials }),
};

function adapterOf(config: StorageConfig): StorageAdapter {
  return config.kind === 'local' ? new LocalStorage(config.dir) : new S3Storage(config);
}

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk;
  return out;
}

const UNSAFE_KEYS = [
  '../outside.txt',
  'assets/../../outside.txt',
  '/etc/passwd',
  'C:/Windows/x.txt',
  'assets\\..\\x.txt',
  'assets/a\u0000b.txt',
  'assets//x.txt',
  'assets/./x.txt',
  '',
  'assets/x\n.txt',
];

describe.each(Object.keys(kinds) as (keyof typeof kinds)[])('%s storage adapter', (kind) => {
  let storage: StorageAdapter;
  // Each kind gets a fresh prefix so the shared bucket starts empty for this suite.
  const base = `suite-${kind}-${Date.now()}`;
  beforeAll(() => {
    storage = adapterOf(kinds[kind]());
  });
  afterAll(() => storage?.close());

  it('writes, reads, lists one level and deletes', async () => {
    const stored = await storage.put(`${base}/docs/a.txt`, Readable.from([Buffer.from('bonjour')]), 'text/plain');
    expect(stored).toMatchObject({ key: `${base}/docs/a.txt`, size: 7 });
    expect(stored.updatedAt).toBeGreaterThan(Date.now() - 3_600_000);
    await storage.put(`${base}/docs/sub/.keep`, Readable.from([]), 'text/plain');
    const found = await storage.get(`${base}/docs/a.txt`);
    expect(await text(found!.body)).toBe('bonjour');
    const listed = await storage.list(`${base}/docs`);
    expect(listed.folders).toEqual([`${base}/docs/sub`]);
    expect(listed.files.map((file) => file.key)).toEqual([`${base}/docs/a.txt`]);
    expect((await storage.list(`${base}/docs/sub`)).files.map((file) => file.key)).toEqual([`${base}/docs/sub/.keep`]);
    expect(await storage.delete(`${base}/docs/a.txt`)).toBe(true);
    expect(await storage.delete(`${base}/docs/a.txt`)).toBe(false);
    expect(await storage.get(`${base}/docs/a.txt`)).toBeNull();
    expect(await storage.head(`${base}/nothing`)).toBeNull();
  });

  it('refuses path traversal, absolute keys, NUL and control characters on every method', async () => {
    for (const key of UNSAFE_KEYS) {
      await expect(storage.put(key, Readable.from([Buffer.from('x')]), 'text/plain'), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.get(key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/unsafe storage key/);
    }
    await expect(storage.list('../')).rejects.toThrow(/unsafe storage key/);
    await expect(storage.list('/etc')).rejects.toThrow(/unsafe storage key/);
  });

  it('streams a 12 MB file in and out unchanged', async () => {
    const bytes = randomBytes(12 * 1024 * 1024);
    const chunks = Array.from({ length: 48 }, (_, i) => bytes.subarray(i * 262_144, (i + 1) * 262_144));
    await storage.put(`${base}/big.bin`, Readable.from(chunks), 'application/octet-stream');
    const found = await storage.get(`${base}/big.bin`);
    const parts: Buffer[] = [];
    for await (const chunk of found!.body) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    expect(found!.object.size).toBe(bytes.length);
  });

  it('leaves nothing behind when the body fails half way', async () => {
    async function* failing() {
      yield randomBytes(6 * 1024 * 1024);
      throw new Error('connection lost');
    }
    await expect(storage.put(`${base}/broken.bin`, Readable.from(failing()), 'application/octet-stream')).rejects.toThrow();
    expect(await storage.head(`${base}/broken.bin`)).toBeNull();
  });
});

describe('local adapter on disk', () => {
  it('never writes outside its folder and keeps no partial file', async () => {
    const dir = localFolder();
    const storage = new LocalStorage(dir);
    await expect(storage.put('../escape.txt', Readable.from([Buffer.from('x')]), 'text/plain')).rejects.toThrow();
    expect(existsSync(join(dir, '..', 'escape.txt'))).toBe(false);
    // A source can fail before the write stream has opened its file, or after a few bytes: the clean-up must
    // see the temporary file in every case (it once ran before the stream created it, leaving one behind).
    const sources: Record<string, () => Readable> = {
      // Iterators whose first read throws: a generator without a yield would say the same less plainly.
      'at once': () =>
        Readable.from({
          [Symbol.asyncIterator]: () => ({ next: (): Promise<IteratorResult<Buffer>> => Promise.reject(new Error('cut')) }),
        }),
      'destroyed on first read': () =>
        new Readable({
          read() {
            this.destroy(new Error('cut'));
          },
        }),
      'after a few bytes': () =>
        Readable.from(
          (async function* () {
            yield Buffer.from('partial');
            throw new Error('cut');
          })(),
        ),
      'a synchronous iterator failing at once': () =>
        Readable.from({
          [Symbol.iterator]: () => ({
            next(): IteratorResult<Buffer> {
              throw new Error('cut');
            },
          }),
        }),
      'after a few chunks': () =>
        Readable.from(
          (async function* () {
            for (let i = 0; i < 4; i += 1) yield randomBytes(64 * 1024);
            throw new Error('cut');
          })(),
        ),
    };
    for (const [name, source] of Object.entries(sources)) {
      for (let attempt = 0; attempt < 500; attempt += 1) {
        await expect(storage.put('a/b.txt', source(), 'text/plain'), `${name} #${attempt}`).rejects.toThrow('cut');
      }
      expect(existsSync(join(dir, 'a', 'b.txt')), name).toBe(false);
      expect(readdirSync(join(dir, '..', '.files-incoming')), name).toEqual([]);
    }
  });
});

async function upload(server: TestServer, token: string, folder: string | undefined, name: string, content: Uint8Array | string) {
  const form = new FormData();
  if (folder !== undefined) form.append('path', folder);
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const response = await fetch(`${server.url}/f/document/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

describe.each(Object.keys(kinds) as (keyof typeof kinds)[])('storage browser calls and media on %s storage', (kind) => {
  let server: TestServer;
  let token: string;
  const root = `assets/clients/${kind}-${Date.now()}`;
  beforeAll(async () => {
    server = await startTestServer({ config: { storage: kinds[kind]() } });
    token = (await server.signIn(['CSM'])).accessToken.value;
  });
  afterAll(() => server?.close());

  it('uploads under assets/clients, lists folders (from .keep) and files, serves and deletes', async () => {
    const keep = await upload(server, token, `${root}/Labo X`, '.keep', '');
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    const logo = await upload(server, token, root, 'logo.png', PNG);
    expect(logo.status, JSON.stringify(logo.body)).toBe(200);
    expect(logo.body).toMatchObject({ name: 'logo.png', path: `${root}/logo.png`, size: PNG.length });
    expect(logo.body.webpath).toBe(logo.body.url);
    expect(logo.body.url).toMatch(new RegExp(`^/cdn/${root.replace(/\//g, '\\/')}/logo\\.png\\?expires=\\d{10}&signature=[\\w-]{43}$`));

    const listed = await server.request('GET', `/f/cdn/list?folder=${encodeURIComponent(root)}`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.folders).toEqual([{ name: 'Labo X', path: `${root}/Labo X` }]);
    expect(listed.body.files.map((file: { name: string }) => file.name)).toEqual(['logo.png']);
    const inside = await server.request('GET', `/f/cdn/list?folder=${encodeURIComponent(`${root}/Labo X`)}`, { token });
    expect(inside.body.files).toEqual([]);

    const media = await fetch(`${server.url}${logo.body.url}`);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    expect(media.headers.get('x-content-type-options')).toBe('nosniff');
    // A client document: never kept by a shared cache, and not served without its signed link.
    expect(media.headers.get('cache-control')).toBe('private, no-store');
    expect(media.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await media.arrayBuffer()).equals(PNG)).toBe(true);
    const unsigned = await fetch(`${server.url}/cdn/${root}/logo.png`);
    expect(unsigned.status).toBe(403);
    expect(await unsigned.json()).toEqual({ errorMsg: STORAGE_MESSAGES.documentLinkRequired });

    const deleted = await server.request('DELETE', '/f/document/delete', { token, body: { filePath: logo.body.url } });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: `${root}/logo.png` } });
    expect((await fetch(`${server.url}${logo.body.url}`)).status).toBe(404);
    const again = await server.request('DELETE', '/f/document/delete', { token, body: { filePath: `${root}/logo.png` } });
    expect(again).toMatchObject({ status: 404, body: { errorMsg: STORAGE_MESSAGES.fileNotFound } });
  });

  it('refuses a PNG renamed .mp4, a format outside the list, and folders outside assets/clients', async () => {
    expect(await upload(server, token, root, 'video.mp4', PNG)).toEqual({ status: 400, body: { errorMsg: STORAGE_MESSAGES.invalidFileType } });
    expect(await upload(server, token, root, 'tool.exe', PNG)).toEqual({ status: 400, body: { errorMsg: formatNotAllowed(DOCUMENT_FORMATS) } });
    expect(await upload(server, token, root, 'notes.txt', PNG)).toEqual({ status: 400, body: { errorMsg: STORAGE_MESSAGES.invalidFileType } });
    expect((await upload(server, token, 'assets/other', 'logo.png', PNG)).body).toEqual({ errorMsg: STORAGE_MESSAGES.outsideDocuments });
    for (const folder of ['assets/clients/../../etc', '/etc', `${root}/a\u0000b`]) {
      expect((await upload(server, token, folder, 'logo.png', PNG)).status, folder).toBe(400);
    }
    const listed = await server.request('GET', `/f/cdn/list?folder=${encodeURIComponent(root)}`, { token });
    expect(listed.body.files.map((file: { name: string }) => file.name)).not.toContain('video.mp4');
    expect((await server.request('GET', '/f/cdn/list?folder=..%2F..', { token })).status).toBe(400);
    expect((await server.request('GET', '/f/cdn/list?folder=assets', { token })).body).toEqual({ errorMsg: STORAGE_MESSAGES.outsideDocuments });
  });

  it('deletes only files of the product storage', async () => {
    const preview = await server.request('DELETE', '/f/document/delete', { token, body: { filePath: 'https://elsewhere.example/img.png' } });
    expect(preview).toMatchObject({ status: 400, body: { errorMsg: STORAGE_MESSAGES.cannotDeletePreview } });
    const blob = await server.request('DELETE', '/f/document/delete', { token, body: { filePath: 'blob:http://127.0.0.1/abc' } });
    expect(blob.body.errorMsg).toBe(STORAGE_MESSAGES.cannotDeletePreview);
    const traversal = await server.request('DELETE', '/f/document/delete', { token, body: { filePath: 'assets/clients/../../x' } });
    expect(traversal.status).toBe(400);
  });

  it('serves an SVG by its bytes, sandboxed and as an attachment; a .txt holding HTML as plain text', async () => {
    const svg = await upload(server, token, root, 'dessin.svg', SVG_WITH_SCRIPT);
    expect(svg.status).toBe(200);
    const media = await fetch(`${server.url}${svg.body.url}`);
    expect(media.headers.get('content-type')).toBe('image/svg+xml');
    expect(media.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(media.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    await media.arrayBuffer();
    const html = await upload(server, token, root, 'page.txt', '<html><script>alert(1)</script></html>');
    const served = await fetch(`${server.url}${html.body.url}`);
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    await served.arrayBuffer();
    expect((await fetch(`${server.url}/cdn/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect((await fetch(`${server.url}/cdn/assets/%00x`)).status).toBe(404);
  });

  it('refuses a JSON body on the upload call, and a call without a file', async () => {
    const json = await server.request('POST', '/f/document/upload', { token, body: { path: root } });
    expect(json).toMatchObject({ status: 415, body: { errorMsg: STORAGE_MESSAGES.multipartExpected } });
    const form = new FormData();
    form.append('path', root);
    const empty = await fetch(`${server.url}/f/document/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ errorMsg: STORAGE_MESSAGES.fileMissing });
  });
});

describe('the multipart pipeline with the 10 MB limit of library media', () => {
  let app: FastifyInstance;
  let url: string;
  let storage: LocalStorage;
  beforeAll(async () => {
    storage = new LocalStorage(localFolder());
    app = Fastify();
    app.setErrorHandler(handleError);
    app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));
    const spec = { fields: z.strictObject({ libraryId: z.string().regex(/^\d+$/) }), maxFileBytes: LIBRARY_MAX_BYTES, formats: MEDIA_FORMATS };
    app.post('/library/attachment/media/upload', async (request) =>
      receiveFile<{ libraryId: string }, unknown>(request, spec, async (file) =>
        storage.put(`library/${file.fields.libraryId}/${file.fileName}`, file.body, file.contentType),
      ),
    );
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app?.close());

  async function send(name: string, content: Uint8Array, libraryId = '7') {
    const form = new FormData();
    form.append('libraryId', libraryId);
    form.append('file', new Blob([new Uint8Array(content)]), name);
    const response = await fetch(`${url}/library/attachment/media/upload`, { method: 'POST', body: form });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('takes a 10 MB image and refuses 11 MB with the spec message, keeping nothing', async () => {
    const ten = Buffer.concat([PNG, Buffer.alloc(LIBRARY_MAX_BYTES - PNG.length)]);
    expect((await send('ten.png', ten)).status).toBe(200);
    const eleven = Buffer.concat([PNG, Buffer.alloc(11 * 1024 * 1024 - PNG.length)]);
    expect(await send('eleven.png', eleven)).toEqual({ status: 413, body: { errorMsg: 'Fichier trop volumineux. Taille maximale 10Mo' } });
    expect(await storage.head('library/7/eleven.png')).toBeNull();
    expect((await storage.head('library/7/ten.png'))?.size).toBe(LIBRARY_MAX_BYTES);
  });

  it('checks the format list, the bytes and the fields', async () => {
    expect((await send('doc.pdf', PNG)).body).toEqual({
      errorMsg: 'Format non autorisé: png, jpg, jpeg, gif, mp4, svg, ico, icon, x-icon, svg+xml, vnd.microsoft.icon, seulement.',
    });
    expect((await send('clip.mp4', PNG)).body).toEqual({ errorMsg: 'Type de fichier non autorisé' });
    expect((await send('logo.png', PNG, 'abc')).status).toBe(400);
  });
});

describe('demo documents', () => {
  it('seeds two client folders with real files into an empty storage, once', async () => {
    const config = kinds.local();
    const server = await startTestServer({ config: { storage: config, seedStorageDemo: true } });
    try {
      const token = (await server.signIn(['CONTENT_CREATOR'])).accessToken.value;
      const root = await server.request('GET', '/f/cdn/list', { token });
      expect(root.body.folders.map((folder: { name: string }) => folder.name)).toEqual(['Laboratoire Aurelis', 'Pharmavie']);
      const aurelis = await server.request('GET', `/f/cdn/list?folder=${encodeURIComponent('assets/clients/Laboratoire Aurelis')}`, { token });
      expect(aurelis.body.folders.map((folder: { name: string }) => folder.name)).toEqual(['Visuels']);
      const byName = Object.fromEntries(aurelis.body.files.map((file: { name: string; url: string }) => [file.name, file.url]));
      const logo = await fetch(`${server.url}${byName['logo-aurelis.png']}`);
      expect(logo.headers.get('content-type')).toBe('image/png');
      await logo.arrayBuffer();
      const pdf = await fetch(`${server.url}${byName['brief-campagne-cardiologie-2026.pdf']}`);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toMatch(/^inline/);
      expect(pdf.headers.get('content-security-policy')).toBeNull();
      await pdf.arrayBuffer();
    } finally {
      await server.close();
    }
    // A second start on the same storage adds nothing.
    const again = await startTestServer({ config: { storage: config, seedStorageDemo: true } });
    try {
      const token = (await again.signIn(['CSM'])).accessToken.value;
      expect((await again.request('GET', '/f/cdn/list', { token })).body.folders).toHaveLength(2);
    } finally {
      await again.close();
    }
  });
});

describe('media libraries and advert media (adverts §3 Library, §5, §7)', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ config: { storage: kinds.local() } });
    token = (await server.signIn(['CSM'])).accessToken.value;
  });
  afterAll(() => server?.close());

  async function uploadMedia(libraryId: number | string, name: string, content: Uint8Array) {
    const form = new FormData();
    form.append('libraryId', String(libraryId));
    form.append('file', new Blob([new Uint8Array(content)]), name);
    const response = await fetch(`${server.url}/library/attachment/media/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('gets (making it), uploads into, lists, and removes media of a library', async () => {
    const made = await server.request('GET', '/library/advert/42', { token });
    expect(made).toMatchObject({ status: 200, body: { label: 'advert', ownerId: 42, content: [] } });
    expect((await server.request('GET', '/library/advert/42', { token })).body.id).toBe(made.body.id);
    const libraryId = made.body.id as number;

    const first = await uploadMedia(libraryId, 'logo.png', PNG);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.webpaths).toHaveLength(1);
    expect(first.body.webpaths[0]).toMatch(new RegExp(`^/cdn/assets/library/${libraryId}/[0-9a-f]{8}-logo\\.png\\?d=\\d{10}$`));
    const second = await uploadMedia(libraryId, 'logo.png', PNG);
    expect(second.body.library.content).toEqual([first.body.webpaths[0], second.body.webpaths[0]]);
    expect((await fetch(`${server.url}${first.body.webpaths[0]}`)).headers.get('content-type')).toBe('image/png');

    expect(await uploadMedia(libraryId, 'big.png', Buffer.concat([PNG, Buffer.alloc(11 * 1024 * 1024)]))).toEqual({
      status: 413,
      body: { errorMsg: 'Fichier trop volumineux. Taille maximale 10Mo' },
    });
    expect(await uploadMedia(libraryId, 'clip.mp4', PNG)).toEqual({ status: 400, body: { errorMsg: 'Type de fichier non autorisé' } });
    expect((await uploadMedia(libraryId, 'brief.pdf', PNG)).body.errorMsg).toBe(formatNotAllowed(MEDIA_FORMATS));
    expect((await uploadMedia(999_999, 'logo.png', PNG)).body).toEqual({ errorMsg: STORAGE_MESSAGES.libraryNotFound });
    expect((await server.request('GET', '/library/advert/42', { token })).body.content).toHaveLength(2);

    // Only the product's own media can be removed; an image being previewed (another site) cannot.
    const foreign = await server.request('DELETE', `/library/${libraryId}/item`, { token, body: { item: 'https://images.example/x.png' } });
    expect(foreign).toMatchObject({ status: 400, body: { errorMsg: 'Vous ne pouvez pas supprimer une image en cours de prévisualisation' } });
    const removed = await server.request('DELETE', `/library/${libraryId}/item`, { token, body: { item: first.body.webpaths[0] } });
    expect(removed.body.content).toEqual([second.body.webpaths[0]]);
    expect((await fetch(`${server.url}${first.body.webpaths[0]}`)).status).toBe(404);

    // The content is replaced in order, with media of the product only.
    const put = await server.request('PUT', '/library/advert/42', { token, body: { content: [second.body.webpaths[0]] } });
    expect(put.body.content).toEqual([second.body.webpaths[0]]);
    const refused = await server.request('PUT', '/library/advert/42', { token, body: { content: ['https://images.example/x.png'] } });
    expect(refused).toMatchObject({ status: 400, body: { errorMsg: STORAGE_MESSAGES.notProductMedia, field: 'content' } });
  });

  it('deletes an attachment only when it is advert or library media of the product', async () => {
    const library = (await server.request('GET', '/library/article/7', { token })).body;
    const uploaded = await uploadMedia(library.id, 'visuel.png', PNG);
    const document = await upload(server, token, 'assets/clients', 'contrat.png', PNG);
    for (const filePath of [
      'https://images.example/x.png',
      'blob:http://127.0.0.1/1',
      document.body.url,
      '/cdn/assets/library/../clients/contrat.png',
    ]) {
      const answer = await server.request('DELETE', '/f/advert/attachment/delete', { token, body: { filePath } });
      expect(answer, filePath).toMatchObject({ status: 400, body: { errorMsg: STORAGE_MESSAGES.cannotDeletePreview } });
    }
    const deleted = await server.request('DELETE', '/f/advert/attachment/delete', { token, body: { filePath: uploaded.body.webpaths[0] } });
    expect(deleted.status).toBe(200);
    expect((await fetch(`${server.url}${uploaded.body.webpaths[0]}`)).status).toBe(404);
    expect((await fetch(`${server.url}${document.body.url}`)).status).toBe(200);
  });
});

describe('client documents behind signed, expiring links; app media public', () => {
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  let server: TestServer;
  let token: string;
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 9));
  beforeAll(async () => {
    server = await startTestServer({ clock, config: { storage: kinds.local() } });
    token = (await server.signIn(['CSM'])).accessToken.value;
  });
  afterAll(() => server?.close());

  const status = async (path: string) => {
    const answer = await fetch(`${server.url}${path}`);
    await answer.arrayBuffer();
    return answer.status;
  };

  it('refuses a document without its signature, whatever the spelling of its folder, and says nothing of absent files', async () => {
    const stored = await upload(server, token, 'assets/clients/Labo Privé', 'contrat.pdf', PDF);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const path = '/cdn/assets/clients/Labo%20Priv%C3%A9/contrat.pdf';
    expect(await status(stored.body.url)).toBe(200);
    for (const unsigned of [
      path,
      `${path}?d=1`,
      '/cdn/assets/CLIENTS/Labo%20Priv%C3%A9/contrat.pdf',
      '/cdn/assets/clients./Labo%20Priv%C3%A9/contrat.pdf',
      '/cdn/Assets/Clients::$INDEX_ALLOCATION/x.pdf',
      '/cdn/assets/clients/absent.pdf',
    ]) {
      const answer = await fetch(`${server.url}${unsigned}`);
      expect(answer.status, unsigned).toBe(403);
      expect(await answer.json()).toEqual({ errorMsg: STORAGE_MESSAGES.documentLinkRequired });
    }
    // Even with a bearer token the link is what counts (the renderer opens links, it sends no token).
    expect((await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);
  });

  it('serves a signed link until it expires (10 minutes), and never a tampered one', async () => {
    const stored = await upload(server, token, 'assets/clients', 'devis.pdf', PDF);
    const other = await upload(server, token, 'assets/clients', 'autre.pdf', PDF);
    const listed = await server.request('GET', '/f/cdn/list?folder=assets%2Fclients', { token });
    const url: string = listed.body.files.find((file: { name: string }) => file.name === 'devis.pdf').url;
    const { expires, signature } = Object.fromEntries(new URL(url, server.url).searchParams) as { expires: string; signature: string };
    expect(Number(expires) * 1000).toBe(clock.now().getTime() + 10 * 60 * 1000);
    expect(await status(url)).toBe(200);
    expect(await status(stored.body.url)).toBe(200);

    const base = '/cdn/assets/clients/devis.pdf';
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    for (const tampered of [
      `${base}?expires=${expires}&signature=${flipped}`,
      `${base}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `${base}?expires=${expires}&signature=${signature.slice(1)}`,
      `${base}?expires=${expires}`,
      `${base}?signature=${signature}`,
      `${base}?expires=${expires}x&signature=${signature}`,
      // Another document's signature does not open this one.
      `${base}${other.body.url.slice(other.body.url.indexOf('?'))}`,
      `/cdn/assets/clients/autre.pdf?expires=${expires}&signature=${signature}`,
    ]) {
      const answer = await fetch(`${server.url}${tampered}`);
      expect(answer.status, tampered).toBe(403);
      expect(await answer.json(), tampered).toEqual({ errorMsg: STORAGE_MESSAGES.documentLinkRequired });
    }

    clock.advance(10 * 60 * 1000 - 1000);
    expect(await status(url)).toBe(200);
    clock.advance(1000);
    const expired = await fetch(`${server.url}${url}`);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ errorMsg: STORAGE_MESSAGES.documentLinkExpired });
    // A new listing signs anew.
    const again = await server.request('GET', '/f/cdn/list?folder=assets%2Fclients', { token });
    expect(await status(again.body.files.find((file: { name: string }) => file.name === 'devis.pdf').url)).toBe(200);
  });

  it('keeps the media of the app (libraries, adverts) public, with their long cache', async () => {
    const library = (await server.request('GET', '/library/advert/77', { token })).body;
    const form = new FormData();
    form.append('libraryId', String(library.id));
    form.append('file', new Blob([new Uint8Array(PNG)]), 'visuel.png');
    const answer = await fetch(`${server.url}/library/attachment/media/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const media: string = ((await answer.json()) as { webpaths: string[] }).webpaths[0];
    expect(media).toMatch(/^\/cdn\/assets\/library\/\d+\/[0-9a-f]{8}-visuel\.png\?d=\d{10}$/);
    const served = await fetch(`${server.url}${media}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await served.arrayBuffer();
    const unversioned = await fetch(`${server.url}${media.split('?')[0]}`);
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=300');
    await unversioned.arrayBuffer();
    // The advert media of the demo workspace's folder as well: no signature asked outside assets/clients.
    await server.app.context.storage.put('assets/adverts/5/cover-x.png', Readable.from([PNG]), 'image/png');
    expect(await status('/cdn/assets/adverts/5/cover-x.png')).toBe(200);
    // A document is no media of the app: a library does not take its (expiring) link.
    const document = await upload(server, token, 'assets/clients', 'photo.png', PNG);
    const refused = await server.request('PUT', '/library/advert/77', { token, body: { content: [document.body.url] } });
    expect(refused).toMatchObject({ status: 400, body: { errorMsg: STORAGE_MESSAGES.notProductMedia } });
  });

  it('on S3 with a public media address, documents still get signed links to this server, media the public one', async () => {
    const s3 = await startTestServer({ clock, config: { storage: { ...kinds.s3(), publicUrl: 'https://media.example.test' } } });
    try {
      const csm = (await s3.signIn(['CSM'])).accessToken.value;
      const folder = `assets/clients/s3-${Date.now()}`;
      const stored = await upload(s3, csm, folder, 'rapport.pdf', PDF);
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      expect(stored.body.url).toMatch(new RegExp(`^/cdn/${folder}/rapport\\.pdf\\?expires=\\d{10}&signature=[\\w-]{43}$`));
      const listed = await s3.request('GET', `/f/cdn/list?folder=${encodeURIComponent(folder)}`, { token: csm });
      expect(listed.body.files[0].url).not.toContain('media.example.test');
      const served = await fetch(`${s3.url}${stored.body.url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('application/pdf');
      await served.arrayBuffer();
      expect((await fetch(`${s3.url}/cdn/${folder}/rapport.pdf`)).status).toBe(403);
      const library = (await s3.request('GET', '/library/article/3', { token: csm })).body;
      const form = new FormData();
      form.append('libraryId', String(library.id));
      form.append('file', new Blob([new Uint8Array(PNG)]), 'visuel.png');
      const media = await fetch(`${s3.url}/library/attachment/media/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${csm}` },
        body: form,
      });
      expect(((await media.json()) as { webpaths: string[] }).webpaths[0]).toMatch(/^https:\/\/media\.example\.test\/cdn\/assets\/library\//);
    } finally {
      await s3.close();
    }
  });
});

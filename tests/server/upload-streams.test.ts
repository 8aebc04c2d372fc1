import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { BAT_MESSAGES } from '@shared/messages/bat';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { SCREENSHOT_MAX_SIDE } from '@shared/rules/bat';
import { INVENTORY_MESSAGES } from '@shared/messages/inventory';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Uploads that go wrong midway: refused after their first bytes (the answer must still come, with its French
 * message), cut by the client, over the size limit, or stalled. The server answers or drops that request and keeps
 * serving the next one. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ config: { uploadIdleTimeoutMs: 1500 } });
  token = (await server.signIn(['ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG head (signature and a `width` × `height` IHDR) padded to `size` bytes. */
function png(size: number, width = 10, height = 10): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  return Buffer.concat([PNG_SIGNATURE, ihdr, Buffer.alloc(size - 33)]);
}
const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9, 0x20)]);
const csvRows = (header: string, row: (index: number) => string, size: number) => {
  const lines = [header];
  let length = header.length;
  for (let index = 0; length < size; index += 1) {
    const line = row(index);
    lines.push(line);
    length += line.length + 2;
  }
  return Buffer.from(lines.join('\r\n'));
};

interface Upload {
  name: string;
  method: string;
  path: string;
  fields: Record<string, string>;
  fileField?: string;
  fileName: string;
  content: (size: number) => Buffer;
}

const MISSING = '999999';
const KB300 = 300 * 1024;

/** The 8 uploads refused once their first bytes are read, each with its message. */
const REFUSED_AFTER_HEAD: (Upload & { message: string })[] = [
  {
    name: 'a document outside assets/clients',
    method: 'POST',
    path: '/f/document/upload',
    fields: { path: 'elsewhere' },
    fileName: 'brief.pdf',
    content: pdf,
    message: STORAGE_MESSAGES.outsideDocuments,
  },
  {
    name: 'a library media into a missing library',
    method: 'POST',
    path: '/library/attachment/media/upload',
    fields: { libraryId: MISSING },
    fileName: 'image.png',
    content: png,
    message: STORAGE_MESSAGES.libraryNotFound,
  },
  {
    name: 'the cover of a missing advert',
    method: 'POST',
    path: '/f/advert/attachment/cover/upload',
    fields: { advertId: MISSING },
    fileName: 'cover.png',
    content: png,
    message: BAT_MESSAGES.advertNotFound,
  },
  {
    name: 'the story logo of a missing advert',
    method: 'POST',
    path: '/f/advert/attachment/story/logo/upload',
    fields: { advertId: MISSING },
    fileName: 'logo.png',
    content: png,
    message: BAT_MESSAGES.advertNotFound,
  },
  {
    name: 'a BAT screenshot of a missing advert',
    method: 'POST',
    path: '/bat/screenshot/upload',
    fields: { advertId: MISSING },
    fileField: 'file0',
    fileName: 'capture.png',
    content: png,
    message: BAT_MESSAGES.advertNotFound,
  },
  {
    name: 'a BAT version of a missing advert',
    method: 'POST',
    path: '/bat/version/upload',
    fields: { advertId: MISSING },
    fileName: 'bat.pdf',
    content: pdf,
    message: BAT_MESSAGES.advertNotFound,
  },
  {
    name: 'an inventory with a bad header',
    method: 'PUT',
    path: '/inventory/upload',
    fields: {},
    fileName: 'inventaire.csv',
    content: (size) => csvRows('Foo;26/01', (index) => `${index};1`, size),
    message: 'Missing columns : Profession | Specialty | Nom',
  },
  {
    name: 'an inventory with a bad row',
    method: 'PUT',
    path: '/inventory/upload',
    fields: {},
    fileName: 'inventaire.csv',
    content: (size) => csvRows('Profession;Specialty;Nom;26/01', (index) => (index === 1 ? ';1;x;beaucoup' : `;1;x${index};1`), size),
    message: INVENTORY_MESSAGES.badViews(3, '26/01', 'beaucoup'),
  },
];

const ALL_UPLOADS: Upload[] = [
  ...REFUSED_AFTER_HEAD.slice(0, 6),
  {
    name: 'an inventory',
    method: 'PUT',
    path: '/inventory/upload',
    fields: {},
    fileName: 'inventaire.csv',
    content: (size) => csvRows('Profession;Specialty;Nom;26/01', (index) => `;1;x${index};1`, size),
  },
  {
    name: 'a laboratory panel',
    method: 'POST',
    path: '/alphonse/project',
    fields: { projectName: 'Coupé' },
    fileName: 'panel.csv',
    content: (size) => csvRows('NAME;SURNAME;GENDER;CRIT_01', (index) => `N${index};P;F;x`, size),
  },
  {
    name: 'a CSV import file',
    method: 'POST',
    path: '/imports/upload',
    fields: {},
    fileName: 'import.csv',
    content: (size) => csvRows('email;name', (index) => `u${index}@example.org;U`, size),
  },
];

function form(upload: Upload, size: number): Promise<{ body: Buffer; type: string }> {
  const data = new FormData();
  for (const [key, value] of Object.entries(upload.fields)) data.append(key, value);
  data.append(upload.fileField ?? 'file', new Blob([new Uint8Array(upload.content(size))]), upload.fileName);
  const request = new Request('http://x/', { method: 'POST', body: data });
  return request.arrayBuffer().then((bytes) => ({ body: Buffer.from(bytes), type: request.headers.get('content-type')! }));
}

async function send(upload: Upload, size: number) {
  const { body, type } = await form(upload, size);
  const response = await fetch(`${server.url}${upload.path}`, {
    method: upload.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body: new Uint8Array(body),
  });
  return { status: response.status, body: (await response.json()) as { errorMsg?: string } };
}

/**
 * Sends the head of the request and `sent` bytes of its body (of `length` announced), then `end`: 'close' the
 * connection, or 'wait' for whatever the server does. Resolves with the status it answered, if any.
 */
function partial(upload: Upload, body: Buffer, type: string, sent: number, end: 'close' | 'wait'): Promise<number | undefined> {
  const { port } = new URL(server.url);
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `${upload.method} ${upload.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, sent), () => {
        if (end === 'close') socket.destroy();
      });
    });
    const status = () => {
      const found = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      return found ? Number(found[1]) : undefined;
    };
    socket.on('data', (chunk) => {
      answer += chunk;
      if (status() !== undefined) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(status()));
  });
}

async function stillServing() {
  expect((await server.request('GET', '/inventory/consumers', { token })).status).toBeLessThan(500);
  const next = await send(ALL_UPLOADS[1], 1000);
  expect(next.body.errorMsg).toBe(STORAGE_MESSAGES.libraryNotFound);
}

describe('an upload refused after its first bytes is answered, with its message', () => {
  for (const upload of REFUSED_AFTER_HEAD) {
    it(`${upload.name} (300 KB)`, async () => {
      const answer = await send(upload, KB300);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.body.errorMsg).toBe(upload.message);
    });
  }
});

describe('an upload cut midway is dropped and the server keeps serving', () => {
  for (const upload of ALL_UPLOADS) {
    it(upload.name, async () => {
      const { body, type } = await form(upload, 2 * 1024 * 1024);
      await partial(upload, body, type, body.length >> 1, 'close');
      await stillServing();
    });
  }
});

describe('an upload over its limit is refused and the server keeps serving', () => {
  it('an inventory over 20 MB: 413 with the size message', async () => {
    const answer = await send(ALL_UPLOADS[6], 21 * 1024 * 1024);
    expect(answer).toEqual({ status: 413, body: { errorMsg: 'Fichier trop volumineux. Taille maximale 20Mo' } });
    await stillServing();
  });

  it('a library media over 10 MB: 413', async () => {
    const answer = await send({ ...ALL_UPLOADS[1], fields: { libraryId: MISSING } }, 11 * 1024 * 1024);
    expect(answer.status).toBe(413);
    await stillServing();
  });
});

describe('a stalled upload is answered 408 and dropped', () => {
  it('an inventory whose client stops sending', async () => {
    const upload = ALL_UPLOADS[6];
    const { body, type } = await form(upload, 1024 * 1024);
    expect(await partial(upload, body, type, body.length >> 1, 'wait')).toBe(408);
    expect(MESSAGES.requestTimeout).toBeTruthy();
    await stillServing();
  });
});

describe('BAT screenshots: the dimensions a PNG declares are bounded', () => {
  it('refuses a 1 KB PNG declaring 60,000 × 60,000 px, keeps the canvas at a ratio of 4', async () => {
    const created = await server.request('POST', '/advert/create', { token, body: { advert: { name: 'Capture', type: 'post' } } });
    const screenshot = (width: number, height: number): Upload => ({
      ...REFUSED_AFTER_HEAD[4],
      fields: { advertId: String(created.body.id) },
      content: (size) => png(size, width, height),
    });
    const huge = await send(screenshot(60_000, 60_000), 1024);
    expect(huge).toEqual({ status: 400, body: { errorMsg: PREVIEW_MESSAGES.screenshotTooLarge(60_000, 60_000, SCREENSHOT_MAX_SIDE) } });
    expect(huge.body.errorMsg).toBe('Capture trop grande : 60000 × 60000 px (4000 px de côté au plus).');
    expect((await send(screenshot(1000, SCREENSHOT_MAX_SIDE + 1), 1024)).status).toBe(400);
    expect((await send(screenshot(SCREENSHOT_MAX_SIDE, 2832), 1024)).status).toBe(200);
  });
});

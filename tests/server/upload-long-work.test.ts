import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { receiveFile } from '../../src-server/storage/multipart';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * An upload's idle timer is about the client's bytes: once the body has ended, work that outlasts it (a 20 MB
 * inventory applied on PGlite took 88–103 s) still answers. The real receiveFile on the real server, with a short
 * idle timeout and a store that works well past it after the last byte. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const IDLE_MS = 1000;
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({
    config: { uploadIdleTimeoutMs: IDLE_MS },
    beforeListen: (app) => {
      app.post('/test/slow-work-upload', async (request) =>
        receiveFile(request, { fields: z.object({}), maxFileBytes: 1024 * 1024, formats: ['csv'] }, async (file) => {
          let bytes = 0;
          for await (const chunk of file.body) bytes += (chunk as Buffer).length;
          // The whole body is in: the work after it lasts three idle timeouts.
          await sleep(3 * IDLE_MS);
          return { bytes };
        }),
      );
    },
  });
  token = (await server.signIn(['ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

describe('an upload whose work outlasts the idle timeout after its last byte', () => {
  it('is answered, not dropped', async () => {
    const data = new FormData();
    data.append('file', new Blob(['email;name\r\n'.repeat(1000)]), 'long.csv');
    const response = await fetch(`${server.url}/test/slow-work-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: data,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ bytes: 12_000 });
  });
});

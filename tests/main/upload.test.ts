import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { multipartFromFile } from '../../src-main/services/upload';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * Uploads go out as multipart/form-data with the bearer token, as the upload channel sends them (a body from
 * multipartFromFile, sent by ApiClient.uploadStream): a loopback HTTP server records what arrives, byte for byte,
 * and the token is a real one.
 */
let api: TestServer;
const received: { headers: IncomingMessage['headers']; body: Buffer; method?: string; url?: string }[] = [];
const recorder = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks), method: request.method, url: request.url });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"stored":true}');
  });
});

beforeAll(async () => {
  api = await startTestServer();
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  recorder.close();
  await api?.close();
});

describe('ApiClient.uploadStream', () => {
  it('sends the file as multipart with its name, type, fields and the bearer token', async () => {
    const { email } = await api.createAccount(['ADMIN']);
    let base = api.url;
    // The recorder below stands in for the same API (as the settings would name it), to see what is sent.
    const vault = await createSessionVault({ service: 't', account: 't' });
    const client = new ApiClient({ baseUrl: () => base, apiIdentity: () => 'team-server', vault });
    expect((await client.signIn(email, TEST_PASSWORD)).ok).toBe(true);
    base = `http://127.0.0.1:${(recorder.address() as { port: number }).port}`;
    const bytes = new TextEncoder().encode('Profession;Specialty;Nom;22/01\nMédecin;;X;10\n');
    const inMemory = await multipartFromFile({ fileName: 'inventaire.csv', contentType: 'text/csv', bytes }, { kind: 'inventory' });
    const result = await client.uploadStream('PUT', '/inventory/upload', inMemory);
    expect(result).toEqual({ ok: true, data: { stored: true } });
    const [request] = received;
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/inventory/upload');
    expect(request.headers.authorization).toMatch(/^Bearer eyJ/);
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers['content-length']).toBe(String(request.body.length));
    const body = request.body.toString('utf8');
    expect(body).toContain('name="kind"');
    expect(body).toContain('filename="inventaire.csv"');
    expect(body).toContain('Content-Type: text/csv');
    expect(request.body.includes(Buffer.from(bytes))).toBe(true);

    // A file picked on disk streams from its path: 8 MiB of varied bytes arrive whole.
    const onDisk = join(mkdtempSync(join(tmpdir(), 'bo-upload-')), 'document.bin');
    const large = randomBytes(8 * 1024 * 1024);
    writeFileSync(onDisk, large);
    const fromDisk = await client.uploadStream(
      'POST',
      '/document/upload',
      await multipartFromFile({ fileName: 'document.bin', contentType: 'application/octet-stream', path: onDisk }, {}),
    );
    expect(fromDisk.ok).toBe(true);
    const streamed = received[1];
    expect(streamed.method).toBe('POST');
    expect(streamed.body.toString('latin1')).toContain('filename="document.bin"');
    expect(streamed.body.includes(large)).toBe(true);
    rmSync(dirname(onDisk), { recursive: true, force: true });
    await client.close();
  });
});

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * Slow request bodies are cut before authentication (docs/security.md, "Streams and slow requests"): a body not in
 * within bodyTimeoutMs (1 s here, 30 s by default) is answered 408 and its connection closed; uploads keep their
 * own idle timer and may take longer while their bytes keep coming. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const BODY_TIMEOUT_MS = 1000;
let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer({ config: { bodyTimeoutMs: BODY_TIMEOUT_MS, uploadIdleTimeoutMs: 2000 } });
  port = Number(new URL(server.url).port);
});
afterAll(() => server?.close());

/**
 * Sends `head` and then `body` in `chunks` pieces, one every `everyMs`, over a raw connection. Resolves when the
 * server closes it (or answers and the client has sent everything), with the status and when it ended.
 */
function trickle(head: string, body: Buffer, chunks: number, everyMs: number): Promise<{ status?: number; text: string; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      const size = Math.ceil(body.length / chunks);
      const next = () => {
        if (socket.destroyed || sent >= body.length) return;
        socket.write(body.subarray(sent, sent + size));
        sent += size;
        timer = setTimeout(next, everyMs);
      };
      next();
    });
    const done = () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      resolve({ status: status ? Number(status) : undefined, text: answer, afterMs: Date.now() - started });
    };
    socket.on('data', (chunk) => {
      answer += chunk;
      // A complete answer to a fully sent request: the test has what it needs.
      if (sent >= body.length && /\r\n\r\n[\s\S]*\}$/.test(answer)) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', done);
  });
}

const json = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;

describe('slow request bodies', () => {
  it('50 sign-ins sending one byte every 200 ms are all cut with 408 within the timeout; a sign-in meanwhile gets in', async () => {
    const body = JSON.stringify({ username: 'slow@test.local', password: 'x'.repeat(200) });
    const slow = Array.from({ length: 50 }, () => trickle(json('/authenticate', body), Buffer.from(body), body.length, 200));
    const { email } = await server.createAccount(['CSM']);
    const signIn = await server.request('POST', '/authenticate', { body: { username: email, password: TEST_PASSWORD } });
    expect(signIn.status).toBe(200);
    const cut = await Promise.all(slow);
    for (const connection of cut) {
      expect(connection.status).toBe(408);
      expect(connection.text).toContain(JSON.stringify({ errorMsg: MESSAGES.requestTimeout }));
      // Cut at the timeout, not after the 45 s the body would take (room left for a busy machine).
      expect(connection.afterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
      expect(connection.afterMs).toBeLessThan(BODY_TIMEOUT_MS + 4000);
    }
    expect(MESSAGES.requestTimeout).toBe('Requête trop lente, abandonnée');
  });

  it('a body sent in good time is answered as usual', async () => {
    const body = JSON.stringify({ username: 'nobody@test.local', password: 'not-the-password' });
    const answer = await trickle(json('/authenticate', body), Buffer.from(body), 4, 100);
    expect(answer.status).toBe(401);
  });

  it('an upload taking three times the body timeout, its bytes coming steadily, still works', async () => {
    const { accessToken } = await server.signIn(['ADMIN']);
    const data = new FormData();
    const csv = ['Profession;Specialty;Nom;26/01', ...Array.from({ length: 200 }, (_, index) => `;${index + 1};x${index};1`)].join('\r\n');
    data.append('file', new Blob([csv]), 'inventaire.csv');
    const request = new Request('http://x/', { method: 'PUT', body: data });
    const bytes = Buffer.from(await request.arrayBuffer());
    const head =
      `PUT /inventory/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${accessToken.value}\r\n` +
      `Content-Type: ${request.headers.get('content-type')}\r\nContent-Length: ${bytes.length}\r\n\r\n`;
    const answer = await trickle(head, bytes, 10, (3 * BODY_TIMEOUT_MS) / 10);
    expect(answer.afterMs).toBeGreaterThan(2 * BODY_TIMEOUT_MS);
    expect(answer.status, answer.text).toBe(200);
  });
});

import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, operationIds, type Operation } from '@shared/contract';
import { MESSAGES, VALIDATION_MESSAGES } from '@shared/messages';
import { accounts } from '../../src-server/db/schema';
import { contractExamples } from '../fixtures/contract-examples';
import { startTestServer, type TestServer } from '../helpers/server';

/** Control characters refused with 400, no query parameter in the log, `{ errorMsg }` on every 4xx. */
let server: TestServer;
let adminToken: string;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({
    config: { maxFailuresPerAddress: 1e9, maxFailuresPerUsername: 1e9 },
    logger: pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (logLines.push(String(chunk)), done()) })),
    beforeListen: (app) => {
      // A query that fails in the database with a secret among its parameters.
      app.get('/test/failing-query', async () => {
        await app.context.db
          .insert(accounts)
          .values({ name: 'nul\u0000byte', email: 'x@test.local', passwordHash: 'scrypt$SECRET-HASH-VALUE', roles: [] });
        return { ok: true };
      });
    },
  });
  adminToken = (await server.signIn(['ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

/** One raw HTTP/1.1 exchange, for requests fetch refuses to send. */
function rawRequest(text: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), body: answer.split('\r\n\r\n').slice(1).join('\r\n\r\n') }),
    );
  });
}

describe('control characters in text fields', () => {
  const textFields = operationIds.flatMap((id) => {
    const example = contractExamples[id]!;
    return (['body', 'query'] as const).flatMap((part) =>
      Object.entries(example[part] ?? {})
        .filter(([, value]) => typeof value === 'string')
        .map(([key, value]) => ({ id, part, key, value: value as string })),
    );
  });

  it('covers every text field of the examples', () => {
    expect(textFields.length).toBeGreaterThanOrEqual(10);
  });

  for (const { id, part, key, value } of textFields) {
    it(`${id} ${part}.${key}: NUL and other control characters → 400 naming the field`, async () => {
      const operation = contract[id] as Operation;
      const example = contractExamples[id]!;
      const params = (example as { params?: Record<string, unknown> }).params ?? {};
      const send = (text: string) => {
        const input = { ...example, [part]: { ...example[part], [key]: text } };
        const query = new URLSearchParams(Object.entries(input.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
        const path =
          operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? 1))) +
          (query ? `?${query}` : '');
        return server.request(operation.method, path, {
          token: operation.access.kind === 'public' ? undefined : adminToken,
          body: operation.method === 'GET' ? undefined : input.body,
        });
      };
      // A field that refuses any other character too (an enum, an id format) names itself with its own reason.
      const freeText = (await send(`${value.slice(0, 1)}z${value.slice(1)}`)).status !== 400;
      for (const control of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) {
        const response = await send(`${value.slice(0, 1)}${control}${value.slice(1)}`);
        expect(response.status, `${JSON.stringify(control)} → ${JSON.stringify(response.body)}`).toBe(400);
        expect(response.body.field).toBe(key);
        if (freeText) expect(response.body.errorMsg).toMatch(new RegExp(` : ${VALIDATION_MESSAGES.controlCharacters}$`));
      }
    });
  }
});

describe('the log never keeps query parameters', () => {
  it('a failed query is logged with its SQL, not its values', async () => {
    const response = await server.request('GET', '/test/failing-query');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ errorMsg: MESSAGES.genericError });
    const logged = logLines.filter((line) => line.includes('unexpected error'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('insert into');
    expect(logged[0]).not.toContain('SECRET-HASH-VALUE');
    expect(logged[0]).not.toContain('x@test.local');
    expect(logLines.join('\n')).not.toContain('SECRET-HASH-VALUE');
  });
});

describe('every 4xx answer carries { errorMsg }', () => {
  it('a malformed URL → 400', async () => {
    const response = await server.request('GET', '/admin/accounts/%E0%A4%A', { token: adminToken });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errorMsg: MESSAGES.badUrl });
  });

  it('a path parameter too long → 414', async () => {
    const response = await server.request('PUT', `/admin/accounts/${'1'.repeat(150)}/roles`, { token: adminToken, body: { roles: [] } });
    expect(response.status).toBe(414);
    expect(response.body).toEqual({ errorMsg: MESSAGES.uriTooLong });
  });

  it('a 20 kB header → 431', async () => {
    const response = await rawRequest(`GET /meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toEqual({ errorMsg: MESSAGES.headersTooLarge });
  });

  it('a malformed header → 400', async () => {
    const response = await rawRequest('GET /meta HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: y\r\n\r\n');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ errorMsg: MESSAGES.badRequest });
  });
});

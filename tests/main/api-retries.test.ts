import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { ApiClient } from '../../src-main/services/api-client';
import { retryAfterMs } from '@shared/rules/retry-after';
import { isRetryable, retryDelayMs, RETRY_BOUNDS } from '../../src-main/services/retry-policy';
import { createSessionVault } from '../../src-main/services/session-vault';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

let server: TestServer;
let requestsSeen: string[] = [];

beforeAll(async () => {
  server = await startTestServer({
    beforeListen: (app) =>
      app.addHook('onRequest', async (request) => {
        requestsSeen.push(`${request.method} ${request.url.split('?')[0]}`);
      }),
  });
});
afterAll(() => server?.close());

/** What the network does to a connection: pass it, cut it before any answer, lose the answer, or say 503. */
type Fault = 'pass' | 'refuse' | 'lose-answer' | 'busy';

/**
 * A loopback TCP proxy in front of the real API that applies one fault per new connection, in order, then passes:
 * a server restarting (refused), an answer lost on the way back after the server did the work, a reverse proxy
 * answering 503 with Retry-After while the API restarts.
 */
async function faultyProxy(target: string, faults: Fault[]): Promise<{ url: string; connections: number[]; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const connections: number[] = [];
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    connections.push(Date.now());
    const fault = faults.shift() ?? 'pass';
    if (fault === 'refuse') {
      client.destroy();
      return;
    }
    if (fault === 'busy') {
      client.once('data', () =>
        client.end(
          'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
        ),
      );
      return;
    }
    const upstream = connect(Number(port), hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    if (fault === 'lose-answer') upstream.once('data', () => client.destroy());
    else upstream.pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
    connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** A client signed in through the real server directly, then calling through `baseUrl`. */
async function signedInClient(baseUrl: () => string) {
  const { email } = await server.createAccount(['CSM_LEAD']);
  const vault = await createSessionVault({ service: 'test', account: `retries-${email}` });
  let signingIn = true;
  const api = new ApiClient({ baseUrl: () => (signingIn ? server.url : baseUrl()), vault, apiIdentity: () => 'the-api' });
  expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
  signingIn = false;
  return api;
}

async function groupsNamed(name: string): Promise<number> {
  const token = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  const { body } = await server.request('GET', `/v2/groups?term=${encodeURIComponent(name)}`, { token });
  return (body.items as { name: string }[]).filter((group) => group.name === name).length;
}

describe('retry policy', () => {
  it('waits longer each try, with jitter, within its bounds; honours Retry-After up to its bound', () => {
    for (let attempt = 1; attempt <= RETRY_BOUNDS.maxRetries; attempt += 1) {
      const ceiling = Math.min(RETRY_BOUNDS.maxDelayMs, RETRY_BOUNDS.baseDelayMs * 2 ** (attempt - 1));
      expect(retryDelayMs(attempt, undefined, () => 0)).toBe(ceiling / 2);
      expect(retryDelayMs(attempt, undefined, () => 0.999_999)).toBe(ceiling);
    }
    expect(retryDelayMs(RETRY_BOUNDS.maxRetries + 1, undefined)).toBeNull();
    expect(retryDelayMs(1, 2_000)).toBe(2_000);
    expect(retryDelayMs(1, RETRY_BOUNDS.maxRetryAfterMs + 1)).toBeNull();
    expect(retryAfterMs('3')).toBe(3_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('retries reads and creates only: never a plain write', () => {
    expect(isRetryable(contract['groups.list'])).toBe(true);
    expect(isRetryable(contract['groups.create'])).toBe(true);
    expect(isRetryable(contract['groups.update'])).toBe(false);
    expect(isRetryable(contract['groups.delete'])).toBe(false);
  });
});

describe('ApiClient retries against the real API', () => {
  it('reads again while the server restarts (connections refused), then answers', async () => {
    const proxy = await faultyProxy(server.url, ['refuse', 'refuse']);
    const api = await signedInClient(() => proxy.url);
    expect(await api.call('groups.list', { query: {} })).toMatchObject({ ok: true });
    expect(proxy.connections.length).toBeGreaterThanOrEqual(3);
    await api.close();
    await proxy.close();
  });

  it('a create whose answer was lost is sent again with its key: one record, and the answer', async () => {
    const proxy = await faultyProxy(server.url, ['lose-answer']);
    const api = await signedInClient(() => proxy.url);
    requestsSeen = [];
    const created = await api.call('groups.create', { body: { name: 'Réponse perdue', relationships: [] } });
    expect(created).toMatchObject({ ok: true, data: { name: 'Réponse perdue' } });
    // The server did the create twice over the wire, and made one group.
    expect(requestsSeen.filter((line) => line === 'POST /v2/group')).toHaveLength(2);
    expect(await groupsNamed('Réponse perdue')).toBe(1);
    await api.close();
    await proxy.close();
  });

  it('never sends a plain write twice: a lost answer is reported', async () => {
    const api0 = await signedInClient(() => server.url);
    const made = await api0.call('groups.create', { body: { name: 'À renommer', relationships: [] } });
    expect(made.ok).toBe(true);
    await api0.close();
    const proxy = await faultyProxy(server.url, ['lose-answer']);
    const api = await signedInClient(() => proxy.url);
    requestsSeen = [];
    const id = (made as { data: { id: number } }).data.id;
    const renamed = await api.call('groups.update', { params: { id }, body: { name: 'Renommé une fois' } });
    expect(renamed).toMatchObject({ ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable });
    expect(requestsSeen.filter((line) => line.startsWith('PUT /v2/group/'))).toHaveLength(1);
    await api.close();
    await proxy.close();
  });

  it("waits the server's Retry-After before trying again", async () => {
    const proxy = await faultyProxy(server.url, ['busy']);
    const api = await signedInClient(() => proxy.url);
    expect(await api.call('groups.list', { query: {} })).toMatchObject({ ok: true });
    expect(proxy.connections).toHaveLength(2);
    expect(proxy.connections[1]! - proxy.connections[0]!).toBeGreaterThanOrEqual(950);
    await api.close();
    await proxy.close();
  });

  it('gives up after its tries, with the last answer', async () => {
    const proxy = await faultyProxy(
      server.url,
      Array.from({ length: 10 }, () => 'refuse' as const),
    );
    const api = await signedInClient(() => proxy.url);
    expect(await api.call('groups.list', { query: {} })).toMatchObject({ ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable });
    expect(proxy.connections).toHaveLength(RETRY_BOUNDS.maxRetries + 1);
    await api.close();
    await proxy.close();
  });
});

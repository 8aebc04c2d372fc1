import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src-server/db/rows';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * The spec's `GET /project/estimate/:id` creates a project. Main's client retries GETs whose connection is cut;
 * this one, marked `sideEffects: 'creates'` in the contract, goes with an Idempotency-Key the server answers once.
 * Through a proxy that resets the connection once the first answer comes back (the server did the work), one call
 * makes one project and gets its answer.
 */
let server: TestServer;
const seen: string[] = [];

beforeAll(async () => {
  server = await startTestServer({
    beforeListen: (app) =>
      app.addHook('onRequest', async (request) => {
        seen.push(`${request.method} ${request.url.split('?')[0]}`);
      }),
  });
  const admin = (await server.signIn(['ADMIN'])).accessToken.value;
  const quote = 'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT\r\nDEV-2026-0515;Sanofa;Post sponsorisé;2;4 500,00';
  expect((await server.request('POST', '/estimates/import', { token: admin, body: { csv: quote } })).status).toBe(200);
});
afterAll(() => server?.close());

/** A loopback proxy to the API that cuts the first connection as soon as its answer starts, then passes. */
async function losesFirstAnswer(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let first = true;
  const proxy: Server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    const upstream = connect(Number(port), hostname);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    if (first) {
      first = false;
      upstream.once('data', () => client.resetAndDestroy());
    } else upstream.pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

describe('a GET that creates, through a connection reset after its answer', () => {
  it('one call makes one project, and answers it', async () => {
    const { email, id: csmId } = await server.createAccount(['CSM']);
    const proxy = await losesFirstAnswer(server.url);
    const vault = await createSessionVault({ service: 'test', account: `estimate-retry-${email}` });
    let signingIn = true;
    const api = new ApiClient({ baseUrl: () => (signingIn ? server.url : proxy.url), vault, apiIdentity: () => 'the-api' });
    try {
      expect((await api.signIn(email, TEST_PASSWORD)).ok).toBe(true);
      signingIn = false;
      seen.length = 0;
      const answer = await api.call('estimates.createProject', {
        params: { id: 'DEV-2026-0515' },
        query: { name: 'Devis coupé', actor: 'Laboratoire', keyAccount: csmId },
      });
      expect(answer).toMatchObject({ ok: true, data: { name: 'Devis coupé', clientName: 'Sanofa' } });
      // Sent twice over the wire (the first answer was lost), made once.
      expect(seen.filter((line) => line === 'GET /project/estimate/DEV-2026-0515')).toHaveLength(2);
      const [made] = await rows<{ n: number }>(server.database.db, sql`SELECT count(*)::int AS n FROM projects WHERE name = 'Devis coupé'`);
      expect(made.n).toBe(1);
    } finally {
      await api.close();
      await proxy.close();
    }
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Operation, type OperationId } from '@shared/contract';
import { ROLES } from '@shared/roles';
import { rows } from '../../src-server/db/rows';
import { isRetryable, sendsIdempotencyKey } from '../../src-main/services/retry-policy';
import { contractExamples } from '../fixtures/contract-examples';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Main's API client sends a GET again when its connection is cut: a GET that writes must say so in the contract
 * (`sideEffects`), so that the client sends it with an Idempotency-Key and never blindly. Here every GET of the
 * contract is called with its example input, as an account holding every role, on the demo workspace (whose
 * records the examples' ids point at), and the database is compared, table by table, before and after: only the
 * GETs marked `sideEffects: 'creates'` may change it (and a get-or-create, marked 'idempotent', only once).
 */
const entries = Object.entries(contract) as [OperationId, Operation][];

describe('no operation the client retries has side effects', () => {
  it('retries only GETs not marked sideEffects, and writes that carry their key', () => {
    for (const [id, operation] of entries) {
      if (!isRetryable(operation)) continue;
      const safeRead = operation.method === 'GET' && operation.sideEffects !== 'creates';
      expect(safeRead || sendsIdempotencyKey(operation), id).toBe(true);
    }
    // The GET that creates a project is sent again only with its key, which the server answers once.
    expect(sendsIdempotencyKey(contract['estimates.createProject'])).toBe(true);
  });

  describe('every GET on a workspace with data', () => {
    let server: TestServer;
    let token: string;
    beforeAll(async () => {
      server = await startTestServer({
        config: { seedAudienceDemo: { users: 300, events: 300 }, seedStorageDemo: true, pushIntervalMs: 0, autopublishIntervalMs: 0 },
      });
      token = (await server.signIn([...ROLES])).accessToken.value;
      // The quote the estimate example names.
      const quote = 'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT\r\nDEV-2026-0042;Sanofa;Post;1;100';
      expect((await server.request('POST', '/estimates/import', { token, body: { csv: quote } })).status).toBe(200);
      // The demo is seeded in the background, its proof last (once its adverts exist, after pictures that take
      // seconds to draw while the database does not change): wait for the proof, then until the database stops changing.
      const proofs = async () => (await rows<{ n: number }>(server.database.db, sql`SELECT count(*)::int AS n FROM bat_versions`))[0].n;
      for (const deadline = Date.now() + 180_000; (await proofs()) === 0;) {
        if (Date.now() > deadline) throw new Error('the demo proof was never seeded');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      let previous = '';
      for (let stable = 0; stable < 2;) {
        const now = JSON.stringify([...(await snapshot())]);
        stable = now === previous ? stable + 1 : 0;
        previous = now;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }, 240_000);
    afterAll(() => server?.close());

    /** A digest of each table's rows. */
    async function snapshot(): Promise<Map<string, string>> {
      const tables = await rows<{ name: string }>(
        server.database.db,
        sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      );
      const digests = new Map<string, string>();
      for (const { name } of tables) {
        const [row] = await rows<{ digest: string }>(
          server.database.db,
          sql.raw(`SELECT md5(coalesce(string_agg(md5(t::text), '' ORDER BY md5(t::text)), '')) AS digest FROM "${name}" t`),
        );
        digests.set(name, row.digest);
      }
      return digests;
    }
    const changed = (before: Map<string, string>, after: Map<string, string>) =>
      [...after].filter(([name, digest]) => before.get(name) !== digest).map(([name]) => name);

    function request(id: OperationId, operation: Operation): string {
      const example = contractExamples[id]!;
      const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
        encodeURIComponent(String((example.params as Record<string, unknown>)?.[name] ?? 1)),
      );
      const query = new URLSearchParams(Object.entries(example.query ?? {}).map(([key, value]) => [key, String(value)])).toString();
      return query ? `${path}?${query}` : path;
    }

    it('changes nothing in the database but for the GETs marked sideEffects', async () => {
      const writers: string[] = [];
      let reached = 0;
      for (const [id, operation] of entries) {
        if (operation.method !== 'GET') continue;
        const before = await snapshot();
        const answer = await server.request('GET', request(id, operation), { token });
        if (answer.status < 300) reached += 1;
        let tables = changed(before, await snapshot());
        const who = `${id} answered ${answer.status} ${JSON.stringify(answer.body)}`;
        if (operation.sideEffects === 'creates') expect(tables.length, who).toBeGreaterThan(0);
        if (operation.sideEffects === 'idempotent') {
          // A get-or-create: called again, it writes nothing.
          const again = await snapshot();
          expect((await server.request('GET', request(id, operation), { token })).status, who).toBe(answer.status);
          tables = changed(again, await snapshot());
        }
        if (operation.sideEffects !== 'creates' && tables.length) writers.push(`${id} → ${tables.join(', ')}`);
      }
      expect(writers.join(' ; ')).toBe('');
      // Most GETs found their record (a 404 reads nothing and proves little).
      expect(reached).toBeGreaterThan(entries.filter(([, operation]) => operation.method === 'GET').length / 2);
    }, 240_000);
  });
});

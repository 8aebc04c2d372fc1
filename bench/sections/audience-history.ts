import { sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { HistoryRecorder, withOrigin } from '../../src-server/features/audience-history/recorder';
import { ms, summarize, table } from '../stats';

const RELATIONSHIPS = 100;
const ROUNDS = 40;

/**
 * What keeping the history costs a write: an audience of 100 criteria whose whole set is replaced
 * (PUT /audience/{id}/relationships), end to end with the history, and the recorder's own part measured beside
 * the same SQL without it; then the history list of an audience of 200 changes. Embedded PGlite, in memory.
 */
export async function audienceHistorySection() {
  const database = await openDatabase();
  const { db } = database;
  await db
    .insert(accounts)
    .values({ name: 'Bench Admin', email: 'bench-admin@bench.local', roles: ['ADMIN'], passwordHash: await hashPassword('bench password 2026') });
  await db.execute(sql`INSERT INTO nodes (label, value, name) SELECT 'Feed', 'f' || g, 'Feed ' || g FROM generate_series(1, ${RELATIONSHIPS * 2}) g`);
  const feeds = ((await db.execute(sql`SELECT id FROM nodes WHERE label = 'Feed' ORDER BY id`)) as unknown as { rows: { id: number }[] }).rows.map(
    (r) => r.id,
  );
  const app = await buildApp({ db, dbKind: database.kind, logger: pino({ level: 'silent' }) });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return response.json() as Promise<any>;
  };
  const token = (await call('POST', '/authenticate', undefined, { username: 'bench-admin@bench.local', password: 'bench password 2026' })).accessToken
    .value as string;
  const set = (half: number) => feeds.slice(half * RELATIONSHIPS, (half + 1) * RELATIONSHIPS).map((id) => ({ node: { label: 'Feed', id } }));
  const audience = await call('POST', '/audience', token, { name: 'Bench', relationships: set(0) });

  const writes: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await call('PUT', `/audience/${audience.id}/relationships`, token, { relationships: set((round + 1) % 2) });
    writes.push(performance.now() - started);
  }

  // The recorder alone: the same replacement in SQL, with and without before/after, rolled back.
  const recorder = new HistoryRecorder();
  const replace = async (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], half: number) => {
    await tx.execute(sql`DELETE FROM relationships WHERE audience_id = ${audience.id} AND node_id = ANY(${sql.param(feeds)}::int[])`);
    await tx.execute(
      sql`INSERT INTO relationships (audience_id, node_id) SELECT ${audience.id}, unnest(${sql.param(feeds.slice(half * RELATIONSHIPS, (half + 1) * RELATIONSHIPS))}::int[])`,
    );
  };
  const measureSql = async (withHistory: boolean) => {
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      await withOrigin({ operation: 'audiences.setRelationships', account: { id: 1 }, params: { id: audience.id } }, () =>
        db
          .transaction(async (tx) => {
            const before = withHistory ? await recorder.before(tx) : undefined;
            await replace(tx, round % 2);
            if (withHistory) await recorder.after(tx, { audiences: [audience.id] }, before);
            throw new Error('rollback');
          })
          .catch(() => undefined),
      );
      samples.push(performance.now() - started);
    }
    return summarize(samples);
  };
  const without = await measureSql(false);
  const withHistory = await measureSql(true);

  const reads: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await call('GET', `/audience/${audience.id}/history?limit=50`, token);
    reads.push(performance.now() - started);
  }
  await app.close();
  await database.close();

  const write = summarize(writes);
  const read = summarize(reads);
  table(`History of a ${RELATIONSHIPS}-criteria audience (PGlite, ${ROUNDS} rounds)`, [
    ['PUT relationships, end to end (p50 / p95)', `${ms(write.p50)} / ${ms(write.p95)}`],
    ['same SQL without history (p50)', ms(without.p50)],
    ['same SQL with history (p50)', ms(withHistory.p50)],
    ['history overhead per write (p50)', ms(withHistory.p50 - without.p50)],
    [`GET history, 50 of ${ROUNDS + 1} changes (p50 / p95)`, `${ms(read.p50)} / ${ms(read.p95)}`],
  ]);
  return { write, without, withHistory, read };
}

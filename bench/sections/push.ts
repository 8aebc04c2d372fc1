import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { targetingCriteria, type PushWhere } from '@shared/rules/push';
import { buildApp } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { generatePopulation, random } from '../../src-server/features/audiences/generator';
import { rows } from '../../src-server/db/rows';
import { pushJobOf } from '../../src-server/features/push';
import { clauseCriteriaOf } from '../../src-server/features/push/clause';
import { ManualClock } from '../../tests/helpers/clock';
import { randomTargeting } from '../../tests/helpers/push-targetings';
import { keptBenchDatabase } from '../databases';
import { ms, summarize, table } from '../stats';

/**
 * Figures at 1,000,000 app users (BENCH_PUSH_USERS), most with a push token, generated once by the
 * population generator and kept: in bench_push_<users> on the local PostgreSQL, and in .data/bench/pglite-push-<users>
 * for PGlite on a data folder as the desktop app runs it (BENCH_PUSH_DATABASES=postgresql,pglite picks).
 *
 * Count (target p95 ≤ 20 ms, answered from the engine's index): the handler's own work — clause parsed, targeting
 * turned into criteria, counted on the bitmaps — for 300 random targetings; then the same targetings over loopback
 * HTTP, and the same calls refused before the engine ('Invalid area'), which is the HTTP, token, role (one database
 * read per call) and validation overhead alone. Send (target ≤ 50 ms): the job's own work per batch of 1,000 (claim,
 * recipients' tokens, outbox provider, the 1,000 messages in one insert, batch and campaign rows, commit), the 1.8 s
 * pace taken out by a controlled clock.
 */
const USERS = Number(process.env.BENCH_PUSH_USERS ?? 1_000_000);
const COUNTS = 300;
const WARM_UP = 20;
const BATCHES = 40;

type Where = PushWhere & { clause: string };

/** The random targetings of the count: a few professions, specialties, titles, os, experts, sometimes a clause. */
function targetings(count: number): Where[] {
  const next = random(23);
  return Array.from({ length: count }, () => ({
    ...randomTargeting(next, 4),
    clause: next() < 0.3 ? "not (feed in ('Oncologie', 'Urgences')) and app != 'Vidal'" : '',
  }));
}

async function ensurePopulation(handle: DatabaseHandle, where: string) {
  const [{ count }] = await rows<{ count: number }>(handle.db, sql`SELECT count(*)::int AS count FROM app_users`);
  if (count > 0) return;
  console.log(`generating ${USERS.toLocaleString('fr-FR')} users (once; kept in ${where})`);
  const started = performance.now();
  await generatePopulation(handle.db, { users: USERS, events: 0, seed: 42, documents: 0, adverts: 0, keywords: 0 });
  await handle.db.execute(sql`ANALYZE`);
  console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function measure(handle: DatabaseHandle, label: string) {
  const { db } = handle;
  const [{ lead }] = await rows<{ lead: number }>(
    db,
    sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES ('Bench push', ${`bench-push-${Date.now()}@x.test`}, 'x', '{CONTENT_CREATOR_LEAD}') RETURNING id AS lead`,
  );
  const clock = new ManualClock(Date.now());
  const built = performance.now();
  const app = await buildApp({
    db,
    dbKind: handle.kind,
    clock,
    logger: pino({ level: 'silent' }),
    config: { pushIntervalMs: 0, autopublishIntervalMs: 0 },
  });
  const buildMs = performance.now() - built;
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = (await app.context.tokens.signAccess(lead, 'bench-push', new Date(Date.now() + 3_600_000))).value;
  const post = async (path: string, body: unknown, status = 200) => {
    const response = await fetch(`${address}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (response.status !== status && !(status === 200 && response.status === 201)) {
      throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    }
    return answer;
  };
  const timed = async (list: Where[], run: (where: Where) => unknown) => {
    const samples: number[] = [];
    for (const [index, where] of list.entries()) {
      const started = performance.now();
      await run(where);
      if (index >= WARM_UP) samples.push(performance.now() - started);
    }
    return summarize(samples);
  };
  const loadAtStart = loadavg()[0];
  try {
    // ---- count: the engine's answer, then the same over HTTP, then HTTP refused before the engine ----------------
    const list = targetings(COUNTS + WARM_UP);
    const population = app.services.population;
    const engine = await timed(list, (where) => population.count(targetingCriteria(where, clauseCriteriaOf(where.clause))));
    const http = await timed(list, (where) => post('/push/count', { where }));
    const overhead = await timed(list, (where) => post('/push/count', { where: { ...where, area: '' } }, 400));

    // ---- send: the job's own work per batch ---------------------------------------------------------------------
    const where = { area: 'french', professions: [], specialties: [''], titles: [''], os: [''], expert: 'all', clause: '' };
    const { counter } = await post('/push/count', { where });
    const createdAt = performance.now();
    const campaign = await post('/push/campaigns', {
      notification: { title: 'Bench', body: 'Bench push', navigation: '', customId: 'custom01' },
      where,
    });
    const createMs = performance.now() - createdAt;
    const job = pushJobOf(app.context)!;
    const perBatch: number[] = [];
    const cpuPerBatch: number[] = [];
    for (let batch = 0; batch < BATCHES; batch += 1) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const outcomes = await job.runOnce();
      perBatch.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpuPerBatch.push((used.user + used.system) / 1000);
      if (outcomes.length !== 1 || outcomes[0].users !== 1000) throw new Error(`batch ${batch}: ${JSON.stringify(outcomes)}`);
      clock.advance(1800);
    }
    // The first batch decodes the campaign's recipients (once per campaign); the next one warms the plans.
    const batchFigures = summarize(perBatch.slice(2));
    const batchCpu = summarize(cpuPerBatch.slice(2));
    // Messages have no foreign key to their campaign (schema/push.ts): deleted first.
    await db.execute(sql`DELETE FROM push_messages WHERE campaign_id = ${campaign.id}`);
    await db.execute(sql`DELETE FROM push_campaigns WHERE id = ${campaign.id}`);
    // PGlite has no autovacuum: the next run would insert into a bloated table.
    await db.execute(sql`VACUUM push_messages, push_campaigns`);

    const range = (figures: ReturnType<typeof summarize>) => `${ms(figures.p50)} / ${ms(figures.p95)} / ${ms(figures.max)}`;
    table(`Push at ${USERS.toLocaleString('fr-FR')} users, ${label} (load ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end)`, [
      ['server start (engine built, tokens included)', ms(buildMs)],
      [`count, the engine's answer, ${COUNTS} targetings p50 / p95 / max`, `${range(engine)}  (target p95 ≤ 20 ms)`],
      [`count over HTTP, the same targetings p50 / p95 / max`, range(http)],
      [`  of which HTTP, token, role read, validation (refused before the engine)`, range(overhead)],
      [`campaign created (${counter.toLocaleString('fr-FR')} recipients frozen)`, ms(createMs)],
      [`job work per batch of 1,000, p50 / p95 / max`, `${range(batchFigures)}  (target ≤ 50 ms)`],
      [
        `  CPU time of this process per batch (${handle.kind === 'pglite' ? 'the database included' : 'the database apart'}), p50 / p95`,
        `${ms(batchCpu.p50)} / ${ms(batchCpu.p95)}`,
      ],
    ]);
    return {
      users: USERS,
      load: loadAtStart,
      buildMs,
      countInEngine: engine,
      countOverHttp: http,
      httpOverhead: overhead,
      createMs,
      recipients: counter,
      batch: batchFigures,
      batchCpu,
    };
  } finally {
    await app.close();
    await db.execute(sql`DELETE FROM accounts WHERE id = ${lead}`);
  }
}

export async function pushSection() {
  const results: Record<string, unknown> = {};
  for (const kind of process.env.BENCH_PUSH_DATABASES?.split(',') ?? ['postgresql', 'pglite']) {
    if (kind === 'pglite') {
      const dataDir = resolve(`.data/bench/pglite-push-${USERS}`);
      mkdirSync(dataDir, { recursive: true });
      const handle = await openDatabase({ dataDir });
      try {
        await ensurePopulation(handle, dataDir);
        results.pglite = await measure(handle, 'PGlite (data folder)');
      } finally {
        await handle.close();
      }
    } else {
      const url = await keptBenchDatabase(`bench_push_${USERS}`);
      const handle = await openDatabase({ url });
      try {
        await ensurePopulation(handle, new URL(url).pathname.slice(1));
        results.postgresql = await measure(handle, 'PostgreSQL');
      } finally {
        await handle.close();
      }
    }
  }
  return results;
}

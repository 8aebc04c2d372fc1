import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { Pool } from 'undici';
import { addMonths, monthKey, monthOf, type Month } from '@shared/rules/inventory';
import { TARGET_STATUSES } from '@shared/rules/projects';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase, type Database } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { rows } from '../../src-server/db/rows';
import { keptBenchDatabase } from '../databases';
import { ms, summarize, table } from '../stats';

/**
 * 200 categories × 36 months of capacity and 1,000,000 targets (BENCH_INVENTORY_TARGETS) booking views in
 * those categories over 3 years. POST /inventory (6 months, every category), POST /inventory/availability (one
 * category, 6 months) and the import of a 200-row × 36-month CSV, on PostgreSQL (a kept database, generated once)
 * and on PGlite (BENCH_INVENTORY_PGLITE_TARGETS, a million as well by default: about a minute to generate).
 * Each call is timed twice: server-side (fastify's reply.elapsedTime, from the request's arrival to the answer
 * sent: routing, the guard, the handler, serialisation), which the issue's targets speak of, and as the client's
 * HTTP round trip on loopback (an upper bound: the client runs in the same process). Each import changes every
 * cell of the file, so that none could be skipped as unchanged.
 */
const CATEGORIES = 200;
const MONTHS = 36;
const PASSWORD = 'bench password 2026';
const TARGETS = Number(process.env.BENCH_INVENTORY_TARGETS ?? 1_000_000);
const PGLITE_TARGETS = Number(process.env.BENCH_INVENTORY_PGLITE_TARGETS ?? 1_000_000);
/** Timed calls per case (BENCH_INVENTORY_CALLS): 100 by default, enough for a p95 that is not the worst call. */
const CALLS = Number(process.env.BENCH_INVENTORY_CALLS ?? 100);
const START = addMonths(monthOf(Date.now()), -12);

const categoryName = (i: number) => `Catégorie ${i}`;

/** The capacity CSV: 200 categories (ids 1001…1200 as specialties), 36 months from START; `version` changes every cell. */
function capacityCsv(version: number): string {
  const months = Array.from({ length: MONTHS }, (_, i) => monthKey(addMonths(START, i)));
  const lines = [`Profession;Specialty;Nom;${months.join(';')}`];
  for (let i = 1; i <= CATEGORIES; i += 1)
    lines.push(
      `;${1000 + i};${categoryName(i)};${months.map((_, m) => `${200 + ((i * 7 + m) % 50)} ${String(version).padStart(3, '0')}`).join(';')}`,
    );
  return lines.join('\r\n');
}

/** Projects and targets in `db` (once): 1 project a 50 targets, half booking views, dates over 3 years. */
async function generateTargets(db: Database, count: number): Promise<void> {
  const [{ n }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM targets`);
  if (n >= count) return;
  console.log(`generating ${count.toLocaleString('fr-FR')} targets (once)`);
  const started = performance.now();
  await db.execute(sql`TRUNCATE projects RESTART IDENTITY CASCADE`);
  await db.execute(sql`INSERT INTO projects (name, client_name, actor, status)
    SELECT 'Projet ' || n, 'Client ' || (n % 400), 'Laboratoire', 'active' FROM generate_series(1, ${Math.ceil(count / 50)}) n`);
  const start = Date.UTC(START.year, START.month - 1, 1) / 1000;
  await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, population_category, goal_views, goal_days, start_date, end_date)
    SELECT 1 + (n - 1) / 50, (n - 1) % 50, 'A' || n, (${sql.param(TARGET_STATUSES as unknown as string[])}::text[])[1 + (n * 7) % 9], ((n * 7) % 9)::smallint, 'post',
      'Catégorie ' || (1 + n % ${CATEGORIES}), CASE WHEN n % 2 = 0 THEN 1000 + n % 9000 ELSE 0 END, CASE WHEN n % 2 = 1 THEN 30 ELSE 0 END,
      CASE WHEN n % 20 = 0 THEN NULL ELSE ${start} + (n % 1060) * 86400 END, CASE WHEN n % 20 = 0 THEN NULL ELSE ${start} + (n % 1060) * 86400 + (7 + n % 83) * 86400 END
    FROM generate_series(1, ${count}) n`);
  await db.execute(sql`ANALYZE`);
  console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function measure(db: Database, dbKind: 'postgresql' | 'pglite', label: string) {
  await db.execute(sql`DELETE FROM accounts WHERE email = 'inventory@bench.local'`);
  await db
    .insert(accounts)
    .values({ name: 'Bench admin', email: 'inventory@bench.local', roles: ['ADMIN'], passwordHash: await hashPassword(PASSWORD) });
  const app = await buildApp({ db, dbKind, logger: pino({ level: 'silent' }) });
  // Server-side times of the calls since the last reset, by route.
  const serverSide = new Map<string, number[]>();
  app.addHook('onResponse', async (request, reply) => {
    serverSide.get(request.routeOptions.url ?? '')?.push(reply.elapsedTime);
  });
  const recordServerSide = (route: string) => {
    const samples: number[] = [];
    serverSide.set(route, samples);
    return () => {
      serverSide.delete(route);
      return summarize(samples);
    };
  };
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const pool = new Pool(base, { connections: 4 });
  try {
    const signIn = await pool.request({
      method: 'POST',
      path: '/authenticate',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'inventory@bench.local', password: PASSWORD }),
    });
    const token = ((await signIn.body.json()) as { accessToken: { value: string } }).accessToken.value;
    const importOnce = async (version: number) => {
      const form = new FormData();
      form.append('file', new Blob([capacityCsv(version)]), 'inventaire.csv');
      const started = performance.now();
      const response = await fetch(`${base}/inventory/upload`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`upload ${response.status} ${text}`);
      return performance.now() - started;
    };
    const imports = [];
    await importOnce(0);
    const importServerSide = recordServerSide('/inventory/upload');
    for (let i = 1; i < 6; i += 1) imports.push(await importOnce(i));
    const importServer = importServerSide();
    const post = async (path: string, body: unknown) => {
      const response = await pool.request({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${path} ${response.statusCode} ${text}`);
      return text;
    };
    /** Round trip and server-side summaries of `times` calls to `route`, after two unmeasured ones. */
    const timeMany = async (times: number, route: string, work: () => Promise<unknown>) => {
      for (let i = 0; i < 2; i += 1) await work();
      const serverSamples = recordServerSide(route);
      const samples: number[] = [];
      for (let i = 0; i < times; i += 1) {
        const started = performance.now();
        await work();
        samples.push(performance.now() - started);
      }
      return { roundTrip: summarize(samples), server: serverSamples() };
    };
    const from: Month = addMonths(START, 12);
    const range = { from: monthKey(from), to: monthKey(addMonths(from, 5)) };
    const list = await timeMany(CALLS, '/inventory', () => post('/inventory', { ...range, viewType: 'month' }));
    const firstPage = JSON.parse(await post('/inventory', { ...range, viewType: 'month' })) as { items: unknown[]; total: number };
    const rowsAnswered = `${firstPage.items.length} of ${firstPage.total}`;
    const quarter = await timeMany(CALLS, '/inventory', () =>
      post('/inventory', { from: monthKey({ year: from.year, month: 1 }), to: monthKey({ year: from.year, month: 12 }), viewType: 'quarter' }),
    );
    let category = 0;
    const availability = await timeMany(CALLS, '/inventory/availability', () =>
      post('/inventory/availability', { ...range, specialty: [1001 + (category++ % CATEGORIES)], soldViews: 120_000 }),
    );
    const importStats = summarize(imports);
    const figures = (timed: { roundTrip: ReturnType<typeof summarize>; server: ReturnType<typeof summarize> }) =>
      `server-side p50 ${ms(timed.server.p50)}  p95 ${ms(timed.server.p95)}; round trip p50 ${ms(timed.roundTrip.p50)}  p95 ${ms(timed.roundTrip.p95)}`;
    table(`${label}`, [
      [`POST /inventory, 6 months, first page (${rowsAnswered} categories)`, `${figures(list)}  (target server-side p95 ≤ 30 ms)`],
      ['POST /inventory, quarter view of a year', figures(quarter)],
      ['POST /inventory/availability, 1 category, 6 months', `${figures(availability)}  (target server-side p95 ≤ 20 ms)`],
      [
        'import 200 rows × 36 months, every cell changed, end to end',
        `p50 ${ms(importStats.p50)}  max ${ms(importStats.max)}  (target ≤ 500 ms); server-side max ${ms(importServer.max)}`,
      ],
    ]);
    return { list, quarter, availability, import: importStats, rows: rowsAnswered };
  } finally {
    await pool.close();
    await app.close();
  }
}

export async function inventorySection() {
  const results: Record<string, unknown> = {};
  const postgres = await openDatabase({ url: await keptBenchDatabase(`bench_inventory_${TARGETS}`) });
  try {
    await generateTargets(postgres.db, TARGETS);
    results.postgresql = await measure(postgres.db, 'postgresql', `PostgreSQL, ${TARGETS.toLocaleString('fr-FR')} targets`);
  } finally {
    await postgres.close();
  }
  // Kept as the PostgreSQL one is: generating a million targets on PGlite costs about a minute per run otherwise.
  const dataDir = resolve(`.data/bench/pglite-inventory-${PGLITE_TARGETS}`);
  mkdirSync(dataDir, { recursive: true });
  const pglite = await openDatabase({ dataDir });
  try {
    await generateTargets(pglite.db, PGLITE_TARGETS);
    results.pglite = await measure(pglite.db, 'pglite', `PGlite, ${PGLITE_TARGETS.toLocaleString('fr-FR')} targets`);
  } finally {
    await pglite.close();
  }
  return results;
}

import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { Pool } from 'undici';
import type { GridColumnKey, GridTarget } from '@shared/rules/project-grid';
import { mapPasteBlock, parseTsv, pasteChanges } from '@shared/rules/project-grid-paste';
import { TARGET_STATUSES, TARGET_TYPES } from '@shared/rules/projects';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase, type Database } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { rows } from '../../src-server/db/rows';
import { ms, summarize, table } from '../stats';
import { keptBenchDatabase } from '../databases';

/**
 * Figures on the local PostgreSQL: 20,000 projects and 1,000,000 targets by default
 * (BENCH_PROJECTS, BENCH_TARGETS), generated once into bench_projects_<projects>_<targets> and kept.
 * Times are HTTP round trips on loopback (an upper bound of the server-side time).
 */
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 20_000);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 1_000_000);
const PASSWORD = 'bench password 2026';

export const benchDatabase = () => keptBenchDatabase(`bench_projects_${PROJECTS}_${TARGETS}`);

/**
 * CPU time used so far by each PostgreSQL backend serving this database, from /proc (ms by pid; undefined when
 * the server is not on this machine).
 */
async function databaseCpuMs(db: Parameters<typeof rows>[0]): Promise<Map<number, number> | undefined> {
  const backends = await rows<{ pid: number }>(db, sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const used = new Map<number, number>();
  for (const { pid } of backends) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      used.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      return undefined;
    }
  }
  return used;
}

/** CPU the backends used between two readings (a backend gone in between is left out: a lower bound). */
const databaseCpuBetween = (before: Map<number, number> | undefined, after: Map<number, number> | undefined) =>
  before && after ? [...after].reduce((sum, [pid, used]) => sum + used - (before.get(pid) ?? 0), 0) : undefined;

/**
 * The bench's projects and targets (PROJECTS, TARGETS) in `db`, generated once (the same rows on PostgreSQL and
 * PGlite); answers the generation time, 0 when they were there.
 */
export async function generateProjectsAndTargets(db: Database): Promise<number> {
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM targets`);
  let generationMs = 0;
  if (count < TARGETS) {
    console.log(`generating ${PROJECTS.toLocaleString('fr-FR')} projects and ${TARGETS.toLocaleString('fr-FR')} targets (once)`);
    const started = performance.now();
    await db.execute(sql`TRUNCATE projects, accounts RESTART IDENTITY CASCADE`);
    const passwordHash = await hashPassword(PASSWORD);
    await db
      .insert(accounts)
      .values(Array.from({ length: 20 }, (_, i) => ({ name: `CSM ${i + 1}`, email: `csm${i + 1}@bench.local`, roles: ['CSM'], passwordHash })));
    await db.execute(sql`INSERT INTO projects (name, client_name, key_account_id, actor, action_code, status)
      SELECT 'Projet ' || n || ' ' || (ARRAY['Cardio','Diabète','Oncologie','Vaccins','Dermato','Neuro','Pneumo','Rhumato'])[1 + n % 8],
             'Client ' || (n % 400), 1 + n % 20, 'Laboratoire', 'CLI' || n || '-1.',
             CASE WHEN n % 10 < 8 THEN 'active' WHEN n % 10 = 8 THEN 'draft' ELSE 'archived' END
      FROM generate_series(1, ${PROJECTS}) n`);
    const statuses = sql.param(TARGET_STATUSES as unknown as string[]);
    const types = sql.param(TARGET_TYPES as unknown as string[]);
    const perProject = Math.ceil(TARGETS / PROJECTS);
    await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, advert_id, population_category, population_sample,
        population_size, goal_views, goal_days, start_date, end_date, check_date, initial_quotation_date, revenue, release_date_diff, actor, key_account_id)
      SELECT 1 + (n - 1) / ${perProject}, (n - 1) % ${perProject}, 'CLI' || (1 + (n - 1) / ${perProject}) || '-1.' || (1 + (n - 1) % ${perProject}),
             (${statuses}::text[])[1 + (n * 7) % 9], ((n * 7) % 9)::smallint, (${types}::text[])[1 + (n * 13) % 17],
             CASE WHEN n % 3 = 0 THEN NULL ELSE n END, (ARRAY['Cardiologie','Médecine générale','Pharmacien','Infirmier','Toute la base'])[1 + n % 5],
             'Ciblage ' || (n % 97), 1000 + n % 50000, CASE WHEN n % 2 = 0 THEN 10000 + n % 90000 ELSE 0 END, CASE WHEN n % 2 = 1 THEN 30 + n % 60 ELSE 0 END,
             1735689600 + (n % 700) * 86400, 1735689600 + (n % 700) * 86400 + 7776000, 1735689600 + (n % 700) * 86400 + 8000000,
             1735689600 + (n % 700) * 86400 - (n % 40) * 86400, 1000 + (n % 20000), n % 40, 'Laboratoire', 1 + ((n - 1) / ${perProject}) % 20
      FROM generate_series(1, ${TARGETS}) n`);
    await db.execute(sql`ANALYZE`);
    generationMs = performance.now() - started;
    console.log(`  generated in ${(generationMs / 1000).toFixed(0)} s`);
  }
  // The generator derives status_rank from the same list: check it.
  const [{ mismatched }] = await rows<{ mismatched: number }>(
    db,
    sql`SELECT count(*)::int AS mismatched FROM (SELECT status, status_rank FROM targets LIMIT 1000) s WHERE status_rank <> array_position(${sql.param(TARGET_STATUSES as unknown as string[])}::text[], status) - 1`,
  );
  if (mismatched) throw new Error('status_rank out of step');

  return generationMs;
}

export async function projectsSection() {
  const database = await openDatabase({ url: await benchDatabase() });
  const { db } = database;
  const generationMs = await generateProjectsAndTargets(db);
  // The export of every target has its section: bench/sections/targets-export.ts.
  // BENCH_PROJECTS_LISTS_ONLY=1: the list latencies alone (no paste).
  const listsOnly = process.env.BENCH_PROJECTS_LISTS_ONLY === '1';

  const app = await buildApp({ db, dbKind: 'postgresql', logger: pino({ level: 'silent' }) });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const pool = new Pool(base, { connections: 8 });
  const signIn = await pool.request({
    method: 'POST',
    path: '/authenticate',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'csm3@bench.local', password: PASSWORD }),
  });
  const session = (await signIn.body.json()) as { accessToken: { value: string }; userId: number };
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken.value}` };
  const post = async (path: string, body: unknown) => {
    const response = await pool.request({ method: 'POST', path, headers, body: JSON.stringify(body) });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${path} ${response.statusCode} ${text}`);
    return text;
  };
  const timeMany = async (times: number, work: () => Promise<unknown>) => {
    for (let i = 0; i < Math.min(5, times); i += 1) await work();
    const samples: number[] = [];
    for (let i = 0; i < times; i += 1) {
      const start = performance.now();
      await work();
      samples.push(performance.now() - start);
    }
    return summarize(samples);
  };

  // [label, path, body, calls]: calls default to 100.
  const cases: [string, string, unknown, number?][] = [
    ['/projects first page (8), default status, no filter', '/projects', {}],
    ['/projects first page, 2 filters (CSM + type post)', '/projects', { keyAccount: [session.userId], type: ['post'] }],
    [
      '/projects first page, 2 filters (targetStatus + start date range)',
      '/projects',
      { targetStatus: ['2. en ligne'], startDate: { from: 1740000000, to: 1750000000 } },
    ],
    ['/projects page 25 sorted by name, term "cardio"', '/projects', { term: 'cardio', orderBy: 'name', order: 'ASC', limit: 25 }],
    ['/targets first page (25), default statuses, status DESC', '/targets', {}],
    ['/targets first page, 2 filters (type post + CSM)', '/targets', { filters: { type: ['post'], keyAccount: [session.userId] } }],
    [
      '/targets first page, 2 filters (Spé + start date range)',
      '/targets',
      { filters: { populationCategory: ['Cardiologie'], startDate: { from: 1740000000, to: 1750000000 } } },
    ],
    ['/targets first page, term (action code; trigram index)', '/targets', { term: 'cli1234-' }],
  ];
  const latencies: Record<string, ReturnType<typeof summarize>> = {};
  // CPU time per call as well: on a shared machine the round trips measure mostly the queue for the cores.
  const cpuPerCall: Record<string, { process: number; database: number }> = {};
  for (const [label, path, body, calls] of cases) {
    const databaseBefore = await databaseCpuMs(db);
    const processBefore = process.cpuUsage();
    latencies[label] = await timeMany(calls ?? 100, () => post(path, body));
    const processUsed = process.cpuUsage(processBefore);
    const databaseAfter = await databaseCpuMs(db);
    const count = Math.min(5, calls ?? 100) + (calls ?? 100);
    cpuPerCall[label] = {
      process: (processUsed.user + processUsed.system) / 1000 / count,
      database: (databaseCpuBetween(databaseBefore, databaseAfter) ?? NaN) / count,
    };
  }
  table(
    `List latency (HTTP round trip, 100 calls after warm-up; target p95 ≤ 20 ms for the 2-filter cases); CPU a call: this process (server and client), PostgreSQL`,
    Object.entries(latencies).map(([label, s]) => {
      const cpu = cpuPerCall[label];
      return [
        label,
        `p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  max ${ms(s.max)}  cpu ${ms(cpu.process)} + ${Number.isNaN(cpu.database) ? '?' : ms(cpu.database)}`,
      ];
    }),
  );
  if (listsOnly) {
    await pool.close();
    await app.close();
    await database.close();
    return { generationMs, latencies };
  }

  // ---- paste 500 cells: a 100-row × 5-column block from a spreadsheet, applied as the grid does (TSV mapped onto
  // the rows, parsed, merged per row) and saved in one PUT /targets/properties. One call per cell took 2.9 s.
  const pasteRows = await rows<GridTarget>(
    db,
    sql`SELECT t.id, p.name AS "projectName", t.action_code AS "actionCode", t.status, t.type, t.advert_id AS "advertId", t.tool_id AS "toolId",
          t.population_category AS "populationCategory", t.population_sample AS "populationSample", t.population_size AS "populationSize",
          json_build_object('views', t.goal_views, 'days', t.goal_days, 'shipments', t.goal_shipments) AS goal, NULL::int AS "startDate", NULL::int AS "endDate",
          NULL::int AS "checkDate", NULL::int AS "quotationSignedMonth", NULL::int AS "initialQuotationDate", t.revenue::float8 AS revenue,
          NULL::int AS "releaseDateDiff", t.delay_reason AS "delayReason", NULL::float8 AS "revenueDelayImpact", t.actor, t.comment
        FROM targets t JOIN projects p ON p.id = t.project_id WHERE t.project_id IN (SELECT id FROM projects ORDER BY id LIMIT 10) ORDER BY t.project_id, t.position LIMIT 100`,
  );
  const tsv = pasteRows
    .map((_, i) => ['Médecine générale', `Collé ${i} ${Date.now()}`, String(2000 + i), '3 mois', `Ligne collée ${i}`].join('\t'))
    .join('\r\n');
  const pasteStarted = performance.now();
  const columns: GridColumnKey[] = ['populationCategory', 'populationSample', 'populationSize', 'goal', 'comment'];
  const { items } = pasteChanges(pasteRows, mapPasteBlock(parseTsv(tsv), { rowIndex: 0, column: 'populationCategory' }, pasteRows.length, columns));
  const appliedMs = performance.now() - pasteStarted;
  const pasteAnswer = await pool.request({ method: 'PUT', path: '/targets/properties', headers, body: JSON.stringify({ items }) });
  const pasteText = await pasteAnswer.body.text();
  if (pasteAnswer.statusCode !== 200) throw new Error(`/targets/properties ${pasteAnswer.statusCode} ${pasteText}`);
  const pasteMs = performance.now() - pasteStarted;
  table('paste 500 cells (100 rows × 5 columns: mapped and parsed, then one PUT /targets/properties)', [
    ['cells changed (of 500 pasted; some already held the value)', String(items.reduce((sum, item) => sum + Object.keys(item.changes).length, 0))],
    ['applied (mapping + parsing)', ms(appliedMs)],
    ['applied and saved', `${ms(pasteMs)} (target ≤ 1 s; was 2.9 s with one call per cell)`],
  ]);

  await pool.close();
  await app.close();
  await database.close();
  return { generationMs, latencies, pasteMs };
}

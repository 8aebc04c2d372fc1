import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { Pool } from 'undici';
import { mapPasteBlock, parseTsv, pasteChanges, type GridColumnKey, type GridTarget } from '@shared/rules/project-grid';
import { TARGET_STATUSES, TARGET_TYPES } from '@shared/rules/projects';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase, type Database } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { rows } from '../../src-server/features/projects/queries';
import { ApiClient } from '../../src-main/services/api-client';
import { downloadCsvFile } from '../../src-main/services/csv-export';
import { createSessionVault } from '../../src-main/services/session-vault';
import { ms, summarize, table } from '../stats';
import { keptBenchDatabase } from '../databases';

/**
 * Issue 12 figures on the local PostgreSQL: 20,000 projects and 1,000,000 targets by default
 * (BENCH_PROJECTS, BENCH_TARGETS), generated once into bench_projects_<projects>_<targets> and kept.
 * Times are HTTP round trips on loopback (an upper bound of the server-side time).
 */
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 20_000);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 1_000_000);
const PASSWORD = 'bench password 2026';

const benchDatabase = () => keptBenchDatabase(`bench_projects_${PROJECTS}_${TARGETS}`);

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

export async function projectsSection() {
  const database = await openDatabase({ url: await benchDatabase() });
  const { db } = database;
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM targets`);
  let generationMs = 0;
  if (count < TARGETS) {
    console.log(`generating ${PROJECTS.toLocaleString('fr-FR')} projects and ${TARGETS.toLocaleString('fr-FR')} targets (once)`);
    const started = performance.now();
    await db.execute(sql`TRUNCATE projects, accounts RESTART IDENTITY CASCADE`);
    const passwordHash = await hashPassword(PASSWORD);
    await db.insert(accounts).values(
      Array.from({ length: 20 }, (_, i) => ({ name: `CSM ${i + 1}`, email: `csm${i + 1}@bench.local`, roles: ['CSM'], passwordHash })),
    );
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
  const [{ mismatched }] = await rows<{ mismatched: number }>(db, sql`SELECT count(*)::int AS mismatched FROM (SELECT status, status_rank FROM targets LIMIT 1000) s WHERE status_rank <> array_position(${sql.param(TARGET_STATUSES as unknown as string[])}::text[], status) - 1`);
  if (mismatched) throw new Error('status_rank out of step');

  // ---- export of every target to a file, as the desktop app runs it: the API server in a process of its own (the
  // embedded server is an Electron utilityProcess; the team server is another machine) and the writer here, through
  // main's own export service (ApiClient.open + downloadCsvFile: undici, pipeline to a temporary file, progress).
  // First, before this process builds an app of its own for the lists: the writer's RSS is that of a main process.
  // BENCH_PROJECTS_LISTS_ONLY=1: the list latencies alone (no export, no paste).
  const listsOnly = process.env.BENCH_PROJECTS_LISTS_ONLY === '1';
  const exported = listsOnly ? undefined : await exportThroughMain(await benchDatabase(), db);
  if (exported) table(`Export of every target (${TARGETS.toLocaleString('fr-FR')}) to a CSV file: API server in a child process, main's export service here`, [
    ['rows written', `${exported.rows.toLocaleString('fr-FR')}`],
    ['file size', `${(exported.bytes / 1024 / 1024).toFixed(0)} MB`],
    ['time', `${(exported.ms / 1000).toFixed(2)} s (target ≤ 10 s)`],
    ['peak RSS, API server process', `${exported.server.peakMb.toFixed(0)} MB during the export (target ≤ 300 MB; ${exported.server.beforeMb.toFixed(0)} MB before, VmHWM ${exported.server.hwmMb.toFixed(0)} MB)`],
    ['peak RSS, writer process (main)', `${exported.writer.peakMb.toFixed(0)} MB during the export (target ≤ 300 MB; ${exported.writer.beforeMb.toFixed(0)} MB before)`],
    ['CPU time (the machine is shared: time follows the load)', `API server ${exported.cpu.server.toFixed(1)} s, PostgreSQL ${exported.cpu.database.toFixed(1)} s, writer ${exported.cpu.writer.toFixed(1)} s`],
    ['load average (1 min) at the end', os.loadavg()[0].toFixed(2)],
  ]);

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
    ['/projects first page, 2 filters (targetStatus + start date range)', '/projects', { targetStatus: ['2. en ligne'], startDate: { from: 1740000000, to: 1750000000 } }],
    ['/projects page 25 sorted by name, term "cardio"', '/projects', { term: 'cardio', orderBy: 'name', order: 'ASC', limit: 25 }],
    ['/targets first page (25), default statuses, status DESC', '/targets', {}],
    ['/targets first page, 2 filters (type post + CSM)', '/targets', { filters: { type: ['post'], keyAccount: [session.userId] } }],
    ['/targets first page, 2 filters (Spé + start date range)', '/targets', { filters: { populationCategory: ['Cardiologie'], startDate: { from: 1740000000, to: 1750000000 } } }],
    ['/targets first page, term (action code; trigram index)', '/targets', { term: 'cli1234-' }],
  ];
  const latencies: Record<string, ReturnType<typeof summarize>> = {};
  // BENCH_PROJECTS_EXPORT_ONLY=1: no list latencies (the export ran above, before this process built its own app).
  const exportOnly = process.env.BENCH_PROJECTS_EXPORT_ONLY === '1';
  // CPU time per call as well: on a shared machine the round trips measure mostly the queue for the cores.
  const cpuPerCall: Record<string, { process: number; database: number }> = {};
  for (const [label, path, body, calls] of exportOnly ? [] : cases) {
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
      return [label, `p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  max ${ms(s.max)}  cpu ${ms(cpu.process)} + ${Number.isNaN(cpu.database) ? '?' : ms(cpu.database)}`];
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
  const tsv = pasteRows.map((_, i) => ['Médecine générale', `Collé ${i} ${Date.now()}`, String(2000 + i), '3 mois', `Ligne collée ${i}`].join('\t')).join('\r\n');
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
  return { generationMs, latencies, export: exported, pasteMs };
}

/** A process's resident set, current and peak (VmRSS, VmHWM of /proc/<pid>/status), in MB. */
function residentMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** The export server's connections name themselves: other sessions on the bench database (another bench) are not counted. */
const EXPORT_APPLICATION = 'bench-projects-export';
function withApplicationName(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', EXPORT_APPLICATION);
  return url.toString();
}

/** CPU seconds (user + system) a process used so far, from /proc/<pid>/stat (clock ticks of 10 ms); 0 once gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Every target exported to a file, timed from the call to the file renamed under its name: the API server runs
 * bench/export-server.ts in a child process (its RSS sampled from /proc every 50 ms), the writer is main's
 * export service in this process (BENCH_PROJECTS_EXPORT_ONLY=1 keeps it a process that served nothing else).
 */
async function exportThroughMain(databaseUrl: string, db: Database) {
  const child = spawn(process.execPath, [...(process.env.BENCH_EXPORT_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', fileURLToPath(new URL('../export-server.ts', import.meta.url))], {
    env: { ...process.env, BENCH_EXPORT_DATABASE: withApplicationName(databaseUrl) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const serverUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve(message.url));
    child.once('exit', (code) => reject(new Error(`export server ended (${code}) before listening`)));
  });
  const vault = await createSessionVault({ service: 'bench', account: serverUrl });
  const api = new ApiClient({ baseUrl: () => serverUrl, vault });
  const signedIn = await api.signIn('csm3@bench.local', PASSWORD);
  if (!signedIn.ok) throw new Error(signedIn.errorMsg);
  global.gc?.();
  const folder = mkdtempSync(join(tmpdir(), 'bench-projects-'));
  const file = join(folder, 'actions.csv');
  const server = { beforeMb: residentMb(child.pid!).rss, peakMb: 0, hwmMb: 0 };
  const backends = async () =>
    (await rows<{ pid: number }>(db, sql`SELECT pid FROM pg_stat_activity WHERE application_name = ${EXPORT_APPLICATION}`)).map((row) => row.pid);
  const backendsBefore = new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)]));
  const serverCpuBefore = cpuSeconds(child.pid!);
  const writerCpuBefore = process.cpuUsage();
  const writer = { beforeMb: process.memoryUsage().rss / 1024 / 1024, peakMb: 0 };
  const sample = () => {
    server.peakMb = Math.max(server.peakMb, residentMb(child.pid!).rss);
    writer.peakMb = Math.max(writer.peakMb, process.memoryUsage().rss / 1024 / 1024);
  };
  sample();
  const sampler = setInterval(sample, 50);
  const started = performance.now();
  try {
    const { rows: written } = await downloadCsvFile((id, input, signal) => api.open(id, input as never, signal), { operation: 'targets.export', input: { body: { filters: { status: [] } } } }, file);
    const ms = performance.now() - started;
    clearInterval(sampler);
    sample();
    server.hwmMb = residentMb(child.pid!).hwm;
    const writerCpu = process.cpuUsage(writerCpuBefore);
    const cpu = {
      server: cpuSeconds(child.pid!) - serverCpuBefore,
      database: (await backends()).reduce((sum, pid) => sum + cpuSeconds(pid) - (backendsBefore.get(pid) ?? 0), 0),
      writer: (writerCpu.user + writerCpu.system) / 1e6,
    };
    return { rows: written, ms, bytes: statSync(file).size, server, writer, cpu };
  } finally {
    clearInterval(sampler);
    rmSync(folder, { recursive: true, force: true });
    await api.close();
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.send({ type: 'stop' });
    await ended;
  }
}

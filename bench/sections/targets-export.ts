import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { targetExportBodySchema } from '@shared/contract/projects/targets';
import { openDatabase } from '../../src-server/db/client';
import { withLiterals } from '../../src-server/features/projects/export';
import { targetJoins, targetListClauses } from '../../src-server/features/projects/queries/targets';
import { ApiClient } from '../../src-main/services/api-client';
import { downloadCsvFile } from '../../src-main/services/csv-export';
import { createSessionVault } from '../../src-main/services/session-vault';
import { table } from '../stats';
import { benchDatabase, generateProjectsAndTargets } from './projects';

/**
 * Every target (1,000,000 by default, BENCH_TARGETS) exported to a file as the desktop app runs
 * it (the API server in a process of its own, main's export service here: ApiClient.open + downloadCsvFile), on
 * PostgreSQL and on PGlite, against a raw copy of the same rows (the export's query, its cells unformatted) by the
 * same database timed in the same run: `psql \copy` on PostgreSQL, PGlite's own COPY on PGlite (psql's from
 * PostgreSQL printed beside it). Targets: ≤ 2× the raw copy, the server's RSS growth ≤ 150 MB.
 */
const PASSWORD = 'bench password 2026';
const PSQL = process.env.BENCH_PSQL ?? '/usr/bin/psql';
/** The export's body: every status, the list's default order. */
const EXPORT_BODY = { filters: { status: [] } };

/** A process's resident set, current and peak (VmRSS, VmHWM of /proc/<pid>/status), in MB. */
function residentMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** The same rows as the export (its filters, joins and order), their columns as stored: what the raw copies copy. */
function rawRowsQuery(): string {
  const body = targetExportBodySchema.parse(EXPORT_BODY);
  const { where, orderBy } = targetListClauses(body);
  return withLiterals(
    sql`SELECT t.*, p.name AS project_name, p.client_name, ka.name AS key_account FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`,
  ).replace(/\s+/g, ' ');
}

/** The raw rows copied by psql's \copy from PostgreSQL to a file: milliseconds and rows. */
async function psqlRawCopy(databaseUrl: string, folder: string): Promise<{ ms: number; rows: number }> {
  const file = join(folder, 'raw.csv');
  const started = performance.now();
  const { stdout } = await promisify(execFile)(
    PSQL,
    [databaseUrl, '-X', '-c', `\\copy (${rawRowsQuery()}) TO '${file}' (FORMAT csv, DELIMITER ';', HEADER)`],
    {
      maxBuffer: 1 << 20,
    },
  );
  const ms = performance.now() - started;
  const rows = Number(/COPY (\d+)/.exec(stdout)?.[1]);
  rmSync(file, { force: true });
  return { ms, rows };
}

/**
 * The raw rows copied by PGlite itself to a file: its COPY (the same statement as psql's) writes them to
 * '/dev/blob', the whole file handed over at the end, then written out. PGlite's \copy, as no psql reaches an
 * embedded database: the same engine, in WebAssembly, as the export it is compared with. Milliseconds and rows.
 */
async function pgliteRawCopy(dataDir: string, folder: string): Promise<{ ms: number; rows: number }> {
  const database = await openDatabase({ dataDir });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const file = join(folder, 'raw.csv');
  try {
    const started = performance.now();
    const { blob, affectedRows } = await client.query(`COPY (${rawRowsQuery()}) TO '/dev/blob' (FORMAT csv, DELIMITER ';', HEADER)`);
    await writeFile(file, Buffer.from(await blob!.arrayBuffer()));
    return { ms: performance.now() - started, rows: affectedRows ?? NaN };
  } finally {
    await database.close();
    rmSync(file, { force: true });
  }
}

/** Every target exported through main from an API server in a child process on `database`; its RSS sampled every 50 ms. */
async function exportThroughMain(database: { url: string } | { dataDir: string }, folder: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../export-server.ts', import.meta.url))], {
    env: { ...process.env, ...('url' in database ? { BENCH_EXPORT_DATABASE: database.url } : { BENCH_EXPORT_PGLITE_DIR: database.dataDir }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const serverUrl = await new Promise<string>((resolveUrl, reject) => {
    child.once('message', (message: { url: string }) => resolveUrl(message.url));
    child.once('exit', (code) => reject(new Error(`export server ended (${code}) before listening`)));
  });
  const vault = await createSessionVault({ service: 'bench', account: serverUrl });
  const api = new ApiClient({ baseUrl: () => serverUrl, vault });
  try {
    const signedIn = await api.signIn('csm3@bench.local', PASSWORD);
    if (!signedIn.ok) throw new Error(signedIn.errorMsg);
    const file = join(folder, 'actions.csv');
    const server = { beforeMb: residentMb(child.pid!).rss, peakMb: 0 };
    const sample = () => (server.peakMb = Math.max(server.peakMb, residentMb(child.pid!).rss));
    sample();
    const sampler = setInterval(sample, 50);
    const started = performance.now();
    let progressReports = 0;
    const { rows } = await downloadCsvFile(
      (id, input, signal) => api.open(id, input as never, signal),
      { operation: 'targets.export', input: { body: EXPORT_BODY } },
      file,
      { onProgress: () => (progressReports += 1) },
    ).finally(() => clearInterval(sampler));
    const ms = performance.now() - started;
    sample();
    const bytes = statSync(file).size;
    rmSync(file, { force: true });
    return { rows, ms, bytes, progressReports, server: { ...server, growthMb: server.peakMb - server.beforeMb, hwmMb: residentMb(child.pid!).hwm } };
  } finally {
    await api.close();
    const ended = new Promise((resolveEnd) => child.once('exit', resolveEnd));
    child.send({ type: 'stop' });
    await ended;
  }
}

/** The PGlite folder of the bench (kept between runs: generating a million targets takes minutes), generated once. */
async function pgliteBenchFolder(): Promise<string> {
  const dataDir = resolve(process.env.BENCH_PGLITE_DIR ?? `.data/bench/pglite-targets-${process.env.BENCH_TARGETS ?? 1_000_000}`);
  mkdirSync(dataDir, { recursive: true });
  const database = await openDatabase({ dataDir });
  try {
    await generateProjectsAndTargets(database.db);
  } finally {
    await database.close();
  }
  return dataDir;
}

export async function targetsExportSection() {
  const databaseUrl = await benchDatabase();
  const postgres = await openDatabase({ url: databaseUrl });
  try {
    await generateProjectsAndTargets(postgres.db);
  } finally {
    await postgres.close();
  }
  const only = process.env.BENCH_EXPORT_DATABASES?.split(',') ?? ['postgresql', 'pglite'];
  const folder = mkdtempSync(join(tmpdir(), 'bench-targets-export-'));
  const results: Record<string, unknown> = {};
  try {
    for (const kind of only) {
      const dataDir = kind === 'pglite' ? await pgliteBenchFolder() : undefined;
      // The database's own raw copy right before and right after the export (the shared machine's load drifts),
      // and psql's from PostgreSQL beside them on PGlite (what a native server takes).
      const rawCopy = () => (dataDir ? pgliteRawCopy(dataDir, folder) : psqlRawCopy(databaseUrl, folder));
      const before = await rawCopy();
      const exported = await exportThroughMain(dataDir ? { dataDir } : { url: databaseUrl }, folder);
      const after = await rawCopy();
      const psql = dataDir ? await psqlRawCopy(databaseUrl, folder) : undefined;
      for (const raw of [before, after, psql ?? before])
        if (exported.rows !== raw.rows) throw new Error(`${kind}: exported ${exported.rows} rows, a raw copy ${raw.rows}`);
      const rawMs = (before.ms + after.ms) / 2;
      const ratio = exported.ms / rawMs;
      const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      table(
        `Targets export on ${kind}: ${exported.rows.toLocaleString('fr-FR')} rows to a CSV file through main, against the raw copy of the same rows by the same database (${dataDir ? 'PGlite COPY' : 'psql \\copy'})`,
        [
          ['file size', `${(exported.bytes / 1024 / 1024).toFixed(0)} MB (${exported.progressReports} progress reports)`],
          ['export', seconds(exported.ms)],
          ['raw copy, same run: before, after the export', `${seconds(before.ms)}, ${seconds(after.ms)}`],
          ['ratio to their mean', `${ratio.toFixed(2)}× (target ≤ 2×)`],
          ...(psql
            ? ([['psql \\copy from PostgreSQL, same run (reference)', `${seconds(psql.ms)}: export ${(exported.ms / psql.ms).toFixed(2)}× it`]] as [
                string,
                string,
              ][])
            : []),
          [
            'API server RSS growth',
            `${exported.server.growthMb.toFixed(0)} MB (target ≤ 150 MB; ${exported.server.beforeMb.toFixed(0)} MB before, peak ${exported.server.peakMb.toFixed(0)} MB, VmHWM ${exported.server.hwmMb.toFixed(0)} MB)`,
          ],
          ['load average (1 min) at the end', os.loadavg()[0].toFixed(2)],
        ],
      );
      results[kind] = {
        rows: exported.rows,
        exportMs: exported.ms,
        rawCopyMs: [before.ms, after.ms],
        ratio,
        ...(psql && { psqlRawCopyMs: psql.ms, ratioToPsql: exported.ms / psql.ms }),
        serverRssGrowthMb: exported.server.growthMb,
        bytes: exported.bytes,
      };
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return results;
}

import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { targetExportBodySchema } from '@shared/contract/projects';
import { openDatabase } from '../../src-server/db/client';
import { withLiterals } from '../../src-server/features/projects/export';
import { targetJoins, targetListClauses } from '../../src-server/features/projects/queries';
import { ApiClient } from '../../src-main/services/api-client';
import { downloadCsvFile } from '../../src-main/services/csv-export';
import { createSessionVault } from '../../src-main/services/session-vault';
import { table } from '../stats';
import { benchDatabase, generateProjectsAndTargets } from './projects';

/**
 * Issue 20 item 3: every target (1,000,000 by default, BENCH_TARGETS) exported to a file as the desktop app runs
 * it (the API server in a process of its own, main's export service here: ApiClient.open + downloadCsvFile), on
 * PostgreSQL and on PGlite, against a raw `psql \copy` of the same rows (the export's query, its cells unformatted)
 * timed in the same run. Targets: ≤ 2× the raw copy, the server's RSS growth ≤ 150 MB.
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

/** The same rows as the export (its filters, joins and order), their columns as stored, copied raw by psql to a file: seconds and rows. */
async function rawCopy(databaseUrl: string, folder: string): Promise<{ ms: number; rows: number }> {
  const body = targetExportBodySchema.parse(EXPORT_BODY);
  const { where, orderBy } = targetListClauses(body);
  const query = withLiterals(
    sql`SELECT t.*, p.name AS project_name, p.client_name, ka.name AS key_account FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`,
  );
  const file = join(folder, 'raw.csv');
  const started = performance.now();
  const { stdout } = await promisify(execFile)(
    PSQL,
    [databaseUrl, '-X', '-c', `\\copy (${query.replace(/\s+/g, ' ')}) TO '${file}' (FORMAT csv, DELIMITER ';', HEADER)`],
    {
      maxBuffer: 1 << 20,
    },
  );
  const ms = performance.now() - started;
  const rows = Number(/COPY (\d+)/.exec(stdout)?.[1]);
  rmSync(file, { force: true });
  return { ms, rows };
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
      const database = kind === 'pglite' ? { dataDir: await pgliteBenchFolder() } : { url: databaseUrl };
      // The raw copy right before the export: both under the same load of the shared machine.
      const raw = await rawCopy(databaseUrl, folder);
      const exported = await exportThroughMain(database, folder);
      if (exported.rows !== raw.rows) throw new Error(`${kind}: exported ${exported.rows} rows, the raw copy ${raw.rows}`);
      const ratio = exported.ms / raw.ms;
      table(
        `Targets export on ${kind}: ${exported.rows.toLocaleString('fr-FR')} rows to a CSV file through main, against psql \\copy of the same rows (PostgreSQL)`,
        [
          ['file size', `${(exported.bytes / 1024 / 1024).toFixed(0)} MB (${exported.progressReports} progress reports)`],
          ['export', `${(exported.ms / 1000).toFixed(2)} s`],
          ['raw psql \\copy, same run', `${(raw.ms / 1000).toFixed(2)} s`],
          ['ratio', `${ratio.toFixed(2)}× (target ≤ 2×)`],
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
        rawCopyMs: raw.ms,
        ratio,
        serverRssGrowthMb: exported.server.growthMb,
        bytes: exported.bytes,
      };
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return results;
}

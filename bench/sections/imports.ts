import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { CSV_ROOT } from '@shared/rules/imports';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase, type Database } from '../../src-server/db/client';
import { rows } from '../../src-server/db/rows';
import { accounts } from '../../src-server/db/schema';
import { keptBenchDatabase } from '../databases';
import { table } from '../stats';

const PASSWORD = 'bench password 2026';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const PROFESSIONS = ['Médecin', 'Pharmacien', '3', 'Infirmier', '9', 'Sage-femme'];
const AREAS = ['french', 'french', 'french', 'spanish', 'italian'];

/**
 * A CSV list of `rows` users (';', UTF-8), written to disk in pieces: never held whole. `shift` moves every user's
 * specialty, area and zip code to another value (a list of the same users where every row changes).
 */
async function writeList(path: string, rows: number, shift = 0): Promise<void> {
  const out = createWriteStream(path);
  let chunk = 'ID;E-mail;Nom;Profession;Spécialité;Langue;Code postal;Rôles\r\n';
  for (let n = 1; n <= rows; n += 1) {
    const at = n + shift;
    chunk += `bench-${n};user${n}@bench-import.test;Dr Bench ${n};${PROFESSIONS[n % PROFESSIONS.length]};${1 + (at % 40)};${AREAS[at % AREAS.length]};${String(1000 + (at % 95_000)).padStart(5, '0')};${n % 10 ? '' : 'ROLE_EXPERT'}\r\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** A fresh database for each run: every row of the file is a new user (the demanding case: nodes, events, engine). */
async function freshDatabase(): Promise<string> {
  const url = await keptBenchDatabase('bench_imports_admin');
  // Another name keeps runs of several worktrees on one server apart.
  const name = process.env.BENCH_IMPORT_DATABASE ?? 'bench_imports';
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}

/**
 * Where PostgreSQL's write time goes beside the statements: the WAL written since the server started (bytes) and its
 * checkpoints. A checkpoint forced by WAL volume (past max_wal_size) in the middle of a merge makes every page written
 * after it log a full image of itself.
 */
async function walFigures(db: Database): Promise<{ bytes: bigint; checkpoints: number; forced: number }> {
  const [figures] = await rows<{ bytes: string; checkpoints: number; forced: number }>(
    db,
    sql`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS bytes, (checkpoints_timed + checkpoints_req)::int AS checkpoints,
               checkpoints_req::int AS forced FROM pg_stat_bgwriter`,
  );
  return { bytes: BigInt(figures.bytes.split('.')[0]), checkpoints: figures.checkpoints, forced: figures.forced };
}

/**
 * A 1,000,000-row CSV list imported into the population on PostgreSQL, end to end (read from storage,
 * checked, staged, merged in one transaction, the audience engine current), with the API server's RSS growth
 * sampled every 100 ms (the server runs in this process; the file is written to disk before the baseline). Then the
 * same users with a value changed on every row, then that list again. Targets (new users): ≤ 30 s, RSS growth ≤ 300 MB. BENCH_IMPORT_ROWS sets another size.
 */
export async function importsSection() {
  const folder = mkdtempSync(join(tmpdir(), 'bench-imports-'));
  // The runner logs its phases when the job is done: read here for the table, other lines only at BENCH_LOG_LEVEL.
  let phases: { readMs: number; checkedMs: number; mergeMs: number } | undefined;
  const shown = pino.levels.values[process.env.BENCH_LOG_LEVEL ?? 'silent'] ?? Infinity;
  const logs = new Writable({
    write(line: Buffer, _encoding, done) {
      const record = JSON.parse(line.toString()) as { level: number; msg?: string; readMs?: number; checkedMs?: number; mergeMs?: number };
      if (record.msg === 'CSV import done') phases = record as typeof phases;
      if (record.level >= shown) process.stderr.write(line);
      done();
    },
  });
  const handle = await openDatabase({ url: await freshDatabase() });
  const app = await buildApp({
    db: handle.db,
    dbKind: handle.kind,
    logger: pino({ level: 'info' }, logs),
    config: { storage: { kind: 'local', dir: join(folder, 'storage') } },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    await handle.db
      .insert(accounts)
      .values({ name: 'Importer', email: 'importer@bench.local', roles: ['ADMIN'], passwordHash: await hashPassword(PASSWORD) });
    const signIn = async () => {
      const signedIn = await fetch(`${base}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'importer@bench.local', password: PASSWORD }),
      });
      return ((await signedIn.json()) as { accessToken: { value: string } }).accessToken.value;
    };
    const token = await signIn();
    const file = join(folder, 'liste.csv');
    await writeList(file, ROWS);
    await app.context.storage.put(`${CSV_ROOT}/liste.csv`, createReadStream(file), 'text/csv');
    const changed = join(folder, 'liste-modifiee.csv');
    await writeList(changed, ROWS, 1);
    await app.context.storage.put(`${CSV_ROOT}/liste-modifiee.csv`, createReadStream(changed), 'text/csv');
    let headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const mapping = ['externalId', 'email', 'name', 'profession', 'specialty', 'area', 'zipcode', 'roles'].map((field, index) => ({
      header: ['ID', 'E-mail', 'Nom', 'Profession', 'Spécialité', 'Langue', 'Code postal', 'Rôles'][index],
      field,
    }));

    // Every row a new user (nodes, events, engine); the same users with a value changed on every row; that list again
    // (every user found, nothing to write).
    const runs = [
      { run: 'new users', filename: 'liste.csv' },
      { run: 'every user changed', filename: 'liste-modifiee.csv' },
      { run: 'the same list again, nothing changed', filename: 'liste-modifiee.csv' },
    ];
    for (const { run, filename } of runs) {
      phases = undefined as typeof phases;
      // From a collected heap (npm run bench exposes gc): the growth is the import's, not the garbage of what ran before.
      (globalThis as { gc?: () => void }).gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      // Each run from a checkpoint: its figures no longer depend on how much WAL the run before left to flush, nor on
      // whether a checkpoint forced by that volume lands in the middle of it (seen: ±6 s on one machine, the same code).
      await handle.db.execute(sql`CHECKPOINT`);
      const walBefore = await walFigures(handle.db);
      const started = performance.now();
      const answer = await fetch(`${base}/csv/import`, { method: 'POST', headers, body: JSON.stringify({ filename, mapping }) });
      let job = (await answer.json()) as { id: number; state: string; message: string | null; inserted: number; updated: number };
      if (answer.status !== 202) throw new Error(`import refused: ${JSON.stringify(job)}`);
      while (job.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const polled = await fetch(`${base}/csv/import/${job.id}`, { headers });
        // An access token lives 15 minutes: a slow run signs in again.
        if (polled.status === 401) headers = { ...headers, authorization: `Bearer ${await signIn()}` };
        else job = (await polled.json()) as typeof job;
      }
      const ms = performance.now() - started;
      clearInterval(sampler);
      const walAfter = await walFigures(handle.db);
      if (job.state !== 'done') throw new Error(`import ${job.state}: ${job.message}`);
      const size = await fetch(`${base}/audience/size`, { method: 'POST', headers, body: JSON.stringify({ area: 'french', relationships: [] }) });
      table(`CSV list import on PostgreSQL: ${ROWS.toLocaleString('fr-FR')} rows, ${run} (${(statSync(file).size / 1024 / 1024).toFixed(0)} MB)`, [
        [
          'end to end (POST /csv/import to done)',
          `${(ms / 1000).toFixed(1)} s${run === 'new users' || run === 'every user changed' ? ' (target ≤ 30 s)' : ''}`,
        ],
        ['rows per second', Math.round(ROWS / (ms / 1000)).toLocaleString('fr-FR')],
        [
          'phases: read and staged / keys checked / merged',
          phases ? [phases.readMs, phases.checkedMs, phases.mergeMs].map((phase) => `${(phase / 1000).toFixed(1)} s`).join(' / ') : 'not logged',
        ],
        [
          'WAL written (whole server) / checkpoints during the run (of them forced by WAL volume)',
          `${(Number(walAfter.bytes - walBefore.bytes) / 1024 ** 3).toFixed(2)} GB / ${walAfter.checkpoints - walBefore.checkpoints} (${walAfter.forced - walBefore.forced})`,
        ],
        ['server RSS growth', `${((peak - before) / 1024 / 1024).toFixed(0)} MB (target ≤ 300 MB; ${(before / 1024 / 1024).toFixed(0)} MB before)`],
        ['inserted / updated', `${job.inserted.toLocaleString('fr-FR')} / ${job.updated.toLocaleString('fr-FR')}`],
        ['audience size check (french) status', String(size.status)],
      ]);
    }
  } finally {
    await app.close();
    await handle.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { Pool } from 'undici';
import { buildApp } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { accounts } from '../../src-server/db/schema';
import { ms, summarize, table } from '../stats';

const PASSWORD = 'bench password 2026';
const FIRST_NAMES = ['Camille', 'Léa', 'Hugo', 'Chloé', 'Lucas', 'Manon', 'Louis', 'Inès', 'Jules', 'Emma', 'Nathan', 'Zoé'];
const LAST_NAMES = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'];
const ROLE_SETS = [['CSM'], ['SALES'], ['CSM', 'CSM_LEAD'], ['CONTENT_CREATOR'], ['CONTENT_CREATOR_LEAD'], []];

async function postgresDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> } | string> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `bench_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    return `unreachable (${(error as Error).message})`;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    handle,
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

async function measure(label: string, handle: DatabaseHandle) {
  const app = await buildApp({
    db: handle.db,
    dbKind: handle.kind,
    logger: pino({ level: 'silent' }),
    // Failed sign-ins are measured below: the rate limiter would stop them after 5.
    config: { maxFailuresPerUsername: 1e9, maxFailuresPerAddress: 1e9, maxFailuresPerUsernameAndAddress: 1e9 },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const pool = new Pool(base, { connections: 16 });
  const passwordHash = await hashPassword(PASSWORD);
  await handle.db.insert(accounts).values({ name: 'Bench Admin', email: 'bench-admin@bench.local', roles: ['ADMIN'], passwordHash });
  await handle.db.insert(accounts).values(
    Array.from({ length: 119 }, (_, i) => ({
      name: `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[i % LAST_NAMES.length]} ${i}`,
      nickname: FIRST_NAMES[i % FIRST_NAMES.length],
      email: `account${i}@bench.local`,
      roles: ROLE_SETS[i % ROLE_SETS.length],
      passwordHash,
    })),
  );

  const post = async (path: string, body: unknown) => {
    const response = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.body.text();
    return { status: response.statusCode, text };
  };
  const signIn = (username: string, password: string) => post('/authenticate', { username, password });

  for (let i = 0; i < 10; i++) await signIn('bench-admin@bench.local', PASSWORD);
  const ok: number[] = [];
  let token = '';
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    const response = await signIn('bench-admin@bench.local', PASSWORD);
    ok.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
    token = JSON.parse(response.text).accessToken.value;
  }
  const unknown: number[] = [];
  const wrong: number[] = [];
  for (let i = 0; i < 60; i++) {
    let start = performance.now();
    await signIn(`nobody${i}@bench.local`, 'wrong password');
    unknown.push(performance.now() - start);
    start = performance.now();
    await signIn('account1@bench.local', 'wrong password');
    wrong.push(performance.now() - start);
  }

  // Throughput of GET /admin/accounts (99 rows) with 10 concurrent callers for 5 s.
  const durationMs = 5000;
  const concurrency = 10;
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + durationMs;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        const response = await pool.request({
          method: 'GET',
          path: '/admin/accounts?limit=99&skip=0',
          headers: { authorization: `Bearer ${token}` },
        });
        const body = await response.body.text();
        if (response.statusCode !== 200 || JSON.parse(body).items.length !== 99) errors += 1;
        latencies.push(performance.now() - start);
      }
    }),
  );
  const elapsed = (performance.now() - startedAt) / 1000;

  // GET /meta, one caller in a loop, while 200 sign-ins arrive at once (target p95 <= 50 ms).
  const burstPool = new Pool(base, { connections: 200 });
  const burstAnswers: Record<number, number> = {};
  let burstDone = false;
  const burst = Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const response = await burstPool.request({
        method: 'POST',
        path: '/authenticate',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `account${i % 119}@bench.local`, password: PASSWORD }),
      });
      await response.body.text();
      burstAnswers[response.statusCode] = (burstAnswers[response.statusCode] ?? 0) + 1;
    }),
  ).finally(() => (burstDone = true));
  const metaDuringBurst: number[] = [];
  while (!burstDone) {
    const start = performance.now();
    const response = await pool.request({ method: 'GET', path: '/meta', headers: { authorization: `Bearer ${token}` } });
    await response.body.text();
    if (response.statusCode !== 200) errors += 1;
    metaDuringBurst.push(performance.now() - start);
  }
  await burst;
  await burstPool.close();
  await pool.close();
  await app.close();

  const signInStats = summarize(ok);
  const metaStats = summarize(metaDuringBurst);
  const listStats = summarize(latencies);
  const result = {
    database: label,
    signIn: { p50: signInStats.p50, p95: signInStats.p95, p99: signInStats.p99, mean: signInStats.mean },
    failedSignIn: { unknownUserP50: summarize(unknown).p50, wrongPasswordP50: summarize(wrong).p50 },
    accountList: { requestsPerSecond: latencies.length / elapsed, p50: listStats.p50, p95: listStats.p95, errors, concurrency },
    metaDuringSignInBurst: {
      requests: metaDuringBurst.length,
      p50: metaStats.p50,
      p95: metaStats.p95,
      max: metaStats.max,
      signInAnswers: burstAnswers,
      targetP95: 50,
    },
  };
  table(`API on ${label}`, [
    ['sign-in (200 sequential)', `p50 ${ms(signInStats.p50)}  p95 ${ms(signInStats.p95)}  p99 ${ms(signInStats.p99)}`],
    ['failed sign-in, unknown account', `p50 ${ms(result.failedSignIn.unknownUserP50)}`],
    ['failed sign-in, wrong password', `p50 ${ms(result.failedSignIn.wrongPasswordP50)}`],
    [
      `GET /admin/accounts (99 rows), ${concurrency} concurrent`,
      `${result.accountList.requestsPerSecond.toFixed(0)} req/s  p50 ${ms(listStats.p50)}  p95 ${ms(listStats.p95)}  errors ${errors}`,
    ],
    [
      'GET /meta during a burst of 200 sign-ins (target p95 <= 50 ms)',
      `p50 ${ms(metaStats.p50)}  p95 ${ms(metaStats.p95)}  max ${ms(metaStats.max)}  (${metaDuringBurst.length} calls; sign-ins ${Object.entries(
        burstAnswers,
      )
        .map(([status, n]) => `${n}x${status}`)
        .join(' ')})`,
    ],
  ]);
  return result;
}

export async function apiSection(): Promise<unknown[]> {
  const results: unknown[] = [];
  const memory = await openDatabase();
  results.push(await measure('PGlite (in memory)', memory));
  await memory.close();

  const folder = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
  const disk = await openDatabase({ dataDir: folder });
  results.push(await measure('PGlite (data folder on disk)', disk));
  await disk.close();
  rmSync(folder, { recursive: true, force: true });

  const postgres = await postgresDatabase();
  if (typeof postgres === 'string') {
    console.log(`\nPostgreSQL: skipped, ${postgres}`);
  } else {
    results.push(await measure('PostgreSQL', postgres.handle));
    await postgres.handle.close();
    await postgres.drop();
  }
  console.log('\n  (scrypt N=16384 makes each sign-in ~40-60 ms of CPU by design; failures cost the same either way.)');
  return results;
}

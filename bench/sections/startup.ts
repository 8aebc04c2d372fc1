import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src-server/db/client';
import { generatePopulation } from '../../src-server/features/audiences/generator';
import { rows } from '../../src-server/db/rows';
import { keptBenchDatabase } from '../databases';
import { prepareWebHost } from '../../scripts/web-builds';
import { ms, summarize, table } from '../stats';

const root = fileURLToPath(new URL('../..', import.meta.url));
const USERS = Number(process.env.BENCH_AUDIENCE_USERS ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_AUDIENCE_EVENTS ?? 5_000_000);
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);

/** The population of the audiences section (the same kept database on PostgreSQL; a kept data folder on PGlite). */
async function ensurePopulation(db: Database, where: string): Promise<void> {
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM app_users`);
  if (count > 0) return;
  console.log(`generating ${USERS.toLocaleString('fr-FR')} users and ${EVENTS.toLocaleString('fr-FR')} events (once; kept in ${where})`);
  const started = performance.now();
  await generatePopulation(db, { users: USERS, events: EVENTS, seed: 42 });
  await db.execute(sql`ANALYZE`);
  console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** Stops the server as an operator does (SIGTERM); answers how long it took to exit (a PGlite one writes its index file). */
async function stop(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return 0;
  const started = performance.now();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await exited;
  return performance.now() - started;
}

/** Spawns `script` with `env`; resolves with the time from the spawn to the first line matching `ready`. */
function timeUntilOutput(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; ms: number; match: RegExpExecArray }> {
  const started = performance.now();
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) resolvePromise({ child, ms: performance.now() - started, match });
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}): ${output}`)));
  });
}

/** The team server from process start until GET /ready answers 200 (the audience engine built), polled every 50 ms. */
async function timeToReady(env: NodeJS.ProcessEnv): Promise<{ listening: number; ready: number; stopped: number }> {
  const started = performance.now();
  const { child, ms: listening, match } = await timeUntilOutput(join(root, 'out/server/cli.js'), { PORT: '0', ...env }, /API listening on (\S+)/);
  let ready: number | undefined;
  try {
    while (ready === undefined) {
      const answer = await fetch(`${match[1]}/ready`).catch(() => null);
      if (answer?.status === 200) ready = performance.now() - started;
      else await new Promise((wait) => setTimeout(wait, 50));
    }
  } catch (error) {
    await stop(child);
    throw error;
  }
  const stopped = await stop(child);
  return { listening, ready, stopped };
}

/**
 * RUNS starts of the team server; `beforeRun` prepares each (the PGlite cold runs delete the index file the previous
 * close wrote, so the engine is built from the tables).
 */
async function serverRuns(label: string, env: NodeJS.ProcessEnv, target: number, beforeRun = () => {}): Promise<[string, string][]> {
  const listening: number[] = [];
  const ready: number[] = [];
  const stopped: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    beforeRun();
    const figures = await timeToReady(env);
    listening.push(figures.listening);
    ready.push(figures.ready);
    stopped.push(figures.stopped);
  }
  const readyStats = summarize(ready);
  return [
    [`${label}: process start → listening`, `p50 ${ms(summarize(listening).p50)}`],
    [`${label}: process start → /ready 200 (target ≤ ${target / 1000} s)`, `p50 ${ms(readyStats.p50)}  max ${ms(readyStats.max)}`],
    [`${label}: SIGTERM → exit`, `p50 ${ms(summarize(stopped).p50)}`],
  ];
}

/**
 * The embedded server as the desktop app's first start runs it: a new data folder seeded from the shipped template,
 * the demo workspace off, from process start to the API answering (the web host prints 'API:' then). Electron
 * itself cannot start on this machine; its window shows the sign-in page from the same bundle once the API answers.
 */
async function embeddedFirstStart(): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const folder = mkdtempSync(join(tmpdir(), 'bench-first-start-'));
    try {
      const env = { BACKOFFICE_DATA_DIR: folder, WEB_PORT: '0', BACKOFFICE_DEMO: '0' };
      const { child, ms: elapsed } = await timeUntilOutput(join(root, 'out/web/web-cli.js'), env, /API: \S+/);
      samples.push(elapsed);
      await stop(child);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return samples;
}

/**
 * Start to ready at 1,000,000 users: the team server (its bundle, out/server/cli.js) until /ready answers, on
 * PostgreSQL (target ≤ 15 s) and PGlite (≤ 30 s), and the embedded server's first start with the demo off (≤ 3 s).
 */
export async function startupSection(): Promise<unknown> {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'src-server/vite.config.ts'), logLevel: 'warn' });
  // The embedded server's first start is that of `npm run web`: its renderer, host and template, built as it builds them.
  await prepareWebHost();
  // BENCH_STARTUP_DATABASES=postgresql (or pglite) measures one of them, and generates only its population.
  const only = process.env.BENCH_STARTUP_DATABASES?.split(',') ?? ['postgresql', 'pglite'];
  const url = only.includes('postgresql') ? await keptBenchDatabase(`bench_audiences_${USERS}_${EVENTS}`) : '';
  if (url) {
    const postgres = await openDatabase({ url });
    await ensurePopulation(postgres.db, new URL(url).pathname.slice(1)).finally(() => postgres.close());
  }
  const pgliteDir = resolve(root, `.data/bench/pglite-startup-${USERS}-${EVENTS}`);
  if (only.includes('pglite')) {
    mkdirSync(pgliteDir, { recursive: true });
    const pglite = await openDatabase({ dataDir: pgliteDir });
    await ensurePopulation(pglite.db, pgliteDir).finally(() => pglite.close());
  }

  const rowsOut = [
    ...(only.includes('postgresql') ? await serverRuns('PostgreSQL', { DATABASE_URL: url }, 15_000) : []),
    ...(only.includes('pglite')
      ? [
          ...(await serverRuns('PGlite, index built from the tables', { BACKOFFICE_DATA_DIR: pgliteDir }, 30_000, () =>
            rmSync(`${pgliteDir}.audience-index`, { force: true }),
          )),
          // Each close writes the index file the next start reads (engine.restoreFrom): the restart of a deploy.
          ...(await serverRuns('PGlite, index file of the last close', { BACKOFFICE_DATA_DIR: pgliteDir }, 30_000)),
        ]
      : []),
  ];
  const firstStart = summarize(await embeddedFirstStart());
  rowsOut.push(['embedded server, first start from the template, demo off (target ≤ 3 s)', `p50 ${ms(firstStart.p50)}  max ${ms(firstStart.max)}`]);
  table(`Start to ready at ${USERS.toLocaleString('fr-FR')} users, ${EVENTS.toLocaleString('fr-FR')} events, ${RUNS} runs each`, rowsOut);
  return { rows: Object.fromEntries(rowsOut), firstStart };
}

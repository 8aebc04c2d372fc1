import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { chromium, type Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../src-server/seed';
import { ms, summarize, table } from '../stats';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The demo population's size (src-server/features/audiences/demo.ts): 20,000 app users. */
const USERS = Number(process.env.BENCH_SCREEN_USERS ?? 20_000);
const EVENTS = Number(process.env.BENCH_SCREEN_EVENTS ?? 50_000);
const AUDIENCES = 10_000;
const LIVE_SIZE_RUNS = 21;
const LIST_RUNS = 200;

/** A deterministic small generator (no Math.random: the same population every run). */
function* lcg(seed: number) {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield state / 2_147_483_648;
  }
}

type Database = NonNullable<Awaited<ReturnType<typeof import('../../src-main/hosts/web').startWebHost>>['embedded']>['database']['db'];
type App = NonNullable<Awaited<ReturnType<typeof import('../../src-main/hosts/web').startWebHost>>['embedded']>['app'];

/** 10,000 audiences straight into the database, one a minute back in time. */
async function insertAudiences(db: Database): Promise<void> {
  await db.execute(
    sql`INSERT INTO audiences (id, name, type, area, is_in_catalog, author_name, created_at)
        SELECT nextval('nodes_id_seq'), 'Audience bench ' || n, (ARRAY['timeline','search','story','notification','banner'])[1 + n % 5],
               (ARRAY['french','english','spanish','italian','german'])[1 + n % 5], n % 7 = 0, 'Claire Durand', now() - make_interval(mins => n)
        FROM generate_series(1, ${AUDIENCES}) AS n`,
  );
  await db.execute(sql`ANALYZE audiences`);
}

/** The list's first page (and a searched, filtered one) through the server's own request handling, no network. */
async function timeList(app: App, token: string) {
  const call = async (query: string) => {
    const begin = performance.now();
    const response = await app.inject({ method: 'GET', url: `/audiences?${query}`, headers: { authorization: `Bearer ${token}` } });
    const elapsed = performance.now() - begin;
    if (response.statusCode !== 200) throw new Error(`list: ${response.statusCode} ${response.body}`);
    return elapsed;
  };
  const first = 'limit=25&skip=0&orderBy=createdAt&order=DESC';
  for (let i = 0; i < 20; i += 1) await call(first);
  const list: number[] = [];
  for (let i = 0; i < LIST_RUNS; i += 1) list.push(await call(first));
  const searched: number[] = [];
  for (let i = 0; i < LIST_RUNS; i += 1) searched.push(await call('limit=25&skip=0&orderBy=createdAt&order=ASC&term=bench%2012&area=french'));
  return { firstPage: summarize(list), searched: summarize(searched) };
}

/** The same list on the team server's PostgreSQL (BENCH_DATABASE_URL or the local one), in a throw-away database. */
async function listOnPostgres(): Promise<ReturnType<typeof timeList> | null> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `bench_aud_list_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const { startServer } = await import('../../src-server/server');
  const server = await startServer({ port: 0, databaseUrl: url.toString(), demo: true, logger: pino({ level: 'silent' }) });
  try {
    const account = server.demoAccounts.find((demo) => demo.role === 'ADMIN')!;
    const signedIn = await server.app.inject({
      method: 'POST',
      url: '/authenticate',
      payload: { username: account.email, password: account.password },
    });
    const token = (JSON.parse(signedIn.body) as { accessToken: { value: string } }).accessToken.value;
    await insertAudiences(server.database.db);
    return await timeList(server.app, token);
  } finally {
    await server.close();
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  }
}

/** From the click on a relationship's Req/Not toggle to the new live size shown, measured inside the page. */
function timeLiveSize(page: Page, toggleTestId: string): Promise<number> {
  return page.evaluate(
    (testId) =>
      new Promise<number>((resolve) => {
        const size = document.querySelector<HTMLElement>('[data-testid="live-size"]')!;
        const before = size.dataset.size;
        const started = performance.now();
        const observer = new MutationObserver(() => {
          if (size.dataset.current === 'true' && size.dataset.size !== before) {
            observer.disconnect();
            resolve(performance.now() - started);
          }
        });
        observer.observe(size, { attributes: true });
        document.querySelector<HTMLButtonElement>(`[data-testid="${testId}"]`)!.click();
      }),
    toggleTestId,
  );
}

/**
 * Targets: live size from a criterion change to the size shown, debounce included, ≤ 300 ms median on
 * the demo population (20,000 app users); audience list first page p95 ≤ 20 ms server-side at 10,000 audiences.
 * The web host runs in this process on a new PGlite folder, as the e2e tests start it; the population goes in
 * through the ingestion API, the audiences straight into the database.
 */
export async function audienceScreensSection(): Promise<unknown> {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'src-renderer/vite.config.ts'), logLevel: 'warn' });
  const { startWebHost } = await import('../../src-main/hosts/web');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-aud-screens-'));
  const host = await startWebHost({
    port: 0,
    rendererDir: join(root, 'out/renderer'),
    dataDir: join(dataDir, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile: join(dataDir, 'settings.json'),
    demo: true,
    logger: pino({ level: 'silent' }),
  });
  const admin = DEMO_ACCOUNTS.find((account) => account.role === 'ADMIN')!;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const signedIn = await fetch(`${host.apiUrl}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: admin.email, password: admin.password }),
    });
    const token = ((await signedIn.json()) as { accessToken: { value: string } }).accessToken.value;
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${host.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    };

    // ---- the population ---------------------------------------------------------------------------------------
    const random = lcg(2026);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random.next().value! * list.length)];
    const professions = [2, 2, 2, 8, 4, 3, 6, 9, 5, 10];
    const started = performance.now();
    for (let from = 0; from < USERS; from += 10_000) {
      const users = Array.from({ length: Math.min(10_000, USERS - from) }, (_, index) => {
        const n = from + index;
        return {
          externalId: `bench-${n}`,
          email: `bench.user${n}@exemple.fr`,
          professionId: pick(professions),
          specialtyId: 1 + Math.floor(random.next().value! * 50),
          area: pick(['french', 'french', 'french', 'english', 'spanish'] as const),
          roles: random.next().value! < 0.3 ? ['ROLE_EXPERT'] : [],
          feeds: [pick(['Cardiologie', 'Pneumologie', 'Oncologie', 'Pédiatrie'])],
        };
      });
      await call('POST', '/population/users', users);
    }
    for (let from = 0; from < EVENTS; from += 50_000) {
      const events = Array.from({ length: Math.min(50_000, EVENTS - from) }, (_, index) => ({
        eventId: `bench-e-${from + index}`,
        userExternalId: `bench-${Math.floor(random.next().value! * USERS)}`,
        event: 'document.view',
        node: { label: 'Document', name: `Document ${Math.floor(random.next().value! * 300)}` },
        at: '2026-03-01T10:00:00Z',
      }));
      await call('POST', '/population/events', events);
    }
    const populationMs = performance.now() - started;

    // ---- live size in the editor ------------------------------------------------------------------------------
    const node = async (label: string, term: string) =>
      ((await call('GET', `/search?term=${encodeURIComponent(term)}&label=${label}`)) as { id: number }[])[0].id;
    const doctor = await node('Profession', 'Médecin');
    const expert = await node('Role', 'ROLE_EXPERT');
    const audience = (await call('POST', '/audience', {
      name: 'Bench taille',
      type: 'timeline',
      relationships: [{ node: { label: 'Profession', id: doctor } }, { node: { label: 'Role', id: expert } }],
    })) as { id: number };
    const page = await browser.newPage();
    await page.goto(`${host.url}/login`);
    await page.getByTestId('login-username').fill(admin.email);
    await page.getByTestId('login-password').fill(admin.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${host.url}/audiences/${audience.id}`);
    await page.locator('[data-testid="live-size"][data-current="true"]').waitFor({ timeout: 30_000 });
    const toggle = `relationship-Role-${expert}-kind`;
    const liveSize: number[] = [];
    for (let run = 0; run < LIVE_SIZE_RUNS; run += 1) liveSize.push(await timeLiveSize(page, toggle));

    // ---- the list at 10,000 audiences -------------------------------------------------------------------------
    await insertAudiences(host.embedded!.database.db);
    const pglite = await timeList(host.embedded!.app, token);
    const postgres = await listOnPostgres();

    const live = summarize(liveSize);
    table(`Audience screens on ${USERS.toLocaleString('fr-FR')} app users, ${EVENTS.toLocaleString('fr-FR')} events (PGlite, embedded)`, [
      ['population ingested through the API', ms(populationMs)],
      [`live size, change to size shown (median of ${LIVE_SIZE_RUNS}, debounce included; target ≤ 300 ms)`, ms(live.p50)],
      ['live size p95', ms(live.p95)],
      [`list first page at ${AUDIENCES.toLocaleString('fr-FR')} audiences, server-side p95, PGlite (target ≤ 20 ms)`, ms(pglite.firstPage.p95)],
      ['  median, PGlite', ms(pglite.firstPage.p50)],
      ['  searched + filtered + ASC, p95, PGlite', ms(pglite.searched.p95)],
      ['list first page, server-side p95, PostgreSQL', postgres ? ms(postgres.firstPage.p95) : 'no PostgreSQL server'],
      ['  median, PostgreSQL', postgres ? ms(postgres.firstPage.p50) : '-'],
      ['  searched + filtered + ASC, p95, PostgreSQL', postgres ? ms(postgres.searched.p95) : '-'],
    ]);
    return { users: USERS, events: EVENTS, populationMs, liveSize: live, listPglite: pglite, listPostgres: postgres };
  } finally {
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READINESS_MESSAGES } from '@shared/messages/api';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { throwAwayPostgresDatabase } from '../helpers/database';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

const postgresUrl = process.env.TEST_DATABASE_URL;
const METRICS_TOKEN = 'a-metrics-token-for-tests-32-chars-long';
/** /ready's details are the operator's: sent with the metrics token. */
const OPERATOR = { headers: { authorization: `Bearer ${METRICS_TOKEN}` } };

/** The operator's routes (docs/operations.md, "Monitor"): /health, /ready and /metrics on a real server. */
describe('operator routes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { metricsToken: METRICS_TOKEN } });
  });
  afterAll(() => server?.close());

  it('/health answers without the database; /ready checks the database, its migrations and the audience engine', async () => {
    const health = await server.request('GET', '/health');
    expect(health).toMatchObject({ status: 200, body: { ok: true, product: 'backoffice-api', apiVersion: 1 } });
    const ready = await server.request('GET', '/ready', OPERATOR);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      ready: true,
      checks: [
        { name: 'database', ok: true },
        { name: 'migrations', ok: true },
        { name: 'audiences', ok: true },
      ],
      warnings: [],
    });
  });

  it('/ready answers 503 with the reason, in French and English, while the migrations are not those of this server', async () => {
    const { db } = server.database;
    const [last] = (
      (await db.execute(sql.raw(`SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`))) as unknown as {
        rows: { id: number; hash: string; created_at: string }[];
      }
    ).rows;
    await db.execute(sql.raw(`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${Number(last.id)}`));
    try {
      const behind = await server.request('GET', '/ready', OPERATOR);
      expect(behind.status).toBe(503);
      expect(behind.headers.get('retry-after')).toBe('5');
      expect(behind.body.ready).toBe(false);
      expect(behind.body.checks).toContainEqual({
        name: 'migrations',
        ok: false,
        errorMsg: READINESS_MESSAGES.migrationsBehind,
        reason: expect.stringMatching(/^database migrated up to \d+, this server needs \d+$/),
      });
      // A newer server migrated the database further: this one must be upgraded.
      await db.execute(
        sql.raw(
          `INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('${last.hash}', ${Number(last.created_at)}), ('newer', ${Number(last.created_at) + 1000})`,
        ),
      );
      const ahead = await server.request('GET', '/ready', OPERATOR);
      expect(ahead.status).toBe(503);
      expect(ahead.body.checks).toContainEqual(
        expect.objectContaining({ name: 'migrations', ok: false, errorMsg: READINESS_MESSAGES.migrationsAhead }),
      );
    } finally {
      await db.execute(sql.raw(`DELETE FROM drizzle.__drizzle_migrations WHERE hash = 'newer'`));
      const count = (await db.execute(
        sql.raw(`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations WHERE hash = '${last.hash}'`),
      )) as unknown as {
        rows: { n: number }[];
      };
      if (count.rows[0].n === 0) {
        await db.execute(sql.raw(`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('${last.hash}', ${Number(last.created_at)})`));
      }
    }
    expect((await server.request('GET', '/ready', OPERATOR)).status).toBe(200);
  });

  it('/metrics answers Prometheus text to its bearer token only: requests per operation, latency, errors, sign-in refusals, jobs, engine', async () => {
    const { email } = await server.createAccount(['CSM']);
    expect((await server.request('POST', '/authenticate', { body: { username: email, password: 'not the password' } })).status).toBe(401);
    expect((await server.request('POST', '/authenticate', { body: { username: email, password: TEST_PASSWORD } })).status).toBe(200);

    expect((await server.request('GET', '/metrics')).status).toBe(401);
    expect((await server.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const scraped = await server.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = scraped.body as string;
    const value = (line: string) => Number(new RegExp(`^${line.replace(/[{}.+]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('backoffice_http_requests_total{operation="auth.signIn",method="POST",status="200"}')).toBe(1);
    expect(value('backoffice_http_requests_total{operation="auth.signIn",method="POST",status="401"}')).toBe(1);
    expect(value('backoffice_sign_in_refusals_total{status="401"}')).toBe(1);
    expect(value('backoffice_http_errors_total{status="401"}')).toBeGreaterThanOrEqual(3);
    expect(value('backoffice_http_request_duration_seconds_count{operation="auth.signIn"}')).toBe(2);
    expect(text).toMatch(/^backoffice_http_request_duration_seconds_bucket\{le="0\.1",operation="auth\.signIn"\} \d+$/m);
    expect(value('backoffice_push_batches_pending')).toBe(0);
    expect(value('backoffice_imports_running')).toBe(0);
    expect(value('backoffice_autopublish_lag_seconds')).toBe(0);
    expect(value('backoffice_audience_users')).toBe(0);
    expect(value('backoffice_audience_bitmaps_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^backoffice_audience_follow_lag_seconds \S+$/m);
    expect(text).toMatch(/^backoffice_process_resident_memory_bytes \d+/m);
    if (postgresUrl) expect(value('backoffice_db_pool_connections{state="total"}')).toBeGreaterThan(0);
  });

  it('has no /metrics without METRICS_TOKEN', async () => {
    const other = await startTestServer();
    try {
      expect((await other.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

/** What only a PostgreSQL team server meets: a long first build of the engine, several instances on one database. */
describe.skipIf(!postgresUrl)('operator routes on PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  const handles: DatabaseHandle[] = [];
  const apps: App[] = [];
  const logger = pino({ level: 'silent' });
  beforeAll(async () => {
    database = await throwAwayPostgresDatabase(postgresUrl!);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    await database?.drop();
  });

  async function start(config: Parameters<typeof buildApp>[0]['config'] = {}) {
    const handle = await openDatabase({ url: database.url });
    handles.push(handle);
    const app = await buildApp({
      db: handle.db,
      dbKind: handle.kind,
      logger,
      jwtSecret: 'same',
      migrationsFolder: handle.migrationsFolder,
      config: { metricsToken: METRICS_TOKEN, ...config },
    });
    apps.push(app);
    return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
  }

  it('answers /health at once and /ready 503 while the audience engine is first built; API calls wait for the build', async () => {
    // The engine reads interaction_events last: held by another session, the build waits as a long one would.
    handles.push(await openDatabase({ url: database.url }));
    const blocker = new pg.Client({ connectionString: database.url });
    blocker.on('error', () => undefined);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE interaction_events IN ACCESS EXCLUSIVE MODE');
    try {
      const { url } = await start({ audienceEngineInBackground: true });
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const building = await fetch(`${url}/ready`, OPERATOR);
      expect(building.status).toBe(503);
      expect((await building.json()).checks).toContainEqual({
        name: 'audiences',
        ok: false,
        errorMsg: READINESS_MESSAGES.audiencesBuilding,
        reason: 'audience engine: first build running',
      });
      // A call made meanwhile is answered once the engine is there, not refused.
      let answered = false;
      const call = fetch(`${url}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'nobody@test.local', password: 'whatever-it-is' }),
      }).then((response) => {
        answered = true;
        return response.status;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      await blocker.query('COMMIT');
      expect(await call).toBe(401);
      await expect.poll(async () => (await fetch(`${url}/ready`, OPERATOR)).status, { timeout: 20_000 }).toBe(200);
    } finally {
      await blocker.end();
    }
  });

  it('with local storage, /ready warns once another instance uses the same database', async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const handle of handles.splice(0)) await handle.close();
    const storage = (dir: string) => ({ storage: { kind: 'local' as const, dir } });
    const first = await start(storage(`/tmp/bo-ready-${process.pid}-a`));
    const alone = await (await fetch(`${first.url}/ready`, OPERATOR)).json();
    expect(alone.warnings).toEqual([
      {
        name: 'storage',
        errorMsg: READINESS_MESSAGES.localStorageOnPostgres,
        reason: 'local storage folder on a database several instances may share',
      },
    ]);
    await start(storage(`/tmp/bo-ready-${process.pid}-b`));
    const shared = await fetch(`${first.url}/ready`, OPERATOR);
    // A warning, not a failure: the instance still serves (docs/operations.md says why).
    expect(shared.status).toBe(200);
    expect((await shared.json()).warnings).toEqual([
      {
        name: 'storage',
        errorMsg: READINESS_MESSAGES.localStorageShared(1),
        reason: 'local storage folder while 1 other instance(s) use this database',
      },
    ]);
    // A folder every instance mounts, said so (compose.yaml: BACKOFFICE_STORAGE_SHARED=true): nothing to warn of.
    const mounted = await start({ storage: { kind: 'local' as const, dir: `/tmp/bo-ready-${process.pid}-a`, shared: true } });
    expect((await (await fetch(`${mounted.url}/ready`, OPERATOR)).json()).warnings ?? []).toEqual([]);
  });
});

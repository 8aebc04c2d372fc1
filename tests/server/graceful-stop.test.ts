import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { rows } from '../../src-server/db/rows';
import { throwAwayPostgresDatabase } from '../helpers/database';

/**
 * Two team-server processes (`npm run server`, as an operator runs them) on one PostgreSQL database and one shared
 * storage folder. SIGTERM stops one in the middle of a push campaign, then of a CSV import: it exits cleanly (its
 * in-flight work finished or released at a batch boundary) and the other instance finishes each exactly once.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const root = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { username: 'admin@stop.test', password: 'an admin passphrase for stops' };
const INGEST_TOKEN = 'graceful-stop-ingest-token';

interface Instance {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describe.skipIf(!postgresUrl)('graceful stop of one of two instances', () => {
  let database: { url: string; drop(): Promise<void> };
  let handle: DatabaseHandle;
  let storageDir: string;
  const instances: Instance[] = [];

  async function startInstance(): Promise<Instance> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/cli.ts'], {
      cwd: root,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        BACKOFFICE_ADMIN_EMAIL: ADMIN.username,
        BACKOFFICE_ADMIN_PASSWORD: ADMIN.password,
        BACKOFFICE_INGEST_TOKEN: INGEST_TOKEN,
        // One folder both instances mount, as a shared volume would be: the import's file is read by either.
        BACKOFFICE_STORAGE_DIR: storageDir,
        BACKOFFICE_API_DOCS: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const url = await expect
      .poll(() => /API listening on (http:\/\/\S+)/.exec(output)?.[1], { timeout: 90_000, interval: 100 })
      .toBeTruthy()
      .then(() => /API listening on (http:\/\/\S+)/.exec(output)![1]);
    await expect.poll(async () => (await fetch(`${url}/ready`)).status, { timeout: 60_000, interval: 100 }).toBe(200);
    const instance = { child, url, output: () => output, exited };
    instances.push(instance);
    return instance;
  }

  async function call(instance: Instance, method: string, path: string, body?: unknown, token?: string) {
    const response = await fetch(`${instance.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path} ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : undefined;
  }

  const signIn = async (instance: Instance) => (await call(instance, 'POST', '/authenticate', ADMIN)).accessToken.value as string;
  const query = <T>(statement: ReturnType<typeof sql>) => rows<T>(handle.db, statement);

  /** SIGTERM: the process must end by itself, cleanly, well before a container runtime's 10 s grace period ends. */
  async function stop(instance: Instance) {
    const asked = Date.now();
    instance.child.kill('SIGTERM');
    const { code, signal } = await instance.exited;
    expect({ code, signal }, instance.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - asked).toBeLessThan(10_000);
  }

  beforeAll(async () => {
    database = await throwAwayPostgresDatabase(postgresUrl!);
    handle = await openDatabase({ url: database.url });
    storageDir = mkdtempSync(join(tmpdir(), 'bo-stop-storage-'));
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
    await Promise.all(instances.map((instance) => instance.exited));
    await handle?.close();
    await database?.drop();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  it('a push campaign: the other instance sends the batches left, each user gets exactly one message', async () => {
    const [first, second] = [await startInstance(), await startInstance()];
    const users = Array.from({ length: 6000 }, (_, index) => ({
      externalId: `stop-${index}`,
      area: 'german',
      professionId: 12,
      title: 'STUDENT',
      os: 'Android',
      roles: ['ROLE_EXPERT'],
      pushTokens: [{ platform: 'Android', token: `stop-token-${index}` }],
    }));
    await call(first, 'POST', '/population/users', users, INGEST_TOKEN);
    const token = await signIn(first);
    const where = { area: 'german', professions: [12], specialties: [''], titles: ['STUDENT'], os: ['Android'], expert: 'experts', clause: '' };
    // Both instances follow the population: each counts the users the other was fed.
    await expect
      .poll(async () => (await call(second, 'POST', '/push/count', { where }, await signIn(second))).counter, { timeout: 20_000 })
      .toBe(6000);
    const notification = { title: 'Arrêt', body: 'Un serveur s’arrête pendant l’envoi', navigation: 'https://example.org/a', customId: 'stop01' };
    const campaign = await call(first, 'POST', '/push/campaigns', { notification, where }, token);
    const batches = async () =>
      (await query<{ count: number }>(sql`SELECT count(*)::int AS count FROM push_campaign_batches WHERE campaign_id = ${campaign.id}`))[0].count;
    await expect.poll(batches, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(1);
    expect(await batches()).toBeLessThan(6);

    await stop(first);
    await expect
      .poll(async () => (await query<{ state: string }>(sql`SELECT state FROM push_campaigns WHERE id = ${campaign.id}`))[0].state, {
        timeout: 60_000,
      })
      .toBe('done');
    const [messages] = await query<{ count: number; users: number }>(
      sql`SELECT count(*)::int AS count, count(DISTINCT user_id)::int AS users FROM push_messages WHERE campaign_id = ${campaign.id}`,
    );
    expect(messages).toEqual({ count: 6000, users: 6000 });
    const sent = await query<{ batch: number; instance: string }>(
      sql`SELECT batch, instance FROM push_campaign_batches WHERE campaign_id = ${campaign.id} ORDER BY batch`,
    );
    expect(sent.map((row) => row.batch)).toEqual([0, 1, 2, 3, 4, 5]);
    // The second instance sent what the first had not.
    expect(sent.at(-1)!.instance).toMatch(new RegExp(`:${second.child.pid}$`));
  }, 240_000);

  it('a CSV import: released by the stopping instance, run again from its file by the other, done once', async () => {
    const second = instances[1];
    const third = await startInstance();
    const token = await signIn(third);
    const count = 150_000;
    const lines = ['ID;Nom;Langue'];
    for (let n = 1; n <= count; n += 1) lines.push(`csv-stop-${n};Dr Camille ${n};${n % 2 ? 'french' : 'spanish'}`);
    const form = new FormData();
    form.append('file', new Blob([`${lines.join('\r\n')}\r\n`]), 'arret.csv');
    const uploaded = await fetch(`${third.url}/csv/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const { name: filename } = (await uploaded.json()) as { name: string };
    const mapping = [
      { header: 'ID', field: 'externalId' },
      { header: 'Nom', field: 'name' },
      { header: 'Langue', field: 'area' },
    ];
    const job = await call(third, 'POST', '/csv/import', { filename, mapping }, token);
    const progress = async () =>
      (await query<{ read: number; state: string }>(sql`SELECT rows_read AS read, state FROM csv_imports WHERE id = ${job.id}`))[0];
    // Stopped while it reads the file: some rows are staged, nothing is merged yet.
    await expect.poll(async () => (await progress()).read, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    expect((await progress()).state).toBe('running');

    await stop(third);
    expect(third.output()).toContain('CSV import released: another instance takes it over');
    await expect.poll(async () => (await progress()).state, { timeout: 120_000, interval: 200 }).toBe('done');
    expect(second.output()).toContain('CSV import taken over from a stopped instance');
    const [done] = await query<{ inserted: number; updated: number; imports: number }>(
      sql`SELECT inserted, updated, (SELECT count(*)::int FROM csv_imports) AS imports FROM csv_imports WHERE id = ${job.id}`,
    );
    // One merge committed: every row inserted once, none counted again as an update by a second run.
    expect(done).toEqual({ inserted: count, updated: 0, imports: 1 });
    const [users] = await query<{ count: number }>(sql`SELECT count(*)::int AS count FROM app_users WHERE external_id LIKE 'csv-stop-%'`);
    expect(users.count).toBe(count);
    const [staged] = await query<{ count: number }>(sql`SELECT count(*)::int AS count FROM csv_import_rows`);
    expect(staged.count).toBe(0);
  }, 240_000);
});

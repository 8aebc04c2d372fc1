import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { openDatabase } from '../../src-server/db/client';
import { rows } from '../../src-server/db/rows';

/**
 * The embedded server (`npm run server` on a PGlite folder, as the desktop app runs it) killed with SIGKILL while a
 * CSV list import is merging its chunks (each its own transaction on PGlite): some chunks are committed. The next
 * start says « rien n'a été importé », and it must be true: every user the list changed has its values back, the
 * users it created are gone, and the audience engine agrees with the table.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { username: 'admin@kill.test', password: 'an admin passphrase for kills' };
const INGEST_TOKEN = 'killed-import-ingest-token';
const EXISTING = 20_000;
const NEW = 5_000;

interface Instance {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('a list import killed mid-merge on PGlite', () => {
  let dataDir: string;
  let storageDir: string;
  const started: Instance[] = [];

  async function startInstance(): Promise<Instance> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/cli.ts'], {
      cwd: root,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
        BACKOFFICE_DATA_DIR: dataDir,
        BACKOFFICE_STORAGE_DIR: storageDir,
        BACKOFFICE_ADMIN_EMAIL: ADMIN.username,
        BACKOFFICE_ADMIN_PASSWORD: ADMIN.password,
        BACKOFFICE_INGEST_TOKEN: INGEST_TOKEN,
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
    const listening = /API listening on (http:\/\/\S+)/;
    await expect.poll(() => listening.test(output) || child.exitCode !== null, { timeout: 120_000, interval: 100 }).toBe(true);
    expect(child.exitCode, output).toBeNull();
    const url = listening.exec(output)![1];
    await expect.poll(async () => (await fetch(`${url}/ready`)).status, { timeout: 60_000, interval: 100 }).toBe(200);
    const instance = { child, url, output: () => output, exited };
    started.push(instance);
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
  const areaSize = async (instance: Instance, token: string, area: string) =>
    (await call(instance, 'POST', '/audience/size', { area, relationships: [] }, token)).size as number;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'bo-killed-import-'));
    rmSync(dataDir, { recursive: true });
    // The migrated cluster the desktop app starts from (as BACKOFFICE_PGLITE_TEMPLATE does), copied once.
    cpSync(inject('pgliteTemplateDir'), dataDir, { recursive: true });
    storageDir = mkdtempSync(join(tmpdir(), 'bo-killed-import-storage-'));
  });

  afterAll(async () => {
    for (const instance of started) if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGKILL');
    await Promise.all(started.map((instance) => instance.exited));
    for (const dir of [dataDir, storageDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('undoes the chunks committed before the kill at the next start; the job says nothing was imported, truly', async () => {
    const first = await startInstance();
    const users = Array.from({ length: EXISTING }, (_, n) => ({ externalId: `kl-${n}`, email: `kl-${n}@liste.test`, area: 'english', roles: [] }));
    for (let from = 0; from < EXISTING; from += 5000) await call(first, 'POST', '/population/users', users.slice(from, from + 5000), INGEST_TOKEN);
    const token = await signIn(first);
    expect(await areaSize(first, token, 'english')).toBe(EXISTING);

    // The list moves every user to 'spanish', renames their e-mail, and brings NEW users (their ids sort last).
    const lines = ['ID;E-mail;Langue'];
    for (let n = 0; n < EXISTING; n += 1) lines.push(`kl-${n};autre-${n}@liste.test;spanish`);
    for (let n = 0; n < NEW; n += 1) lines.push(`kl-z-${n};kl-z-${n}@liste.test;spanish`);
    const form = new FormData();
    form.append('file', new Blob([`${lines.join('\r\n')}\r\n`]), 'tuee.csv');
    const uploaded = await fetch(`${first.url}/csv/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const { name: filename } = (await uploaded.json()) as { name: string };
    const mapping = [
      { header: 'ID', field: 'externalId' },
      { header: 'E-mail', field: 'email' },
      { header: 'Langue', field: 'area' },
    ];
    const job = await call(first, 'POST', '/csv/import', { filename, mapping }, token);

    // Killed once at least one chunk is committed (written counts committed chunks), well before the last.
    let written = 0;
    while (written === 0) {
      const state = await call(first, 'GET', `/csv/import/${job.id}`, undefined, token);
      expect(state.state, JSON.stringify(state)).toBe('running');
      written = state.progress.written;
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(written).toBeLessThan(EXISTING + NEW);

    const second = await startInstance();
    const again = await signIn(second);
    const ended = await call(second, 'GET', `/csv/import/${job.id}`, undefined, again);
    expect(ended).toMatchObject({ state: 'failed', message: M.interrupted });
    // The engine was built from the users as they were.
    expect(await areaSize(second, again, 'english')).toBe(EXISTING);
    expect(await areaSize(second, again, 'spanish')).toBe(0);
    expect(second.output()).toContain('an interrupted list import undone');
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    // And the table says the same: nothing of the list is left.
    const handle = await openDatabase({ dataDir });
    try {
      const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(handle.db, query))[0].n;
      expect(
        await count(sql`SELECT count(*)::int AS n FROM app_users WHERE external_id LIKE 'kl-%' AND area = 'english' AND email LIKE 'kl-%'`),
      ).toBe(EXISTING);
      expect(await count(sql`SELECT count(*)::int AS n FROM app_users WHERE external_id LIKE 'kl-z-%' OR area = 'spanish'`)).toBe(0);
      expect(await count(sql`SELECT count(*)::int AS n FROM nodes WHERE label = 'User' AND (name LIKE 'autre-%' OR name LIKE 'kl-z-%')`)).toBe(0);
      expect(await count(sql`SELECT count(*)::int AS n FROM nodes WHERE label = 'User' AND name LIKE 'kl-%@liste.test'`)).toBe(EXISTING);
      expect(await count(sql`SELECT count(*)::int AS n FROM population_undo`)).toBe(0);
    } finally {
      await handle.close();
    }
  }, 300_000);
});

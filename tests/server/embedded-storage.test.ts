import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildTemplate } from '../../src-server/db/build-template';
import { openDatabase } from '../../src-server/db/client';
import { durablePGliteOptions } from '../../src-server/db/durable-pglite';
import { startEmbeddedServer } from '../../src-server/embedded';
import { startServer } from '../../src-server/server';

/** The modes found under `root`, as `file 644` / `folder 755` → count. */
function modes(root: string): Record<string, number> {
  const found: Record<string, number> = {};
  const walk = (path: string) => {
    const info = statSync(path);
    const key = `${info.isDirectory() ? 'folder' : 'file'} ${(info.mode & 0o777).toString(8)}`;
    found[key] = (found[key] ?? 0) + 1;
    if (info.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

/** Every file and folder under `root` whose mode lets another user read or write it. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const info = statSync(path);
    if ((info.mode & 0o077) !== 0) found.push(`${path} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

const scratch = mkdtempSync(join(tmpdir(), 'bo-storage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32' || Boolean(process.env.TEST_DATABASE_URL))('embedded database on disk', () => {
  it('keeps its folder 0700 and its files 0600, at first start and after a restart that repairs looser modes', async () => {
    const dataDir = join(scratch, 'modes', 'pglite');
    // From the migrated template, as a real first start does (and faster than initdb).
    const first = await openDatabase({ dataDir, templateDir: inject('pgliteTemplateDir') });
    await first.db.execute(sql`CREATE TABLE secret_probe (value text)`);
    await first.db.execute(sql`INSERT INTO secret_probe VALUES ('signing key')`);
    await first.close();
    expect(openToOthers(dataDir)).toEqual([]);

    // A folder made by an older version, or touched by hand, is repaired at the next start.
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'PG_VERSION'), 0o666);
    writeFileSync(join(dataDir, 'left-over.conf'), 'x', { mode: 0o644 });
    chmodSync(join(dataDir, 'left-over.conf'), 0o644);
    const second = await openDatabase({ dataDir, templateDir: inject('pgliteTemplateDir') });
    await second.db.execute(sql`INSERT INTO secret_probe VALUES ('after restart')`);
    await second.close();
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it('sets the private modes on the database files only: the process writes its other files as before', async () => {
    // A build makes the template, then the renderer and preload in the same process: those must stay readable.
    const probe = (name: string) => {
      writeFileSync(join(scratch, name), 'x');
      return statSync(join(scratch, name)).mode & 0o777;
    };
    const before = probe('before.txt');
    const template = join(scratch, 'shipped', 'pglite-template');
    await buildTemplate(template);
    // A new cluster (initdb, no template) is private from its first file.
    const fresh = await openDatabase({ dataDir: join(scratch, 'fresh', 'pglite') });
    await fresh.close();
    expect(probe('after.txt')).toBe(before);
    expect(openToOthers(join(scratch, 'fresh', 'pglite'))).toEqual([]);
    // The shipped template holds schema only: every user of the machine reads it, none but its owner writes it.
    expect(Object.keys(modes(template)).sort()).toEqual(['file 644', 'folder 755']);
    // A user's database seeded from it is private.
    const seeded = join(scratch, 'seeded', 'pglite');
    const database = await openDatabase({ dataDir: seeded, templateDir: template });
    await database.close();
    expect(openToOthers(seeded)).toEqual([]);
    // Two clusters made from scratch (initdb and every migration): about 10 s each on a loaded 2-core machine.
  }, 120_000);

  it('runs PostgreSQL with fsync on and flushes the WAL with a real fsync at every commit', async () => {
    const dataDir = join(scratch, 'durable');
    const database = await openDatabase({ dataDir, templateDir: inject('pgliteTemplateDir') });
    const settings = (await database.db.execute(
      sql`SELECT current_setting('fsync') AS fsync, current_setting('wal_sync_method') AS method`,
    )) as unknown as { rows: Record<string, string>[] };
    expect(settings.rows[0]).toEqual({ fsync: 'on', method: 'fsync' });
    await database.close();

    const counted = join(scratch, 'counted');
    cpSync(inject('pgliteTemplateDir'), counted, { recursive: true });
    const options = durablePGliteOptions(counted);
    const client = new PGlite(options);
    await client.exec('CREATE TABLE t (id serial PRIMARY KEY, v text)');
    const before = options.fs.syncCount;
    for (let i = 0; i < 20; i += 1) await client.query('INSERT INTO t (v) VALUES ($1)', [`row ${i}`]);
    // One WAL flush per commit at least; PGlite as shipped makes none.
    expect(options.fs.syncCount - before).toBeGreaterThanOrEqual(20);
    await client.close();
  });

  it('starts the embedded server from a private copy of the template, with a small buffer cache; a team server keeps the default', async () => {
    const sharedBuffers = async (database: { db: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> } }) =>
      ((await database.db.execute(sql`SELECT current_setting('shared_buffers') AS size`)) as { rows: { size: string }[] }).rows[0].size;
    const logger = pino({ level: 'silent' });
    const embeddedDir = join(scratch, 'embedded', 'pglite');
    const embedded = await startEmbeddedServer({ port: 0, dataDir: embeddedDir, templateDir: inject('pgliteTemplateDir'), logger });
    try {
      expect(await sharedBuffers(embedded.database)).toBe('32MB');
      expect((await fetch(`${embedded.url}/ready`)).status).toBe(200);
    } finally {
      await embedded.close();
    }
    expect(openToOthers(embeddedDir)).toEqual([]);
    const team = await startServer({ port: 0, dataDir: join(scratch, 'team', 'pglite'), templateDir: inject('pgliteTemplateDir'), logger });
    try {
      expect(await sharedBuffers(team.database)).toBe('128MB');
    } finally {
      await team.close();
    }
  });
});

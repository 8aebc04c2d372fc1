import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src-server/db/client';
import { durablePGliteOptions } from '../../src-server/db/durable-pglite';

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
});

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { seedAudienceDemo } from '../../src-server/features/audiences/demo';
import { AudienceEngine } from '../../src-server/features/audiences/engine/engine';
import { startServer } from '../../src-server/server';

/**
 * The audience index kept on disk between two runs on PGlite (docs/audiences.md, "Start"): read back only while the
 * database shows nothing written since the close that wrote it, never twice, never after a migration; otherwise
 * (and for a damaged file) the engine is built from the tables as before. PGlite only: PostgreSQL is followed.
 */

const scratch = mkdtempSync(join(tmpdir(), 'bo-index-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const silent = pino({ level: 'silent' });

/** Every bitmap of the index by key, as a digest: two indexes agree when these do. */
function digest(engine: AudienceEngine): Record<string, string> {
  const { everyone, attributes, ladders } = engine.index.bitmaps();
  const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const entries: [string, string][] = [['everyone', hash(everyone.serialize(true))]];
  for (const [key, bitmap] of attributes) entries.push([`a:${key}`, hash(bitmap.serialize(true))]);
  for (const [key, steps] of ladders) steps.forEach((step, index) => entries.push([`l:${key}:${index}`, hash(step.serialize(true))]));
  return Object.fromEntries(entries);
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('audience index file (PGlite)', () => {
  const dataDir = join(scratch, 'engine', 'pglite');
  const path = `${dataDir}.audience-index`;
  let database: DatabaseHandle;
  let built: AudienceEngine;
  const engine = () => new AudienceEngine(database.db, database.kind, silent);

  beforeAll(async () => {
    database = await openDatabase({ dataDir, templateDir: inject('pgliteTemplateDir') });
    await seedAudienceDemo(database.db, undefined, { users: 300, events: 2_500 });
    built = engine();
    await built.rebuild();
  }, 120_000);
  afterAll(() => database?.close());

  it('reads back the very index it wrote, with the definitions from the tables', async () => {
    expect(await built.saveTo(path)).toBeGreaterThan(0);
    const restored = engine();
    const answer = await restored.restoreFrom(path);
    expect(answer?.users).toBe(300);
    expect(digest(restored)).toEqual(digest(built));
    expect(restored.status.built).toBe(true);
    const ids = (await database.db.execute(sql`SELECT id FROM audiences ORDER BY id`)) as unknown as { rows: { id: number }[] };
    expect(ids.rows.length).toBeGreaterThan(0);
    for (const { id } of ids.rows) expect(restored.audience(id)).toEqual(built.audience(id));
  });

  it('takes a file once: a start that ends without a close (a crash) leaves the next one to build', async () => {
    await built.saveTo(path);
    expect(await engine().restoreFrom(path)).toBeDefined();
    expect(await engine().restoreFrom(path)).toBeUndefined();
  });

  it('does not take a file when anything was written after it, even by another program', async () => {
    await built.saveTo(path);
    await database.db.execute(sql`INSERT INTO app_users (external_id, email) VALUES ('written-after', 'after@example.org')`);
    expect(await engine().restoreFrom(path)).toBeUndefined();
    // The token is gone too: the file is not taken later either.
    expect(await engine().restoreFrom(path)).toBeUndefined();
    const rebuilt = engine();
    await rebuilt.rebuild();
    expect(rebuilt.index.userCount).toBe(301);
    built = rebuilt;
  });

  it('refuses a damaged file, and a missing one is no error', async () => {
    await built.saveTo(path);
    truncateSync(path, statSync(path).size - 3);
    await expect(engine().restoreFrom(path)).rejects.toThrow(/cut short/);
    rmSync(path);
    expect(await engine().restoreFrom(path)).toBeUndefined();
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('a server on PGlite across restarts', () => {
  it('writes the index at its close and reads it at the next start; a damaged file only means a build', async () => {
    const dataDir = join(scratch, 'server', 'pglite');
    const logs: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line).msg as string) });
    const start = () =>
      startServer({
        dataDir,
        templateDir: inject('pgliteTemplateDir'),
        port: 0,
        logger,
        adminEmail: 'admin@example.org',
        adminPassword: 'Un mot de passe long 1',
      });

    const first = await start();
    await first.close();
    expect(logs).toContain('audience engine built');
    expect(logs).toContain('audience engine written to its file');
    expect(existsSync(`${dataDir}.audience-index`)).toBe(true);

    logs.length = 0;
    const second = await start();
    expect(logs).toContain('audience engine read from its file');
    await second.close();

    truncateSync(`${dataDir}.audience-index`, 10);
    logs.length = 0;
    const third = await start();
    expect(logs).toContain('audience engine built');
    await third.close();
  }, 120_000);
});

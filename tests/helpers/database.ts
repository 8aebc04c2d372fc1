import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';

/**
 * A new database on the PostgreSQL server of TEST_DATABASE_URL, and a way to drop it: empty, or a copy of a
 * migrated `template` (the run's, see postgres-template.ts).
 */
export async function throwAwayPostgresDatabase(serverUrl: string, template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bo_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE "${template}"` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

let templateDump: Promise<Blob | undefined> | undefined;

/** The migrated template built by the global setup (tests/helpers/global-setup.ts), read once per worker. */
function pgliteTemplate(): Promise<Blob | undefined> {
  templateDump ??= (async () => {
    const path = inject('pgliteTemplateDump');
    return path ? new Blob([await readFile(path)]) : undefined;
  })();
  return templateDump;
}

/**
 * A fresh database for one test: in-memory PGlite loaded from the migrated template (about 0.5 s instead of an
 * initdb and the migrations, about 5 s), or, when TEST_DATABASE_URL points at a PostgreSQL server, a new
 * database copied from its migrated template and dropped on close.
 */
export async function freshDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDatabase({ templateDump: await pgliteTemplate() });
  // A copy of the run's migrated template: opening it still checks that no migration is pending.
  const database = await throwAwayPostgresDatabase(serverUrl, inject('postgresTemplate') || undefined);
  const handle = await openDatabase({ url: database.url });
  return {
    ...handle,
    async close() {
      await handle.close();
      await database.drop();
    },
  };
}

import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import * as schema from './schema';
import { seedDataDirFromTemplate } from './template';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgresql';

/** The driver under a Database, for what drizzle does not do (COPY): node-postgres' pool, or the PGlite instance. */
export function driverOf(db: Database): pg.Pool | PGlite {
  return (db as unknown as { $client: pg.Pool | PGlite }).$client;
}

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: DatabaseKind;
  /** The SQL migrations applied at open (GET /ready compares the database's with their journal). */
  readonly migrationsFolder: string;
  close(): Promise<void>;
  /** PGlite only: the cluster as a tar file, which `templateDump` loads back (the tests' template). */
  dumpDataDir?(): Promise<Blob>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data directory; when absent PGlite lives in memory (tests). */
  dataDir?: string;
  /**
   * PGlite on disk: the folder 0700 and its files 0600 (default). False for the shipped template, which holds
   * schema only and is read by every user of the machine.
   */
  privateFiles?: boolean;
  /** Where the drizzle-kit migrations are; defaults to the folder beside this file. */
  migrationsFolder?: string;
  /** A migrated PGlite cluster copied into an empty dataDir instead of running initdb (see template.ts). */
  templateDir?: string;
  /** An in-memory PGlite started from this dump of a migrated cluster (`dumpDataDir`) instead of an initdb. */
  templateDump?: Blob;
  /**
   * PGlite on disk: its buffer cache (PostgreSQL's shared_buffers, 128MB unless said). The whole cache is set up at
   * every start, about 3 ms a megabyte: the desktop's embedded database asks for less (src-server/embedded.ts).
   */
  sharedBuffers?: `${number}MB`;
  /**
   * Told about errors of idle PostgreSQL connections (server restart, connection killed by an administrator).
   * The pool drops such a connection and opens another on the next query; without a listener, node-postgres
   * would crash the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

export const defaultMigrationsFolder = () => fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * The name every connection of this pool shows in pg_stat_activity: instances of the API on one database find each
 * other by it (src-server/ops/instances.ts), and a database administrator sees whose connections they are.
 */
export const APPLICATION_NAME_PREFIX = 'backoffice-api ';
const applicationName = () => `${APPLICATION_NAME_PREFIX}${randomBytes(4).toString('hex')} ${hostname()}`.slice(0, 63);

/** Opens the database and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsFolder ?? defaultMigrationsFolder();
  if (options.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.url, max: 10, application_name: applicationName() });
    pool.on('error', options.onIdleConnectionError ?? (() => undefined));
    const db = drizzle(pool, { schema });
    // Several API instances may start together on one database: one migrates, the others wait.
    const lockClient = await pool.connect();
    try {
      await lockClient.query('SELECT pg_advisory_lock(7201001)');
      await migrate(db, { migrationsFolder });
    } finally {
      await lockClient.query('SELECT pg_advisory_unlock(7201001)').catch(() => undefined);
      lockClient.release();
    }
    return { db: db as unknown as Database, kind: 'postgresql', migrationsFolder, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { durablePGliteOptions, makePrivateTree } = await import('./durable-pglite');
  const privateFiles = options.privateFiles ?? true;
  if (options.dataDir) {
    // The folder holds the signing key and password hashes: the user's only (README, security).
    mkdirSync(dirname(options.dataDir), { recursive: true });
    const seeded = await seedDataDirFromTemplate(options.dataDir, options.templateDir, privateFiles);
    // A copy of the template is made private as it is copied; a folder from before is checked and repaired.
    if (privateFiles && !seeded) {
      mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
      makePrivateTree(options.dataDir);
    }
  }
  // pg_trgm backs the term searches' trigram indexes (migration 0010); PGlite ships it as a loadable bundle.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const extensions = { pg_trgm };
  const client = options.dataDir
    ? new PGlite({ ...durablePGliteOptions(options.dataDir, privateFiles, options.sharedBuffers), extensions })
    : new PGlite(options.templateDump ? { loadDataDir: options.templateDump, extensions } : { extensions });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    migrationsFolder,
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const migrationsFolder = join(root, 'src-server/db/migrations');

/**
 * Where the dump of a migrated PGlite cluster lives, named after the migrations it holds: a new migration means
 * a new file, and an unchanged set reuses the one built by an earlier run.
 */
export function templateDumpPath(): string {
  return join(root, '.data/test-template', `pglite-${migrationsHash()}.tar`);
}

/** The migrations' own digest: a template built from other migrations is never taken for this one. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Builds the dump once (an initdb and every migration, about 5 s here); every test database then loads it. */
export async function ensureTemplateDump(): Promise<string> {
  const path = templateDumpPath();
  if (existsSync(path)) return path;
  const { openDatabase } = await import('../../src-server/db/client');
  const handle = await openDatabase({ migrationsFolder });
  const dump = await handle.dumpDataDir!();
  await handle.close();
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.partial-${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  return path;
}

/**
 * The same template as a PGlite data folder, for tests that start the server on a folder as `npm run web` and
 * the desktop app do (startServer's templateDir). Unpacked from the dump, once per set of migrations.
 */
export async function ensureTemplateDir(dumpPath: string): Promise<string> {
  const dir = dumpPath.replace(/\.tar$/, '');
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite(partial, { loadDataDir: new Blob([readFileSync(dumpPath)]) });
  await client.waitReady;
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return dir;
}

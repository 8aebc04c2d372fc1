import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A new PGlite cluster costs an initdb (about 5 s on a 2-core machine); copying an initialised, migrated one
 * costs about 0.2 s. The template holds schema only: no account, no signing key (each installation makes its
 * own at first start). Pending migrations still apply after the copy.
 */
export function hasTemplate(templateDir: string | undefined): templateDir is string {
  return Boolean(templateDir && existsSync(join(templateDir, 'PG_VERSION')));
}

/** Seeds an absent or empty data folder from the template; returns whether it did. */
export function seedDataDirFromTemplate(dataDir: string, templateDir: string | undefined): boolean {
  if (!hasTemplate(templateDir)) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  mkdirSync(dirname(dataDir), { recursive: true });
  const partial = `${dataDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(templateDir, partial, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  // A crash mid-copy leaves only the .partial folder, never a half cluster under the real name.
  renameSync(partial, dataDir);
  return true;
}

/** Builds the template: an initialised cluster with every migration applied. */
export async function buildTemplate(templateDir: string, migrationsFolder?: string): Promise<void> {
  const { openDatabase } = await import('./client');
  const partial = `${templateDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(partial), { recursive: true });
  const handle = await openDatabase({ dataDir: partial, migrationsFolder });
  await handle.close();
  rmSync(templateDir, { recursive: true, force: true });
  mkdirSync(dirname(templateDir), { recursive: true });
  renameSync(partial, templateDir);
}

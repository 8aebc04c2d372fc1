import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A new PGlite cluster costs an initdb (about 5 s on a 2-core machine); copying an initialised, migrated one
 * costs under a second. The template holds schema only: no account, no signing key (each installation makes
 * its own at first start). Pending migrations still apply after the copy.
 */
export function hasTemplate(templateDir: string | undefined): templateDir is string {
  return Boolean(templateDir && existsSync(join(templateDir, 'PG_VERSION')));
}

/**
 * Seeds an absent or empty data folder from the template; returns whether it did. Asynchronous on purpose: the
 * web host serves the login page from the same process meanwhile.
 */
export async function seedDataDirFromTemplate(dataDir: string, templateDir: string | undefined): Promise<boolean> {
  if (!hasTemplate(templateDir)) return false;
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) return false;
  await mkdir(dirname(dataDir), { recursive: true });
  const partial = `${dataDir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  // Copied into a folder of the user's alone: the template's files are readable by all until made private.
  await mkdir(partial, { mode: 0o700 });
  await cp(templateDir, partial, { recursive: true });
  await rm(dataDir, { recursive: true, force: true });
  // A crash mid-copy leaves only the .partial folder, never a half cluster under the real name.
  await rename(partial, dataDir);
  return true;
}

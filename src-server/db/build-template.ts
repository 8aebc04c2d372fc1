import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDatabase } from './client';
import { makeReadableTree } from './durable-pglite';

/**
 * Builds the template: an initialised cluster with every migration applied. Its files are readable by all and
 * writable by the owner (it holds schema only, and is shipped in the app for every user); a copy made for a user's data is
 * made private when it is opened (client.ts).
 */
export async function buildTemplate(templateDir: string, migrationsFolder?: string): Promise<void> {
  const partial = `${templateDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(partial), { recursive: true });
  const handle = await openDatabase({ dataDir: partial, migrationsFolder, privateFiles: false });
  await handle.close();
  makeReadableTree(partial);
  rmSync(templateDir, { recursive: true, force: true });
  mkdirSync(dirname(templateDir), { recursive: true });
  renameSync(partial, templateDir);
}

import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDatabase } from './client';

/** Builds the template: an initialised cluster with every migration applied. */
export async function buildTemplate(templateDir: string, migrationsFolder?: string): Promise<void> {
  const partial = `${templateDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(partial), { recursive: true });
  const handle = await openDatabase({ dataDir: partial, migrationsFolder });
  await handle.close();
  rmSync(templateDir, { recursive: true, force: true });
  mkdirSync(dirname(templateDir), { recursive: true });
  renameSync(partial, templateDir);
}

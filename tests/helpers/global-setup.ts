import type { TestProject } from 'vitest/node';
import { ensureTemplateDir, ensureTemplateDump } from './pglite-template';

/** Once per run: the migrated PGlite template that every test database starts from (tests/helpers/database.ts). */
export default async function setup(project: TestProject): Promise<void> {
  const dump = await ensureTemplateDump();
  project.provide('pgliteTemplateDump', dump);
  project.provide('pgliteTemplateDir', await ensureTemplateDir(dump));
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite cluster as a tar file, loaded by every in-memory test database. */
    pgliteTemplateDump: string;
    /** The same cluster as a data folder, for startServer({ templateDir }). */
    pgliteTemplateDir: string;
  }
}

import type { TestProject } from 'vitest/node';
import { ensureTemplateDir, ensureTemplateDump } from './pglite-template';
import { ensurePostgresTemplate } from './postgres-template';

/**
 * Once per run: the migrated PGlite template that every test database starts from (tests/helpers/database.ts), and
 * with TEST_DATABASE_URL its PostgreSQL counterpart.
 */
export default async function setup(project: TestProject): Promise<void> {
  const dump = await ensureTemplateDump();
  project.provide('pgliteTemplateDump', dump);
  project.provide('pgliteTemplateDir', await ensureTemplateDir(dump));
  const serverUrl = process.env.TEST_DATABASE_URL;
  project.provide('postgresTemplate', serverUrl ? await ensurePostgresTemplate(serverUrl) : '');
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite cluster as a tar file, loaded by every in-memory test database. */
    pgliteTemplateDump: string;
    /** The same cluster as a data folder, for startServer({ templateDir }). */
    pgliteTemplateDir: string;
    /** With TEST_DATABASE_URL, the migrated database every test database is copied from. */
    postgresTemplate: string;
  }
}

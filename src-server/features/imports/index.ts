import type { importOperations } from '@shared/contract/imports';
import { IMPORT_MESSAGES } from '@shared/messages/imports';
import type { ServerContext } from '../../context';
import type { Handlers } from '../../operations';
import { fileHandlers } from './handlers/files';
import { jobHandlers } from './handlers/jobs';
import { failInterruptedJobs } from './queries';
import { ImportRunner } from './runner';

export type ImportHandlers = Pick<Handlers, keyof typeof importOperations>;

/**
 * The CSV list import (issue 25): CSV files in the document storage's CSV area, their preview, and import jobs
 * that enrich the app-user population through the audiences feature (featureServices().populationImport).
 */
export async function importsFeature(context: ServerContext): Promise<ImportHandlers> {
  // The embedded database has one server: a job it shows as running was cut by its last stop.
  if (context.dbKind !== 'postgresql') await failInterruptedJobs(context.db, IMPORT_MESSAGES.interrupted);
  const runner = new ImportRunner(context, () => {});
  context.onClose(() => runner.close());
  return { ...fileHandlers(context), ...jobHandlers(context, runner) };
}

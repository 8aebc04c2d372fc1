import type { ImportJob, importOperations } from '@shared/contract/imports';
import type { JobEvent } from '@shared/jobs';
import { IMPORT_MESSAGES } from '@shared/messages/imports';
import { IMPORT_JOB_KIND } from '@shared/rules/imports';
import type { ServerContext } from '../../context';
import type { PopulationImport } from '../../feature-services';
import { defineFeature } from '../../feature-wiring';
import type { Handlers } from '../../operations';
import { fileHandlers } from './handlers/files';
import { jobHandlers } from './handlers/jobs';
import { sweepExpiredLeases } from '../../jobs/lease';
import { endExpiredJobs, failInterruptedJobs, runningImports } from './queries';
import { ImportClaims } from './claims';
import { resumeOrphanedImports } from './resume';
import { ImportRunner } from './runner';

function importEvent(job: ImportJob, at: number): JobEvent {
  return {
    kind: IMPORT_JOB_KIND,
    id: String(job.id),
    state: job.state,
    progress: { ...job.progress, merging: job.phase === 'merging' ? 1 : 0, inserted: job.inserted, updated: job.updated, errorCount: job.errorCount },
    ...(job.message ? { message: job.message } : {}),
    at,
  };
}

export type ImportHandlers = Pick<Handlers, keyof typeof importOperations>;

/**
 * The CSV list import (docs/imports.md): CSV files in the document storage's CSV area, their preview, and import jobs
 * that enrich the app-user population through the audiences feature (its populationImport).
 */
export const importsFeature = defineFeature({
  name: 'imports',
  needs: ['populationImport'],
  provides: [],
  build: async (context, { populationImport }) => ({ handlers: await importHandlersOf(context, populationImport) }),
});

async function importHandlersOf(context: ServerContext, populationImport: PopulationImport): Promise<ImportHandlers> {
  // The embedded database has one server: a job it shows as running was cut by its last stop.
  if (context.dbKind !== 'postgresql') await failInterruptedJobs(context.db, IMPORT_MESSAGES.interrupted);
  // Progress pushed to the pages of whoever may import (the job events stream); the page reads errors with GET.
  const onPostgres = context.dbKind === 'postgresql';
  const runner = new ImportRunner(
    context,
    populationImport,
    (job, accountId) =>
      context.jobEvents.publish(importEvent(job, context.clock.now().getTime()), {
        ...(accountId === null ? {} : { accountId }),
        roles: ['CSM', 'CSM_LEAD'],
      }),
    onPostgres ? new ImportClaims(context.db) : undefined,
  );
  // Several instances: an import whose instance stopped is taken over by another (claims.ts).
  const resumer = onPostgres ? resumeOrphanedImports(context, runner, context.config.importResumeMs ?? 2000) : undefined;
  context.onClose(async () => {
    await resumer?.stop();
    await runner.close();
  });
  context.metrics.gauge('backoffice_imports_running', 'CSV imports queued or running, on every instance.', () => runningImports(context.db));
  // A job whose instance died and that no instance took over within its lease is failed, its stage dropped.
  sweepExpiredLeases(context, 'csv imports', () =>
    endExpiredJobs(context.db, { state: 'failed', message: IMPORT_MESSAGES.interrupted }, runner.liveIds()),
  );
  return { ...fileHandlers(context), ...jobHandlers(context, runner) };
}

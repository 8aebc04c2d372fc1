import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { planMapping } from '@shared/rules/imports';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { createJob, endExpiredJobs, findJob, latestJobs, requestCancel } from '../queries';
import type { ImportRunner } from '../runner';
import { csvHeaders, csvKey } from './files';

type JobHandlers = Pick<Handlers, 'imports.run' | 'imports.jobs' | 'imports.job' | 'imports.cancel'>;

/** Import jobs: start one, follow it, cancel it (from any instance: the flag is in the database). */
export function jobHandlers(context: ServerContext, runner: ImportRunner): JobHandlers {
  const { db } = context;
  const current = async (id: number) => {
    const job = runner.liveJob(id) ?? (await findJob(db, id));
    if (!job) throw new HttpError(404, M.jobNotFound);
    return job;
  };
  return {
    'imports.run': async ({ body, account }) => {
      const shape = await csvHeaders(context, body.filename);
      const planned = planMapping(shape.headers, body.mapping);
      if (!planned.ok) throw new HttpError(400, planned.message, {}, 'mapping');
      // One import at a time per server: each one holds a core and the population's write locks while it merges.
      if (runner.busy) throw new HttpError(409, M.alreadyRunning);
      const job = await createJob(db, body.filename, body.mapping, account?.id ?? null);
      runner.start(job, csvKey(body.filename), planned.plan, account?.id ?? null);
      return job;
    },

    'imports.jobs': async () => {
      const jobs = await latestJobs(db, 10);
      return { jobs: jobs.map((job) => runner.liveJob(job.id) ?? job) };
    },

    'imports.job': async ({ params }) => current(params.id),

    'imports.cancel': async ({ params }) => {
      // Running here: stopped at once (on the embedded database the flag would wait for the merge's transaction).
      if (!runner.cancel(params.id)) {
        await current(params.id);
        // Its instance died (lease expired): no one would read the flag, so the cancel ends it here.
        const ended = await endExpiredJobs(db, { state: 'cancelled', message: M.cancelledByUser }, runner.liveIds(), params.id);
        if (!ended.length && !(await requestCancel(db, params.id))) throw new HttpError(409, M.jobFinished);
      }
      return current(params.id);
    },
  };
}

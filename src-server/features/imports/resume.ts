import { planMapping } from '@shared/rules/imports';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import { orphanedImports } from './claims';
import { csvHeaders, csvKey } from './handlers/files';
import { finishJob, findJob, jobInput } from './queries';
import type { ImportRunner } from './runner';

/**
 * On PostgreSQL, takes over the imports whose instance is gone (stopped, crashed: nobody holds their claim, see
 * claims.ts): every `intervalMs`, when this instance runs no import, the oldest one starts again from its file here.
 * Several instances may see it at once; the claim lets one run it.
 */
export function resumeOrphanedImports(context: ServerContext, runner: ImportRunner, intervalMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> = Promise.resolve();
  const look = async () => {
    if (runner.busy) return;
    const [id] = await orphanedImports(context.db);
    if (id === undefined || stopped) return;
    const [job, input] = await Promise.all([findJob(context.db, id, false), jobInput(context.db, id)]);
    if (!job || !input) return;
    try {
      const shape = await csvHeaders(context, input.filename);
      const planned = planMapping(shape.headers, input.mapping);
      if (!planned.ok) throw new HttpError(400, planned.message);
      context.logger.info({ importId: id }, 'CSV import taken over from a stopped instance');
      runner.start(job, csvKey(input.filename), planned.plan, input.accountId);
    } catch (error) {
      // The file went or changed since: the job ends here, saying why, rather than being tried forever.
      await finishJob(context.db, id, { state: 'failed', message: error instanceof HttpError ? error.message : String(error) });
    }
  };
  const tick = () => {
    looking = look()
      .catch((error) => context.logger.warn({ err: error }, 'CSV imports: looking for imports to take over failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await looking;
    },
  };
}

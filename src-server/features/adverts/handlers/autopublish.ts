import type { Handlers } from '../../../operations';
import type { AutopublishJob } from '../autopublish';

export type AutopublishHandlers = Pick<Handlers, 'autopublish.report'>;

/** The autopublish job's last runs (docs/content.md, Scheduling). */
export function autopublishHandlers(job: AutopublishJob): AutopublishHandlers {
  return { 'autopublish.report': async () => job.report() };
}

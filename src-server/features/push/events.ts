import type { PushCampaign } from '@shared/contract/push';
import { PUSH_JOB_KIND } from '@shared/rules/push';
import type { ServerContext } from '../../context';

/** A campaign's progress as a job event (shared interfaces B), for the push pages of CONTENT_CREATOR_LEAD (and ADMIN). */
export function publishCampaign(
  context: ServerContext,
  campaign: Pick<PushCampaign, 'id' | 'state' | 'done' | 'iterations' | 'total' | 'sent' | 'failed'> & { error?: string | null },
): void {
  context.jobEvents.publish(
    {
      kind: PUSH_JOB_KIND,
      id: String(campaign.id),
      state: campaign.state,
      progress: { done: campaign.done, iterations: campaign.iterations, total: campaign.total, sent: campaign.sent, failed: campaign.failed },
      ...(campaign.error ? { message: campaign.error } : {}),
      at: context.clock.now().getTime(),
    },
    { roles: ['CONTENT_CREATOR_LEAD'] },
  );
}

import type { ServerContext } from '../../context';
import type { PopulationSelection } from '../../feature-services';
import { defineFeature, type Needs } from '../../feature-wiring';
import { pushHandlers, type PushHandlers } from './handlers/campaigns';
import { publishCampaign } from './events';
import { PushJob } from './job';
import { pendingBatches } from './queries';
import { fcmFromEnvironment } from './providers/fcm';
import { outboxProvider, type PushProvider } from './providers/provider';

/**
 * Push campaigns (docs/push.md): counts on the audience engine's index, campaigns sent by the server's job in batches
 * (exactly once, resumed after a restart), through the outbox or FCM HTTP v1 (PUSH_PROVIDER=fcm).
 */
export const pushFeature = defineFeature({
  name: 'push',
  needs: ['population'],
  provides: [],
  build: async (context, needs) => ({ handlers: await pushHandlersOf(context, needs) }),
});

async function pushHandlersOf(context: ServerContext, needs: Needs<'population'>): Promise<PushHandlers> {
  const population = (): PopulationSelection => needs.population;
  const choice = context.config.pushProvider ?? process.env.PUSH_PROVIDER ?? 'outbox';
  const provider: PushProvider = choice === 'fcm' ? await fcmFromEnvironment(process.env) : outboxProvider;
  const job = new PushJob(context, provider, (userIds) => population().pushTokensRemoved(userIds));
  jobs.set(context, job);
  // Progress pushed to the pages of everyone who may open the push page (the page reads the campaign when it opens).
  job.listeners.add((outcome) =>
    publishCampaign(context, {
      id: outcome.campaignId,
      state: outcome.state,
      done: outcome.done,
      iterations: outcome.iterations,
      total: outcome.total,
      sent: outcome.sentTotal,
      failed: outcome.failedTotal,
      error: outcome.error,
    }),
  );
  const batches = context.metrics.counter('backoffice_push_batches_total', 'Push batches this instance sent, or whose attempt failed.', ['outcome']);
  job.listeners.add((outcome) => batches.inc({ outcome: outcome.error ? 'failed' : 'sent' }));
  context.metrics.gauge('backoffice_push_batches_pending', 'Push batches still to send, over every queued or running campaign.', () =>
    pendingBatches(context.db),
  );
  job.start(context.config.pushIntervalMs ?? 1000);
  context.onClose(() => job.stop());
  return pushHandlers(context, population, job);
}

const jobs = new WeakMap<ServerContext, PushJob>();

/** The job of a server (tests drive it with a controlled clock and pushIntervalMs 0). */
export function pushJobOf(context: ServerContext): PushJob | undefined {
  return jobs.get(context);
}

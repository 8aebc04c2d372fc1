import type { pushOperations } from '@shared/contract/push';
import { PUSH_MESSAGES } from '@shared/messages/push';
import { PUSH_BATCH_SIZE, pushIterations, targetingCriteria, type PushWhere } from '@shared/rules/push';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { PopulationSelection } from '../../../feature-services';
import type { Handlers } from '../../../operations';
import { clauseCriteriaOf } from '../clause';
import { publishCampaign } from '../events';
import type { PushJob } from '../job';
import { campaignSummary } from '../summary';
import { campaignBatches, campaignById, cancelCampaign, insertCampaign, latestCampaigns, toCampaign } from '../queries';

export type PushHandlers = Pick<Handlers, keyof typeof pushOperations>;

/** The push calls (platform.md §7 Push count and Push publish, owned here; the campaign history, docs/push.md). */
export function pushHandlers(context: ServerContext, population: () => PopulationSelection, job: PushJob): PushHandlers {
  const { db } = context;
  const criteriaOf = (where: PushWhere) => {
    if (!where.area.trim()) throw new HttpError(400, PUSH_MESSAGES.invalidArea, {}, 'where.area');
    return targetingCriteria(where, clauseCriteriaOf(where.clause ?? ''));
  };

  const found = async (id: number) => {
    const row = await campaignById(db, id);
    if (!row) throw new HttpError(404, PUSH_MESSAGES.campaignNotFound);
    return row;
  };

  return {
    'push.count': async ({ body }) => ({ counter: population().count(criteriaOf(body.where)) }),
    'push.send': async ({ body, account }) => {
      const criteria = criteriaOf(body.where);
      const recipients = population().members(criteria);
      const total = population().count(criteria);
      if (total === 0) throw new HttpError(400, PUSH_MESSAGES.nothingToSend);
      const row = await insertCampaign(db, {
        createdBy: account?.id ?? null,
        createdAt: context.clock.now().getTime(),
        ...body.notification,
        target: body.where,
        summary: campaignSummary(body.where),
        total,
        batchSize: PUSH_BATCH_SIZE,
        iterations: pushIterations(total, PUSH_BATCH_SIZE),
        recipients,
        provider: job.provider.name,
      });
      job.wake();
      const campaign = toCampaign(row);
      publishCampaign(context, campaign);
      return campaign;
    },
    'push.list': async () => ({ items: (await latestCampaigns(db, 100)).map(toCampaign) }),
    'push.get': async ({ params }) => {
      const row = await found(params.id);
      return { ...toCampaign(row), where: row.target, batches: await campaignBatches(db, params.id) };
    },
    'push.cancel': async ({ params }) => {
      const row = await cancelCampaign(db, params.id, context.clock.now().getTime());
      if (row) {
        const campaign = toCampaign(row);
        publishCampaign(context, campaign);
        return campaign;
      }
      await found(params.id);
      throw new HttpError(409, PUSH_MESSAGES.notCancellable);
    },
  };
}

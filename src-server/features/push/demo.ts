import { sql } from 'drizzle-orm';
import { PUSH_BATCH_SIZE, PUSH_PAUSE_MS, pushIterations, targetingCriteria, type PushWhere } from '@shared/rules/push';
import type { ServerContext } from '../../context';
import { rows } from '../../db/rows';
import type { PopulationSelection } from '../../feature-services';
import { clauseCriteriaOf } from './clause';
import type { PushJob } from './job';
import { outboxProvider } from './providers/provider';
import { cancelCampaign, insertCampaign } from './queries';
import { campaignSummary } from './summary';

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface DemoCampaign {
  /** When it was created, before the seeding. */
  ago: number;
  notification: { title: string; body: string; navigation: string; customId: string };
  where: PushWhere;
  /** Stopped after this many batches ('Arrêter l'envoi'); sent whole otherwise. */
  cancelledAfter?: number;
}

const everyone = { specialties: [''], titles: [''], os: [''] } as const;

/** Three campaigns of the last week: two sent whole, one stopped after its first batch. */
const DEMO_CAMPAIGNS: DemoCampaign[] = [
  {
    ago: 6 * DAY + 2 * HOUR,
    notification: {
      title: 'Hypertension : les nouvelles recommandations',
      body: 'La HAS actualise la prise en charge de l’hypertension artérielle. Les points clés en 3 minutes.',
      navigation: 'app://article?id=recommandations-hta-2026',
      customId: 'custom01',
    },
    where: { area: 'french', professions: [2], ...everyone, expert: 'all', clause: '' },
  },
  {
    ago: 2 * DAY + 5 * HOUR,
    notification: {
      title: 'Webinaire cardiologie jeudi 18 h',
      body: 'Insuffisance cardiaque : échangez avec nos experts en direct.',
      navigation: 'https://www.exemple.fr/webinaires/cardiologie',
      customId: 'webinaire-cardio',
    },
    where: { area: 'french', professions: [], ...everyone, expert: 'experts', clause: "feed = 'Cardiologie'" },
  },
  {
    ago: DAY + 3 * HOUR,
    notification: {
      title: 'Rupture de stock : amoxicilline',
      body: 'Les alternatives recommandées, en officine et à l’hôpital.',
      navigation: 'app://article?id=rupture-amoxicilline',
      customId: 'custom01',
    },
    where: { area: 'french', professions: [3, 4, 10], ...everyone, expert: 'all', clause: '' },
    cancelledAfter: 1,
  },
];

/**
 * The demo workspace's campaign history (`--demo`), so the push page opens on a living history: campaigns of the
 * past week sent by the demo CONTENT_CREATOR_LEAD to the demo population, through the job's own batches (messages,
 * batches 1.8 s apart, counters) with the outbox whatever PUSH_PROVIDER says, one stopped after its first batch.
 * Each campaign is written whole in one transaction, so the running job never sees it half sent. Only while no
 * campaign exists, once the demo population is in the engine.
 */
export async function seedPushDemo(context: ServerContext, population: PopulationSelection, job: PushJob): Promise<number> {
  const { db } = context;
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM push_campaigns`);
  if (count > 0) return 0;
  const [lead] = await rows<{ id: number }>(db, sql`SELECT id FROM accounts WHERE 'CONTENT_CREATOR_LEAD' = ANY(roles) ORDER BY id LIMIT 1`);
  const now = context.clock.now().getTime();
  let seeded = 0;
  for (const demo of DEMO_CAMPAIGNS) {
    const criteria = targetingCriteria(demo.where, clauseCriteriaOf(demo.where.clause ?? ''));
    const total = population.count(criteria);
    if (total === 0) continue;
    const createdAt = now - demo.ago;
    const iterations = pushIterations(total, PUSH_BATCH_SIZE);
    await db.transaction(async (tx) => {
      const campaign = await insertCampaign(tx, {
        createdBy: lead?.id ?? null,
        createdAt,
        ...demo.notification,
        target: demo.where,
        summary: campaignSummary(demo.where),
        total,
        batchSize: PUSH_BATCH_SIZE,
        iterations,
        recipients: population.members(criteria),
        provider: outboxProvider.name,
      });
      const batches = Math.min(iterations, demo.cancelledAfter ?? iterations);
      for (let batch = 0; batch < batches; batch += 1) {
        await job.sendNextBatchIn(tx, campaign.id, createdAt + batch * PUSH_PAUSE_MS, outboxProvider);
      }
      if (demo.cancelledAfter !== undefined) await cancelCampaign(tx, campaign.id, createdAt + batches * PUSH_PAUSE_MS - 600);
    });
    seeded += 1;
  }
  return seeded;
}

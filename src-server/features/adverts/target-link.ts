import { sql } from 'drizzle-orm';
import type { TargetLink } from '@shared/contract/adverts';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { HttpError } from '../../errors';
import { rows, type Executor } from './store';

/**
 * Writes of the advert side of the advert ↔ target link (docs/projects.md, Targets). The link has one source of truth, the
 * target's `advert_id` (read by `targetLinks` in store.ts): creating an advert from a target, deleting or converting
 * an advert and starting its campaign write the target row, in the advert's transaction.
 */

/**
 * Links a new advert to the target it is created from (POST /advert/create with targetId), in the creating
 * transaction. The target must exist and have no advert yet (it would lose it without a word).
 */
export async function linkNewAdvert(tx: Executor, targetId: number, advertId: number): Promise<void> {
  const [target] = await rows<{ advertId: number | null }>(tx, sql`SELECT advert_id AS "advertId" FROM targets WHERE id = ${targetId} FOR UPDATE`);
  if (!target) throw new HttpError(400, PROJECT_MESSAGES.targetNotFound, {}, 'targetId');
  if (target.advertId !== null && target.advertId !== advertId)
    throw new HttpError(409, PROJECT_MESSAGES.targetHasAdvert(target.advertId), {}, 'targetId');
  await tx.execute(sql`UPDATE targets SET advert_id = ${advertId}, updated_at = now(), version = version + 1 WHERE id = ${targetId}`);
}

/** A deleted (or converted) advert leaves its target without one, in the deleting transaction. */
export async function unlinkAdvert(tx: Executor, advertId: number): Promise<void> {
  await tx.execute(sql`UPDATE targets SET advert_id = NULL, updated_at = now(), version = version + 1 WHERE advert_id = ${advertId}`);
}

/** An advert converted back from an article takes the article's target again, when that target has no advert since. */
export async function relinkConvertedAdvert(tx: Executor, targetId: number, advertId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE targets SET advert_id = ${advertId}, updated_at = now(), version = version + 1 WHERE id = ${targetId} AND advert_id IS NULL`,
  );
}

/** What 'Démarrer la campagne' keeps on the linked target: the delay reason given and the delay's figures. */
export async function recordCampaignStart(
  tx: Executor,
  targetId: number,
  figures: { delayReason: TargetLink['delayReason']; releaseDateDiff: number | null; revenueDelayImpact: number | null },
): Promise<void> {
  await tx.execute(
    sql`UPDATE targets SET delay_reason = ${figures.delayReason}, release_date_diff = ${figures.releaseDateDiff},
          revenue_delay_impact = ${figures.revenueDelayImpact}, updated_at = now(), version = version + 1 WHERE id = ${targetId}`,
  );
}

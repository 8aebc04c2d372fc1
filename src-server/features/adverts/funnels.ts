import { sql } from 'drizzle-orm';
import type { Funnel } from '@shared/contract/adverts';
import { MESSAGES } from '@shared/messages';
import type { Database } from '../../db/client';
import { HttpError } from '../../errors';
import { bumpContentVersion, rows, type Executor } from './store';

/**
 * Campaign funnels (spec §2.8): an ordered chain of adverts. Each step after the first says how many views of the
 * previous advert a user needs (minViews) and how long after them (gracePeriodInMs) before it is served.
 */
async function funnelByUuid(db: Executor, uuid: string): Promise<Funnel | null> {
  const steps = await rows<{ id: number; name: string; minViews: number; gracePeriodInMs: string | number }>(
    db,
    sql`SELECT s.advert_id AS id, a.name, s.min_views AS "minViews", s.grace_period_ms AS "gracePeriodInMs"
        FROM funnel_steps s JOIN adverts a ON a.id = s.advert_id WHERE s.funnel_uuid = ${uuid} ORDER BY s.position`,
  );
  const [exists] = await rows(db, sql`SELECT 1 FROM funnels WHERE uuid = ${uuid}`);
  if (!exists) return null;
  return { uuid, adverts: steps.map((step) => ({ ...step, gracePeriodInMs: Number(step.gracePeriodInMs) })) };
}

async function funnelUuidOf(db: Executor, advertId: number): Promise<string | null> {
  const [step] = await rows<{ uuid: string }>(db, sql`SELECT funnel_uuid AS uuid FROM funnel_steps WHERE advert_id = ${advertId}`);
  return step?.uuid ?? null;
}

async function advertExists(db: Executor, id: number): Promise<void> {
  const [found] = await rows(db, sql`SELECT 1 FROM adverts WHERE id = ${id}`);
  if (!found) throw new HttpError(404, MESSAGES.advertNotFound);
}

/** Locks the funnel (writes to one funnel queue up) and checks that `advertId` is in it. */
async function lockFunnel(db: Executor, uuid: string, advertId: number): Promise<void> {
  const [funnel] = await rows(db, sql`SELECT 1 FROM funnels WHERE uuid = ${uuid} FOR UPDATE`);
  if (!funnel) throw new HttpError(404, MESSAGES.funnelNotFound);
  if ((await funnelUuidOf(db, advertId)) !== uuid) throw new HttpError(400, MESSAGES.advertNotInFunnel, {}, 'advertId');
}

export function funnelService(db: Database) {
  return {
    get: async (advertId: number): Promise<Funnel | null> => {
      await advertExists(db, advertId);
      const uuid = await funnelUuidOf(db, advertId);
      return uuid ? funnelByUuid(db, uuid) : null;
    },

    create: (advertId: number): Promise<Funnel> =>
      db.transaction(async (tx) => {
        await rows(tx, sql`SELECT 1 FROM adverts WHERE id = ${advertId} FOR UPDATE`).then((found) => {
          if (!found.length) throw new HttpError(404, MESSAGES.advertNotFound);
        });
        if (await funnelUuidOf(tx, advertId)) throw new HttpError(400, MESSAGES.advertAlreadyInFunnel);
        const [{ uuid }] = await rows<{ uuid: string }>(tx, sql`INSERT INTO funnels DEFAULT VALUES RETURNING uuid`);
        await tx.execute(
          sql`INSERT INTO funnel_steps (funnel_uuid, position, advert_id, min_views, grace_period_ms) VALUES (${uuid}, 0, ${advertId}, 0, 0)`,
        );
        await bumpContentVersion(tx);
        return (await funnelByUuid(tx, uuid))!;
      }),

    remove: (advertId: number, uuid: string) =>
      db.transaction(async (tx) => {
        await lockFunnel(tx, uuid, advertId);
        await tx.execute(sql`DELETE FROM funnels WHERE uuid = ${uuid}`);
        await bumpContentVersion(tx);
        return { ok: true as const };
      }),

    append: (advertId: number, body: { funnelUuid: string; newAdvertId: number; minViews?: number; gracePeriodInMs?: number }) =>
      db.transaction(async (tx) => {
        await lockFunnel(tx, body.funnelUuid, advertId);
        await rows(tx, sql`SELECT 1 FROM adverts WHERE id = ${body.newAdvertId} FOR UPDATE`).then((found) => {
          if (!found.length) throw new HttpError(404, MESSAGES.advertNotFound);
        });
        if (await funnelUuidOf(tx, body.newAdvertId)) throw new HttpError(400, MESSAGES.advertAlreadyInFunnel, {}, 'newAdvertId');
        await tx.execute(
          sql`INSERT INTO funnel_steps (funnel_uuid, position, advert_id, min_views, grace_period_ms)
              SELECT ${body.funnelUuid}, coalesce(max(position) + 1, 0), ${body.newAdvertId}, ${body.minViews ?? 1}, ${body.gracePeriodInMs ?? 0}
              FROM funnel_steps WHERE funnel_uuid = ${body.funnelUuid}`,
        );
        await bumpContentVersion(tx);
        return (await funnelByUuid(tx, body.funnelUuid))!;
      }),

    /** The views of `startAdvertId` needed before `nextAdvertId`, which must follow it directly. */
    updateMinViews: (startAdvertId: number, body: { funnelUuid: string; nextAdvertId: number; minViews: number; gracePeriodInMs?: number }) =>
      db.transaction(async (tx) => {
        await lockFunnel(tx, body.funnelUuid, startAdvertId);
        const steps = await rows<{ advertId: number }>(
          tx,
          sql`SELECT advert_id AS "advertId" FROM funnel_steps WHERE funnel_uuid = ${body.funnelUuid} ORDER BY position`,
        );
        const start = steps.findIndex((step) => step.advertId === startAdvertId);
        if (steps[start + 1]?.advertId !== body.nextAdvertId) throw new HttpError(400, MESSAGES.advertNotInFunnel, {}, 'nextAdvertId');
        await tx.execute(
          sql`UPDATE funnel_steps SET min_views = ${body.minViews} ${body.gracePeriodInMs !== undefined ? sql`, grace_period_ms = ${body.gracePeriodInMs}` : sql``}
              WHERE funnel_uuid = ${body.funnelUuid} AND advert_id = ${body.nextAdvertId}`,
        );
        await bumpContentVersion(tx);
        return (await funnelByUuid(tx, body.funnelUuid))!;
      }),
  };
}

/** Every funnel step, for decisioning: per advert, the advert before it with the views and wait it needs. */
export async function funnelPredecessors(db: Executor): Promise<Map<number, { previous: number; minViews: number; gracePeriodMs: number }>> {
  const steps = await rows<{ advertId: number; previous: number | null; minViews: number; gracePeriodMs: string | number }>(
    db,
    sql`SELECT advert_id AS "advertId", lag(advert_id) OVER (PARTITION BY funnel_uuid ORDER BY position) AS previous,
          min_views AS "minViews", grace_period_ms AS "gracePeriodMs" FROM funnel_steps`,
  );
  return new Map(
    steps
      .filter((step) => step.previous !== null)
      .map((step) => [step.advertId, { previous: step.previous!, minViews: step.minViews, gracePeriodMs: Number(step.gracePeriodMs) }]),
  );
}

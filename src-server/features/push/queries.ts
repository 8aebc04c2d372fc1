import { sql } from 'drizzle-orm';
import type { PushCampaign, PushCampaignDetail } from '@shared/contract/push';
import type { PushCampaignState } from '@shared/rules/push';
import { param, rows, type Executor } from '../../db/rows';

/** A campaign row as the job and the handlers read it (recipients apart: only the job needs them). */
export interface CampaignRow {
  id: number;
  createdByName: string;
  createdAt: string | number;
  title: string;
  body: string;
  navigation: string;
  customId: string;
  target: Record<string, unknown>;
  summary: string;
  total: number;
  batchSize: number;
  iterations: number;
  state: PushCampaignState;
  nextBatch: number;
  nextBatchAt: string | number;
  sent: number;
  failed: number;
  provider: string;
  startedAt: string | number | null;
  finishedAt: string | number | null;
  error: string | null;
}

export const campaignColumns = sql`id, created_by_name AS "createdByName", created_at AS "createdAt", title, body, navigation, custom_id AS "customId",
  target, summary, total, batch_size AS "batchSize", iterations, state, next_batch AS "nextBatch", next_batch_at AS "nextBatchAt", sent, failed,
  provider, started_at AS "startedAt", finished_at AS "finishedAt", error`;

const num = (value: string | number | null) => (value === null ? null : Number(value));

export function toCampaign(row: CampaignRow): PushCampaign {
  return {
    id: row.id,
    createdBy: row.createdByName,
    createdAt: Number(row.createdAt),
    title: row.title,
    body: row.body,
    navigation: row.navigation,
    customId: row.customId,
    summary: row.summary,
    total: row.total,
    batchSize: row.batchSize,
    iterations: row.iterations,
    done: row.nextBatch,
    sent: row.sent,
    failed: row.failed,
    state: row.state,
    provider: row.provider,
    startedAt: num(row.startedAt),
    finishedAt: num(row.finishedAt),
    error: row.error,
  };
}

export interface NewCampaign {
  createdBy: number | null;
  createdAt: number;
  title: string;
  body: string;
  navigation: string;
  customId: string;
  target: unknown;
  summary: string;
  total: number;
  batchSize: number;
  iterations: number;
  recipients: Uint8Array;
  provider: string;
}

export async function insertCampaign(db: Executor, campaign: NewCampaign): Promise<CampaignRow> {
  const [row] = await rows<CampaignRow>(
    db,
    sql`INSERT INTO push_campaigns (created_by, created_by_name, created_at, title, body, navigation, custom_id, target, summary, total, batch_size,
          iterations, recipients, state, next_batch_at, provider)
        VALUES (${campaign.createdBy}, coalesce((SELECT name FROM accounts WHERE id = ${campaign.createdBy}), ''), ${campaign.createdAt}, ${campaign.title},
          ${campaign.body}, ${campaign.navigation}, ${campaign.customId}, ${param(JSON.stringify(campaign.target))}::jsonb, ${campaign.summary},
          ${campaign.total}, ${campaign.batchSize}, ${campaign.iterations}, ${param(campaign.recipients)}::bytea, 'queued', ${campaign.createdAt},
          ${campaign.provider})
        RETURNING ${campaignColumns}`,
  );
  return row;
}

export async function campaignById(db: Executor, id: number): Promise<CampaignRow | undefined> {
  const [row] = await rows<CampaignRow>(db, sql`SELECT ${campaignColumns} FROM push_campaigns WHERE id = ${id}`);
  return row;
}

export async function latestCampaigns(db: Executor, limit: number): Promise<CampaignRow[]> {
  return rows<CampaignRow>(db, sql`SELECT ${campaignColumns} FROM push_campaigns ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
}

export async function campaignBatches(db: Executor, id: number): Promise<PushCampaignDetail['batches']> {
  const found = await rows<PushCampaignDetail['batches'][number] & { sentAt: string | number }>(
    db,
    sql`SELECT batch, sent_at AS "sentAt", users, sent, failed, instance FROM push_campaign_batches WHERE campaign_id = ${id} ORDER BY batch`,
  );
  return found.map((batch) => ({ ...batch, sentAt: Number(batch.sentAt) }));
}

/** Cancels a campaign still sending; waits for a batch in progress (its row lock), so no batch starts after it. */
export async function cancelCampaign(db: Executor, id: number, now: number): Promise<CampaignRow | undefined> {
  const [row] = await rows<CampaignRow>(
    db,
    sql`UPDATE push_campaigns SET state = 'cancelled', finished_at = ${now} WHERE id = ${id} AND state IN ('queued', 'running') RETURNING ${campaignColumns}`,
  );
  return row;
}

/** Batches left to send over every queued or running campaign (the metrics' push queue). */
export async function pendingBatches(db: Executor): Promise<number> {
  const [row] = await rows<{ pending: number }>(
    db,
    sql`SELECT coalesce(sum(iterations - next_batch), 0)::int AS pending FROM push_campaigns WHERE state IN ('queued', 'running')`,
  );
  return row?.pending ?? 0;
}

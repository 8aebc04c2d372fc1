import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import roaring from 'roaring';
import { PUSH_MAX_ATTEMPTS, PUSH_PAUSE_MS, pushRetryDelayAfter, type PushCampaignState } from '@shared/rules/push';
import type { ServerContext } from '../../context';
import { param, rows, type Executor } from '../../db/rows';
import { providerRetryAfterMs, type Delivery, type PushMessage, type PushProvider } from './providers/provider';

const { RoaringBitmap32 } = roaring;
const INSTANCE = `${hostname()}:${process.pid}`;
const dueColumns = sql`id, title, body, navigation, custom_id AS "customId", batch_size AS "batchSize", iterations, next_batch AS "nextBatch"`;
/** Recipients kept decoded per campaign (they never change once frozen); a few campaigns at most run at once. */
const RECIPIENTS_KEPT = 8;

/** What one batch did, for the caller (tests, progress events). */
export interface BatchOutcome {
  campaignId: number;
  batch: number;
  users: number;
  sent: number;
  failed: number;
  /** running also after a failed attempt that will be retried; failed once the attempts are exhausted. */
  state: Extract<PushCampaignState, 'running' | 'done' | 'failed'>;
  /** A failed attempt: its number in a row and the error (nothing of the batch was recorded). */
  attempt?: number;
  error?: string;
  /** The campaign after the batch: batches done, of how many, and its counters. */
  done: number;
  iterations: number;
  total: number;
  sentTotal: number;
  failedTotal: number;
  /** Users whose tokens the provider declared dead (removed). */
  tokensRemovedFor: number[];
}

interface DueCampaign {
  id: number;
  title: string;
  body: string;
  navigation: string;
  customId: string;
  batchSize: number;
  iterations: number;
  nextBatch: number;
}

/**
 * The push sending job (docs/push.md, platform.md §4): the server's, not the page's — closing the window or the app
 * does not stop it, and a restarted server resumes at the next unsent batch.
 *
 * Exactly once, like autopublish: each due campaign is claimed with SELECT … FOR UPDATE SKIP LOCKED in the
 * transaction that sends its next batch and records it — the messages (primary key campaign × user), the batch
 * (primary key campaign × batch) and the campaign's next batch and its time (now + 1.8 s) commit together. Another
 * instance skips the locked row and, once committed, sees the batch done and the next one not yet due. A batch that
 * fails (the provider throws) rolls back whole, then its failed attempt is recorded (the batch is due again after
 * pushRetryDelay; the PUSH_MAX_ATTEMPTS-th failure in a row ends the campaign as 'failed'). A crash rolls everything
 * back and records nothing: another instance sends the batch at once. The recipients were frozen when the campaign was created (a Roaring bitmap, ascending ids): batch k is
 * always the same users. A queue (pg-boss, graphile-worker) would add a second scheduler and its tables for what one
 * query does.
 */
export class PushJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<BatchOutcome[]> | undefined;
  private stopped = false;
  private intervalMs = 0;
  private readonly recipients = new Map<number, InstanceType<typeof RoaringBitmap32>>();
  /** Told after each batch's commit (progress pushed to the page). */
  readonly listeners = new Set<(outcome: BatchOutcome) => void>();

  constructor(
    private readonly context: ServerContext,
    /** Replaceable (tests use a failing provider to simulate a crash mid-batch). */
    public provider: PushProvider,
    private readonly onTokensRemoved: (userIds: number[]) => Promise<void>,
  ) {}

  start(intervalMs: number): void {
    this.intervalMs = intervalMs;
    if (intervalMs > 0) this.schedule(Math.min(intervalMs, 500));
  }

  /** A campaign was just created here: look now rather than at the next tick. */
  wake(): void {
    if (this.intervalMs > 0 && !this.stopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delayMs);
  }

  private tick(): void {
    if (this.stopped) return;
    this.runOnce()
      .catch((error) => this.context.logger.error({ err: error }, 'push job failed; retrying at the next tick'))
      .then(() => this.nextDueIn())
      .catch(() => this.intervalMs)
      .then((dueIn) => {
        // The next batch when it is due (the 1.8 s pace), at the latest after one interval (campaigns of other instances).
        if (!this.stopped) this.schedule(Math.max(0, Math.min(this.intervalMs, dueIn)));
      });
  }

  private async nextDueIn(): Promise<number> {
    const [row] = await rows<{ at: string | number | null }>(
      this.context.db,
      sql`SELECT min(next_batch_at) AS at FROM push_campaigns WHERE state IN ('queued', 'running')`,
    );
    return row?.at === null || row?.at === undefined ? this.intervalMs : Number(row.at) - this.context.clock.now().getTime();
  }

  /** Sends every batch that is due now; runs of one instance never overlap. */
  runOnce(): Promise<BatchOutcome[]> {
    const previous = this.running ?? Promise.resolve([]);
    const run = previous.catch(() => []).then(() => this.pass());
    this.running = run;
    return run;
  }

  private async pass(): Promise<BatchOutcome[]> {
    const outcomes: BatchOutcome[] = [];
    for (;;) {
      // A closing server stops between two batches; another instance (or the next start) sends the rest.
      if (this.stopped) return outcomes;
      const outcome = await this.sendDueBatch();
      if (!outcome) return outcomes;
      outcomes.push(outcome);
      if (outcome.tokensRemovedFor.length) {
        await this.onTokensRemoved(outcome.tokensRemovedFor).catch((error) =>
          this.context.logger.warn({ err: error }, 'push: index not told of removed tokens (next rebuild fixes it)'),
        );
      }
      for (const listener of this.listeners) listener(outcome);
    }
  }

  /**
   * Claims one due campaign and sends its next batch, all in one transaction; undefined when nothing is due. When the
   * batch fails, the transaction rolls back whole and the failed attempt is recorded on its own.
   */
  private async sendDueBatch(): Promise<BatchOutcome | undefined> {
    const { db } = this.context;
    const now = this.context.clock.now().getTime();
    // The usual tick finds nothing due: one read, no transaction.
    const [due] = await rows(db, sql`SELECT 1 FROM push_campaigns WHERE state IN ('queued', 'running') AND next_batch_at <= ${now} LIMIT 1`);
    if (!due) return undefined;
    let claimed: DueCampaign | undefined;
    try {
      return await db.transaction(async (tx) => {
        [claimed] = await rows<DueCampaign>(
          tx,
          sql`SELECT ${dueColumns} FROM push_campaigns WHERE state IN ('queued', 'running') AND next_batch_at <= ${now}
              ORDER BY next_batch_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        );
        return claimed && this.sendBatch(tx, claimed, now, this.provider);
      });
    } catch (error) {
      // Nothing claimed: the database's trouble, not the batch's (the next tick tries again).
      if (!claimed) throw error;
      return this.recordFailedAttempt(claimed, now, error);
    }
  }

  /**
   * A batch failed (nothing of it was committed): counts the attempt, due again after a pause, or the campaign fails.
   * Only while the campaign is still at that batch: another instance may have sent it, or someone cancelled it, since.
   */
  private async recordFailedAttempt(campaign: DueCampaign, now: number, error: unknown): Promise<BatchOutcome | undefined> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const recorded = await this.context.db.transaction(async (tx) => {
      const [current] = await rows<{ attempts: number; state: PushCampaignState }>(
        tx,
        sql`SELECT attempts, state FROM push_campaigns WHERE id = ${campaign.id} AND next_batch = ${campaign.nextBatch}
              AND state IN ('queued', 'running') FOR UPDATE`,
      );
      if (!current) return undefined;
      const attempt = current.attempts + 1;
      const state = attempt >= PUSH_MAX_ATTEMPTS ? 'failed' : current.state;
      const [after] = await rows<{ total: number; sentTotal: number; failedTotal: number }>(
        tx,
        sql`UPDATE push_campaigns SET attempts = ${attempt}, error = ${message}, next_batch_at = ${now + pushRetryDelayAfter(attempt, providerRetryAfterMs(error))}, state = ${state},
              started_at = coalesce(started_at, ${now}), finished_at = ${state === 'failed' ? now : null}
            WHERE id = ${campaign.id} RETURNING total, sent AS "sentTotal", failed AS "failedTotal"`,
      );
      return { attempt, failed: state === 'failed', ...after };
    });
    if (!recorded) return undefined;
    const { attempt, failed, ...totals } = recorded;
    this.context.logger.warn(
      { err: error, campaignId: campaign.id, batch: campaign.nextBatch, attempt },
      failed ? 'push campaign failed: its batch failed too many times' : 'push batch failed; tried again later',
    );
    if (failed) this.recipients.delete(campaign.id);
    return {
      campaignId: campaign.id,
      batch: campaign.nextBatch,
      users: 0,
      sent: 0,
      failed: 0,
      state: failed ? 'failed' : 'running',
      attempt,
      error: message,
      done: campaign.nextBatch,
      iterations: campaign.iterations,
      ...totals,
      tokensRemovedFor: [],
    };
  }

  /** The campaign's frozen recipients, decoded once per campaign and instance. */
  private async recipientsOf(tx: Executor, campaignId: number) {
    const kept = this.recipients.get(campaignId);
    if (kept) return kept;
    const [row] = await rows<{ recipients: Uint8Array }>(tx, sql`SELECT recipients FROM push_campaigns WHERE id = ${campaignId}`);
    const recipients = RoaringBitmap32.deserialize(row.recipients, 'portable');
    if (this.recipients.size >= RECIPIENTS_KEPT) this.recipients.delete(this.recipients.keys().next().value!);
    this.recipients.set(campaignId, recipients);
    return recipients;
  }

  /**
   * Sends the batch to its users and records it in one statement: a message per user (the outbox's delivery record),
   * the batch, the campaign's move to the next batch, and the tokens the provider declared dead. No user of the batch
   * can have a message yet: batch k's messages commit with the campaign's move to k + 1, and the claim holds the
   * campaign's row. So the messages are a plain multi-row insert: should that ever break, the primary key (campaign ×
   * user) refuses it, and the batch rolls back and counts as a failed attempt; so does a second recording of the
   * batch (primary key campaign × batch).
   */
  /**
   * Sends a campaign's next batch as of `at` through `provider`, in the caller's transaction: the demo's past
   * campaigns, written with their whole history before anyone can see them.
   */
  async sendNextBatchIn(tx: Executor, campaignId: number, at: number, provider: PushProvider): Promise<BatchOutcome> {
    const [campaign] = await rows<DueCampaign>(tx, sql`SELECT ${dueColumns} FROM push_campaigns WHERE id = ${campaignId} FOR UPDATE`);
    return this.sendBatch(tx, campaign, at, provider);
  }

  private async sendBatch(tx: Executor, campaign: DueCampaign, now: number, provider: PushProvider): Promise<BatchOutcome> {
    const batch = campaign.nextBatch;
    const recipients = await this.recipientsOf(tx, campaign.id);
    const users = Array.from(recipients.rangeUint32Array(new Uint32Array(campaign.batchSize), batch * campaign.batchSize, campaign.batchSize));
    const { deliveries, tokenCounts } = await this.deliver(tx, campaign, users, provider);
    const sent = deliveries.filter((delivery) => delivery.status === 'sent').length;
    const failed = deliveries.length - sent;
    const invalid = deliveries.flatMap((delivery) => delivery.invalidTokens);
    const last = batch + 1 >= campaign.iterations;
    const column = <T>(pick: (delivery: Delivery) => T) => param(deliveries.map(pick));
    const [after] = await rows<{ total: number; sentTotal: number; failedTotal: number }>(
      tx,
      sql`WITH messages AS (
            INSERT INTO push_messages (campaign_id, user_id, batch, status, tokens, payload, detail, at)
            SELECT ${campaign.id}, user_id, ${batch}, status, tokens, ${JSON.stringify(notificationOf(campaign))}::jsonb, detail, ${now}
            FROM unnest(${column((delivery) => delivery.userId)}::int[], ${column((delivery) => delivery.status)}::text[],
                        ${column((delivery) => tokenCounts.get(delivery.userId) ?? 0)}::int[], ${column((delivery) => delivery.detail ?? null)}::text[])
                 AS d(user_id, status, tokens, detail)
          ), recorded AS (
            INSERT INTO push_campaign_batches (campaign_id, batch, sent_at, users, sent, failed, instance)
            VALUES (${campaign.id}, ${batch}, ${now}, ${users.length}, ${sent}, ${failed}, ${INSTANCE})
          ), dead AS (
            DELETE FROM app_user_push_tokens WHERE token = ANY(${param(invalid)}::text[])
          )
          UPDATE push_campaigns SET next_batch = ${batch + 1}, next_batch_at = ${now + PUSH_PAUSE_MS}, sent = sent + ${sent},
            failed = failed + ${failed}, attempts = 0, error = NULL, state = ${last ? 'done' : 'running'},
            started_at = coalesce(started_at, ${now}), finished_at = ${last ? now : null}
          WHERE id = ${campaign.id} RETURNING total, sent AS "sentTotal", failed AS "failedTotal"`,
    );
    if (last) this.recipients.delete(campaign.id);
    const tokensRemovedFor = deliveries.filter((delivery) => delivery.invalidTokens.length).map((delivery) => delivery.userId);
    return {
      campaignId: campaign.id,
      batch,
      users: users.length,
      sent,
      failed,
      state: last ? 'done' : 'running',
      done: batch + 1,
      iterations: campaign.iterations,
      ...after,
      tokensRemovedFor,
    };
  }

  /** The batch's users' devices, then the provider's answer for each user. */
  private async deliver(tx: Executor, campaign: DueCampaign, users: number[], provider: PushProvider) {
    const tokens = await rows<{ userId: number; platform: string; token: string }>(
      tx,
      sql`SELECT user_id AS "userId", platform, token FROM app_user_push_tokens WHERE user_id = ANY(${param(users)}::int[])`,
    );
    const byUser = new Map<number, PushMessage['tokens']>();
    for (const { userId, platform, token } of tokens) {
      const list = byUser.get(userId);
      if (list) list.push({ platform, token });
      else byUser.set(userId, [{ platform, token }]);
    }
    const notification = notificationOf(campaign);
    const deliveries = await provider.send(
      users.map((userId) => ({ campaignId: campaign.id, userId, tokens: byUser.get(userId) ?? [], notification })),
    );
    return { deliveries, tokenCounts: new Map([...byUser].map(([userId, devices]) => [userId, devices.length])) };
  }
}

const notificationOf = (campaign: DueCampaign): PushMessage['notification'] => ({
  title: campaign.title,
  body: campaign.body,
  navigation: campaign.navigation,
  customId: campaign.customId,
});

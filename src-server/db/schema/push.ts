import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { appUsers } from './audiences';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The push tokens of the app users (docs/push.md): given by the population ingestion (platform and token), removed when
 * the delivery provider says a token is invalid or unregistered. A token belongs to one device, so to one user.
 */
export const appUserPushTokens = pgTable(
  'app_user_push_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    /** iOS or Android. */
    platform: text('platform').notNull(),
    token: text('token').notNull(),
  },
  (table) => [uniqueIndex('app_user_push_tokens_token_key').on(table.token), index('app_user_push_tokens_user').on(table.userId)],
);

/**
 * A push campaign (platform.md §3 Push notification, §4 Push sending). Its recipients are frozen when it is created
 * (a serialized Roaring bitmap of app user ids, ascending): batch k is the users of rank k × batchSize onwards, so a
 * restart or another instance resumes at `nextBatch` on exactly the same users. Times are epoch milliseconds of the
 * server's clock.
 */
export const pushCampaigns = pgTable(
  'push_campaigns',
  {
    id: serial('id').primaryKey(),
    createdBy: integer('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    navigation: text('navigation').notNull().default(''),
    customId: text('custom_id').notNull(),
    /** The targeting as sent (`where`). */
    target: jsonb('target').notNull(),
    summary: text('summary').notNull(),
    total: integer('total').notNull(),
    batchSize: integer('batch_size').notNull(),
    iterations: integer('iterations').notNull(),
    recipients: bytea('recipients').notNull(),
    /** queued, running, done, failed, cancelled. */
    state: text('state').notNull(),
    /** The next batch to send (0-based); equal to `iterations` once every batch is out. */
    nextBatch: integer('next_batch').notNull().default(0),
    /** When the next batch may go (the 1.8 s pace). */
    nextBatchAt: bigint('next_batch_at', { mode: 'number' }).notNull(),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Failed attempts in a row at the next batch (the provider threw); PUSH_MAX_ATTEMPTS of them fail the campaign. */
    attempts: integer('attempts').notNull().default(0),
    provider: text('provider').notNull(),
    startedAt: bigint('started_at', { mode: 'number' }),
    finishedAt: bigint('finished_at', { mode: 'number' }),
    /** The last failed attempt's error (kept on a failed campaign, cleared once a batch goes). */
    error: text('error'),
  },
  (table) => [index('push_campaigns_due').on(table.state, table.nextBatchAt), index('push_campaigns_created').on(table.createdAt)],
);

/** One row per batch sent: the proof that each batch went once, and when (the history's detail). */
export const pushCampaignBatches = pgTable(
  'push_campaign_batches',
  {
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => pushCampaigns.id, { onDelete: 'cascade' }),
    batch: integer('batch').notNull(),
    sentAt: bigint('sent_at', { mode: 'number' }).notNull(),
    users: integer('users').notNull(),
    sent: integer('sent').notNull(),
    failed: integer('failed').notNull(),
    instance: text('instance').notNull(),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.batch] })],
);

/**
 * The delivery record: one message per campaign × user (the unique key that makes a campaign reach each user once),
 * with what the provider said. The outbox provider's messages are these rows (what the tester and the debug page show).
 * No foreign key to the campaign: its per-row check was most of the cost of a batch's 1,000-row insert (8 of 11 ms
 * at 1,000,000 users), and only the send job writes here, holding the campaign's row locked; campaigns are never
 * deleted (whoever does deletes their messages first).
 */
export const pushMessages = pgTable(
  'push_messages',
  {
    campaignId: integer('campaign_id').notNull(),
    userId: integer('user_id').notNull(),
    batch: integer('batch').notNull(),
    /** sent, failed or no-token. */
    status: text('status').notNull(),
    tokens: integer('tokens').notNull().default(0),
    payload: jsonb('payload'),
    detail: text('detail'),
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  // Only the primary key: each batch writes 1,000 rows, and nothing reads messages by user alone.
  (table) => [primaryKey({ columns: [table.campaignId, table.userId] })],
);

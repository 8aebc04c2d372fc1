import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { foldForSearch, versionColumns } from './accounts';
import { audiences } from './audiences';

/**
 * Adverts and articles (docs/content.md). The columns are what lists filter and sort on and what jobs select (dates as
 * epoch seconds, as the spec gives them); the long tail of the model (media, texts, quiz, story, sharing, search,
 * tool, ...) lives in `data`, read and written whole with the item. `search_key` folds name, title and author for
 * the term filter.
 */
function contentColumns() {
  return {
    id: serial('id').primaryKey(),
    name: text('name').notNull().default(''),
    type: text('type'),
    published: boolean('published').notNull().default(false),
    archived: boolean('archived').notNull().default(false),
    weight: integer('weight').notNull().default(5),
    maxViews: integer('max_views').notNull().default(5),
    /** 'latest' once in the current layout; an older marker means "has not been migrated yet". */
    model: text('model').notNull().default('latest'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    ...versionColumns(),
    publishedAt: bigint('published_at', { mode: 'number' }),
    unpublishedAt: bigint('unpublished_at', { mode: 'number' }),
    autoStartAt: bigint('auto_start_at', { mode: 'number' }),
    autoStopAt: bigint('auto_stop_at', { mode: 'number' }),
    /** The project target the item comes from (the projects issue's table; no foreign key until it exists). */
    targetId: integer('target_id'),
    /** The campaign figures of the target link (_$target) as the publish call sent them. */
    target: jsonb('target'),
    actionCode: text('action_code'),
    data: jsonb('data')
      .notNull()
      .default(sql`'{}'::jsonb`),
    searchKey: text('search_key')
      .notNull()
      .generatedAlwaysAs(foldForSearch(sql.raw(`name || chr(10) || coalesce(data->>'title', '') || chr(10) || coalesce(data->>'author', '')`))),
  };
}

export const adverts = pgTable(
  'adverts',
  {
    ...contentColumns(),
    isFree: boolean('is_free').notNull().default(false),
  },
  (table) => [
    // Sorted lists walk these in either direction (ascending keys: a backward scan is exactly `DESC`, nulls first).
    // The store's default, not archived by updatedAt DESC (spec §4), has its partial index: `archived = false`
    // becomes `NOT archived`, which PostgreSQL cannot use to walk an (archived, updated_at) index in order.
    index('adverts_live_updated_idx')
      .on(table.updatedAt, table.id)
      .where(sql`NOT ${table.archived}`),
    index('adverts_updated_idx').on(table.updatedAt, table.id),
    index('adverts_published_idx').on(table.published, table.type),
    index('adverts_weight_idx').on(table.weight, table.id),
    index('adverts_target_idx').on(table.targetId),
    // Autopublish looks for due items only.
    index('adverts_auto_start_idx')
      .on(table.autoStartAt)
      .where(sql`${table.autoStartAt} IS NOT NULL`),
    index('adverts_auto_stop_idx')
      .on(table.autoStopAt)
      .where(sql`${table.autoStopAt} IS NOT NULL`),
  ],
);

export const articles = pgTable(
  'articles',
  {
    ...contentColumns(),
    isPinned: boolean('is_pinned').notNull().default(false),
  },
  (table) => [
    index('articles_live_updated_idx')
      .on(table.updatedAt, table.id)
      .where(sql`NOT ${table.archived}`),
    index('articles_updated_idx').on(table.updatedAt, table.id),
    index('articles_published_idx').on(table.published, table.type),
    index('articles_auto_start_idx')
      .on(table.autoStartAt)
      .where(sql`${table.autoStartAt} IS NOT NULL`),
    index('articles_auto_stop_idx')
      .on(table.autoStopAt)
      .where(sql`${table.autoStopAt} IS NOT NULL`),
  ],
);

/** Audiences attached to an advert; deleting either side detaches. */
export const advertAudiences = pgTable(
  'advert_audiences',
  {
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    audienceId: integer('audience_id')
      .notNull()
      .references(() => audiences.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.advertId, table.audienceId] }), index('advert_audiences_audience_idx').on(table.audienceId)],
);

export const articleAudiences = pgTable(
  'article_audiences',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    audienceId: integer('audience_id')
      .notNull()
      .references(() => audiences.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.articleId, table.audienceId] }), index('article_audiences_audience_idx').on(table.audienceId)],
);

/** Campaign funnels (spec §2.8): an ordered chain of adverts; an advert belongs to one funnel at most. */
export const funnels = pgTable('funnels', {
  uuid: uuid('uuid').primaryKey().defaultRandom(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const funnelSteps = pgTable(
  'funnel_steps',
  {
    id: serial('id').primaryKey(),
    funnelUuid: uuid('funnel_uuid')
      .notNull()
      .references(() => funnels.uuid, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    /** Views of the previous advert needed before this one is served. */
    minViews: integer('min_views').notNull().default(1),
    /** Time after the previous advert's last qualifying view before this one is served. */
    gracePeriodMs: bigint('grace_period_ms', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    uniqueIndex('funnel_steps_advert_key').on(table.advertId),
    uniqueIndex('funnel_steps_position_key').on(table.funnelUuid, table.position),
  ],
);

/** Every change of an advert or article (docs/content.md): who, when, which fields, before and after. */
export const contentHistory = pgTable(
  'content_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** advert or article. */
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    /** create, update, publish, delete, restore, attach, migrate, autopublish, ... */
    action: text('action').notNull(),
    accountId: integer('account_id'),
    accountName: text('account_name').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    fields: text('fields')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (table) => [index('content_history_item_idx').on(table.kind, table.itemId, table.id.desc())],
);

/**
 * Autopublish transitions applied: one row per (item, start or stop, due date). The unique key makes a transition
 * happen once even if two instances raced past the row lock, and keeps a later manual change from being undone.
 */
export const autopublishLog = pgTable(
  'autopublish_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    /** start or stop. */
    action: text('action').notNull(),
    dueAt: bigint('due_at', { mode: 'number' }).notNull(),
    /** applied, or refused (publication checks failed; the reason mailed). */
    outcome: text('outcome').notNull(),
    detail: text('detail').notNull().default(''),
    instance: text('instance').notNull().default(''),
    doneAt: timestamp('done_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('autopublish_log_transition_key').on(table.kind, table.itemId, table.action, table.dueAt)],
);

/**
 * A counter bumped by every advert write (in its transaction): decisioning keeps the published adverts in memory
 * and reloads them when the counter moved, so every instance serves what is committed.
 */
export const contentVersions = pgTable('content_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

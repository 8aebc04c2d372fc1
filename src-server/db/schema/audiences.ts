import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, customType, index, integer, json, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { versionColumns } from './accounts';

/**
 * The writing transaction's id (PostgreSQL xid8). Other server instances follow the population by reading the
 * rows of every transaction older than the oldest one still running (pg_snapshot_xmin), so a row committed late
 * with a smaller serial id is never skipped (see features/audiences/engine/follower.ts).
 */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });
const writingTransaction = () =>
  xid8('tx')
    .notNull()
    .default(sql`pg_current_xact_id()`);

/**
 * App users: the health professionals of the mobile app, whom audiences select (docs/audiences.md). `externalId` is the
 * app platform's own id, the key of ingestion upserts.
 */
export const appUsers = pgTable(
  'app_users',
  {
    id: serial('id').primaryKey(),
    externalId: text('external_id').notNull(),
    email: text('email').notNull().default(''),
    name: text('name').notNull().default(''),
    professionId: integer('profession_id'),
    specialtyId: integer('specialty_id'),
    /** DOCTOR, STUDENT or PROFESSIONAL. */
    title: text('title'),
    /** french, english, spanish, italian or german. */
    area: text('area'),
    countryId: integer('country_id'),
    zipcode: text('zipcode'),
    uga: text('uga'),
    workplace: text('workplace'),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    feeds: text('feeds')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    apps: text('apps')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** iOS or Android. */
    os: text('os'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('app_users_external_id_key').on(table.externalId),
    // E-mail prefix search (test accounts, live tester): lower(email) LIKE 'term%'.
    index('app_users_email_prefix_idx').using('btree', sql`lower(${table.email}) text_pattern_ops`),
  ],
);

/**
 * What the chunked merge of a list import on PGlite (features/audiences/short-merge.ts) changed so far, kept until
 * its last chunk commits: per staged user, its row as it was (`user_id` null: it did not exist, undoing deletes it).
 * LOGGED, unlike the stage: a process killed mid-merge leaves chunks committed, and the next start undoes them from
 * here before the audience engine is built. Emptied (TRUNCATE) in the transaction that ends the merge.
 */
export const populationUndo = pgTable('population_undo', {
  externalId: text('external_id').notNull(),
  userId: integer('user_id'),
  email: text('email'),
  name: text('name'),
  professionId: integer('profession_id'),
  specialtyId: integer('specialty_id'),
  title: text('title'),
  area: text('area'),
  countryId: integer('country_id'),
  zipcode: text('zipcode'),
  uga: text('uga'),
  workplace: text('workplace'),
  os: text('os'),
  roles: text('roles').array(),
  feeds: text('feeds').array(),
  apps: text('apps').array(),
});

/**
 * Criteria nodes. `value` is what the node matches: the attribute value for attribute labels (a profession id,
 * 'french', 'ROLE_EXPERT', '75'), the app user's id for User, the item's name for Document, Feed, App, Keyword,
 * Advert, and a generated key for OrGroup and AndGroup (a group's id is its node's id). `name` is what is shown.
 */
export const nodes = pgTable(
  'nodes',
  {
    id: serial('id').primaryKey(),
    label: text('label').notNull(),
    value: text('value').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('nodes_label_value_key').on(table.label, table.value),
    // Node search: lower(name) LIKE '%term%' per label; the label index narrows it.
    index('nodes_label_name_idx').on(table.label, sql`lower(${table.name})`),
  ],
);

/**
 * Interaction events of app users on items; idempotent by the platform's event id, which is the primary key (no
 * surrogate id: nothing reads one). No foreign keys on purpose: their triggers halved the ingestion rate (50,000
 * rows: 1.5 s of the 2.9 s measured on the CI machine); the only writer, ingestion, resolves both ids in the same
 * transaction, and app users and item nodes are never deleted.
 *
 * Every index is paid by each ingested row, so only those something reads are kept: the key (idempotence),
 * user_id (an interactions reset, an app user's advert views for decisioning) and tx (other instances follow the
 * table by writing transaction). The engine's build reads the table in one sequential scan and needs none.
 */
export const interactionEvents = pgTable(
  'interaction_events',
  {
    eventId: text('event_id').primaryKey(),
    userId: integer('user_id').notNull(),
    nodeId: integer('node_id').notNull(),
    /** advert.view, advert.click, quiz.view, quiz.answered, document.view or search. */
    event: text('event').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    tx: writingTransaction(),
  },
  (table) => [index('interaction_events_user_idx').on(table.userId), index('interaction_events_tx_idx').on(table.tx)],
);

/**
 * Changes other instances must replay that the events table does not show: user attribute upserts (with the
 * attribute keys before and after), interaction resets, audience and group definitions. Followed like the events.
 */
export const populationChanges = pgTable(
  'population_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    // json, stored uncompressed (migration 0024): read whole, never queried inside; a chunk of a list import writes
    // megabytes of ids, which jsonb parsed and pglz compressed (twice the time of a plain copy).
    payload: json('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    tx: writingTransaction(),
  },
  (table) => [index('population_changes_tx_idx').on(table.tx)],
);

/**
 * The audience index file a server on PGlite wrote at its last clean close (engine/index-file.ts): its token is here
 * only between that close and the next start, which deletes it before anything can write; a start that finds no
 * token (a crash, another writer) rebuilds the index from the tables.
 */
export const audienceIndexFiles = pgTable('audience_index_files', {
  token: text('token').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Audiences (spec §3): a set of relationships to nodes; exactly one Area, kept in `area` and as a relationship. */
export const audiences = pgTable(
  'audiences',
  {
    // Numbered from the nodes' sequence: an id names one audience or one node, never both, so a relationship's
    // `source` ({ source, target } of DELETE /delete and /detach) is unambiguous.
    id: integer('id')
      .primaryKey()
      .default(sql`nextval('nodes_id_seq')`),
    name: text('name').notNull(),
    /** timeline, search, story, notification, banner or tool; empty until chosen. */
    type: text('type'),
    area: text('area').notNull().default('french'),
    isInCatalog: boolean('is_in_catalog').notNull().default(false),
    authorId: integer('author_id'),
    authorName: text('author_name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...versionColumns(),
    /**
     * The article that owns this audience (its inline criteria, adverts-articles.md §2.5): such an audience is
     * not in the catalogue, not listed on /audiences, and written only through the article's own calls.
     */
    articleId: integer('article_id'),
  },
  (table) => [
    index('audiences_created_at_idx').on(table.createdAt),
    index('audiences_name_idx').on(sql`lower(${table.name})`),
    uniqueIndex('audiences_article_key')
      .on(table.articleId)
      .where(sql`${table.articleId} IS NOT NULL`),
  ],
);

/** OrGroup and AndGroup: reusable criteria, themselves nodes (the group's id is its node's id). */
export const audienceGroups = pgTable('audience_groups', {
  nodeId: integer('node_id')
    .primaryKey()
    .references(() => nodes.id, { onDelete: 'cascade' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  ...versionColumns(),
});

/**
 * A relationship from an audience, or from a group (its members), to a node. Exactly one owner. `caping` is the
 * least number of events on the node (Advert, Document); null means 1.
 */
export const relationships = pgTable(
  'relationships',
  {
    id: serial('id').primaryKey(),
    audienceId: integer('audience_id').references(() => audiences.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => audienceGroups.nodeId, { onDelete: 'cascade' }),
    nodeId: integer('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    /** AND, SEARCH or SHOULD_TARGET. */
    type: text('type').notNull().default('AND'),
    /** required or not. */
    kind: text('kind').notNull().default('required'),
    event: text('event'),
    caping: integer('caping'),
  },
  (table) => [
    index('relationships_audience_idx').on(table.audienceId),
    index('relationships_group_idx').on(table.groupId),
    index('relationships_node_idx').on(table.nodeId),
    check('relationships_one_owner', sql`(${table.audienceId} IS NULL) <> (${table.groupId} IS NULL)`),
  ],
);

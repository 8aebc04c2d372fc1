import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, foldForSearch, versionColumns } from './accounts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
/** Target dates are epoch seconds (spec §3), kept as numbers end to end. */
const epochSeconds = (name: string) => bigint(name, { mode: 'number' });
/** Amounts in euros with cents, read back as float8 by the queries. */
const amount = (name: string) => numeric(name, { precision: 14, scale: 2 });

/** Client projects (docs/projects.md): a name, a client, a CSM (keyAccount), an actor, and their targets. */
export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    clientName: text('client_name').notNull(),
    keyAccountId: integer('key_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    actor: text('actor'),
    actionCode: text('action_code'),
    status: text('status').notNull().default('draft'),
    /** The quote (DEV-…) the project was created from or last imported. */
    estimateId: text('estimate_id'),
    /** Project name and client folded for the list's term search. */
    searchKey: text('search_key')
      .notNull()
      .generatedAlwaysAs(foldForSearch(sql.raw(`name || chr(10) || client_name`))),
    ...timestamps,
    ...versionColumns(),
  },
  (table) => [
    index('projects_status_id_idx').on(table.status, table.id),
    index('projects_key_account_idx').on(table.keyAccountId, table.id),
    index('projects_name_idx').on(sql`lower(${table.name})`),
    index('projects_client_idx').on(sql`lower(${table.clientName})`),
    // Term searches (LIKE '%term%') on the folded name and client: trigrams (pg_trgm, loaded into PGlite too).
    index('projects_search_key_trgm_idx').using('gin', sql`${table.searchKey} gin_trgm_ops`),
  ],
);

/**
 * Targets (actions, campaign lines) of a project. `statusRank` is the status's place in the spec's order: the
 * sort key of "status", since collations disagree on whether "3. " comes before "3.1". The advert is a plain id
 * (adverts live in their own feature; no foreign key).
 */
export const targets = pgTable(
  'targets',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** Order of the lines within the project (duplicates are inserted at a position). */
    position: integer('position').notNull().default(0),
    actionCode: text('action_code'),
    status: text('status').notNull().default('1. offline - préparation'),
    statusRank: smallint('status_rank').notNull().default(0),
    type: text('type'),
    advertId: integer('advert_id'),
    toolId: integer('tool_id'),
    promoteInSearch: boolean('promote_in_search').notNull().default(false),
    populationCategory: text('population_category'),
    populationSample: text('population_sample'),
    populationSize: integer('population_size'),
    goalViews: bigint('goal_views', { mode: 'number' }).notNull().default(0),
    goalDays: integer('goal_days').notNull().default(0),
    goalShipments: bigint('goal_shipments', { mode: 'number' }).notNull().default(0),
    startDate: epochSeconds('start_date'),
    endDate: epochSeconds('end_date'),
    checkDate: epochSeconds('check_date'),
    quotationSignedMonth: epochSeconds('quotation_signed_month'),
    initialQuotationDate: epochSeconds('initial_quotation_date'),
    revenue: amount('revenue'),
    releaseDateDiff: integer('release_date_diff'),
    delayReason: text('delay_reason'),
    revenueDelayImpact: amount('revenue_delay_impact'),
    actor: text('actor'),
    keyAccountId: integer('key_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    comment: text('comment'),
    isNew: boolean('is_new').notNull().default(true),
    ...timestamps,
    ...versionColumns(),
  },
  (table) => [
    index('targets_project_idx').on(table.projectId, table.position, table.id),
    uniqueIndex('targets_project_action_code_key').on(table.projectId, table.actionCode),
    // The /targets list's default order (status DESC) and its usual filters.
    index('targets_status_rank_idx').on(table.statusRank, table.id),
    index('targets_type_idx').on(table.type, table.statusRank, table.id),
    index('targets_start_date_idx').on(table.startDate),
    index('targets_end_date_idx').on(table.endDate),
    index('targets_action_code_idx').on(table.actionCode),
    index('targets_advert_idx').on(table.advertId),
    index('targets_key_account_idx').on(table.keyAccountId, table.statusRank, table.id),
    // The /targets term search (lower(column) LIKE '%term%' on these three): one trigram index serves each.
    index('targets_term_trgm_idx').using(
      'gin',
      sql`lower(${table.actionCode}) gin_trgm_ops`,
      sql`lower(${table.populationSample}) gin_trgm_ops`,
      sql`lower(${table.populationCategory}) gin_trgm_ops`,
    ),
  ],
);

/** Comments on a project; only the author edits or deletes one. */
export const projectComments = pgTable(
  'project_comments',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    ...timestamps,
  },
  (table) => [index('project_comments_project_idx').on(table.projectId, table.id)],
);

/** Comments on a target (the timeline's editable comments); only the author edits or deletes one. */
export const targetComments = pgTable(
  'target_comments',
  {
    id: serial('id').primaryKey(),
    targetId: integer('target_id')
      .notNull()
      .references(() => targets.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    ...timestamps,
  },
  (table) => [index('target_comments_target_idx').on(table.targetId, table.id)],
);

/** One briefing per project: Lexical editor state (JSON), sanitised when read for display. */
export const briefings = pgTable(
  'briefings',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    content: jsonb('content').notNull(),
    authorId: integer('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [uniqueIndex('briefings_project_key').on(table.projectId)],
);

/**
 * The default estimate source: quotes imported from the invoicing tool's export file (DEV-… numbers), with their
 * lines. An import replaces a quote's lines.
 *
 * An import writes its lines in short batches under its own import id (PGlite has one connection: one long
 * transaction would hold every other call), invisible until its quotes switch over to them in one short statement
 * (a quote's lines are those of its import_id); the lines they replaced are deleted afterwards, in batches.
 */
export const estimateImports = pgTable('estimate_imports', {
  id: serial('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  /** When its quotes switched to its lines; null while it writes them (or when it was abandoned). */
  switchedAt: timestamp('switched_at', { withTimezone: true }),
});

export const estimateQuotes = pgTable('estimate_quotes', {
  id: text('id').primaryKey(),
  clientName: text('client_name').notNull(),
  /** Signed date, epoch seconds. */
  signedAt: epochSeconds('signed_at'),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  /** The import whose lines are this quote's (null: lines stored before imports were staged, import_id null too). */
  importId: integer('import_id'),
});

export const estimateLines = pgTable(
  'estimate_lines',
  {
    id: serial('id').primaryKey(),
    /** No foreign key: lines are written before their quote exists (staged under their import id). */
    quoteId: text('quote_id').notNull(),
    importId: integer('import_id'),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    quantity: numeric('quantity', { precision: 14, scale: 2 }).notNull(),
    unitPrice: amount('unit_price').notNull(),
  },
  (table) => [index('estimate_lines_quote_idx').on(table.quoteId, table.position)],
);

import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * CSV list imports (docs/imports.md): one row per job, its progress and outcome. Any instance answers its state; the one
 * running it reads `cancel_requested_at` between batches, so a cancel may reach any instance.
 */
export const csvImports = pgTable('csv_imports', {
  id: serial('id').primaryKey(),
  filename: text('filename').notNull(),
  mapping: jsonb('mapping').notNull(),
  accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
  /** queued, running, done, failed, cancelled. */
  state: text('state').notNull().default('queued'),
  /** reading, merging (while running). */
  phase: text('phase'),
  rowsRead: integer('rows_read').notNull().default(0),
  rowsValid: integer('rows_valid').notNull().default(0),
  rowsWritten: integer('rows_written').notNull().default(0),
  inserted: integer('inserted').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  errorCount: integer('error_count').notNull().default(0),
  /** The first 1,000 errors: { line, column, message }. */
  errors: jsonb('errors').notNull().default([]),
  message: text('message'),
  cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
  /**
   * Until when the instance running the job vouches for it: refreshed while it runs (jobs/lease.ts). Past it, the
   * instance is taken for dead: the job is failed and its stage dropped by whichever instance sweeps first.
   */
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/**
 * The valid rows of an import under way, written in batches while the file is read, merged into app_users in one
 * statement per chunk of one transaction, then deleted. UNLOGGED (migration): nothing here must survive a crash.
 * No primary key: (import_id, external_id) is indexed: the merge reads its chunks in externalId order.
 */
export const csvImportRows = pgTable(
  'csv_import_rows',
  {
    importId: integer('import_id').notNull(),
    line: integer('line').notNull(),
    externalId: text('external_id'),
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
  },
  (table) => [index('csv_import_rows_import_external_idx').on(table.importId, table.externalId)],
);

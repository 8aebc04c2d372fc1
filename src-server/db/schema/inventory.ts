import { bigint, date, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * The view inventory (issue 22): the capacity of each category (a specialty or a profession, by its reference
 * id) per month, as the last CSV naming that month gave it. Consumption is not stored: it is computed from the
 * targets at each read (src-server/features/inventory/queries.ts).
 */
export const inventoryCapacity = pgTable(
  'inventory_capacity',
  {
    /** 'Specialty' or 'Profession' (spec §3 Inventory row label). */
    label: text('label').notNull(),
    categoryId: integer('category_id').notNull(),
    /** The category's name, as a target's populationCategory names it (compared without case). */
    name: text('name').notNull(),
    /** First day of the month. */
    month: date('month').notNull(),
    totalViews: bigint('total_views', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.label, table.categoryId, table.month] }), index('inventory_capacity_month_idx').on(table.month)],
);

/** Who imported which file when: rows and months it named. */
export const inventoryImports = pgTable('inventory_imports', {
  id: serial('id').primaryKey(),
  accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  fileName: text('file_name').notNull(),
  rows: integer('rows').notNull(),
  months: text('months').array().notNull(),
  /** Null while the file is being read (its rows staged); set when its months were switched in. */
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/** An import's rows while its file streams in: switched into inventory_capacity in one transaction at the end. */
export const inventoryStaging = pgTable(
  'inventory_staging',
  {
    importId: integer('import_id').notNull(),
    label: text('label').notNull(),
    categoryId: integer('category_id').notNull(),
    name: text('name').notNull(),
    month: date('month').notNull(),
    totalViews: bigint('total_views', { mode: 'number' }).notNull(),
  },
  (table) => [index('inventory_staging_import_idx').on(table.importId)],
);

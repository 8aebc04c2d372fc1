import { bigint, date, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * The view inventory (docs/inventory.md): the capacity of each category (a specialty or a profession, by its reference
 * id) per month, as the last CSV naming that month gave it. Consumption is kept beside it by triggers on the
 * targets (inventory_consumption and inventory_unplanned below, migration 0017).
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

/**
 * The views the targets book per category name (lower(population_category)) and month: the exact sum (numeric)
 * of each booking target's share of the month, its goal views × its days in the month / its days. Kept by the
 * statement triggers of migration 0017 on targets (insert, update, delete, truncate), never written by the code:
 * a target's change shows at the next read. Rounded when read, as float8 (round half to even).
 */
export const inventoryConsumption = pgTable(
  'inventory_consumption',
  {
    category: text('category').notNull(),
    /** First day of the month. */
    month: date('month').notNull(),
    views: numeric('views').notNull(),
  },
  (table) => [primaryKey({ columns: [table.category, table.month] })],
);

/** The goal views of the booking targets without dates ("non planifié") per category name, kept by the same triggers. */
export const inventoryUnplanned = pgTable('inventory_unplanned', {
  category: text('category').primaryKey(),
  views: bigint('views', { mode: 'number' }).notNull(),
});

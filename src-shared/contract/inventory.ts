import { z } from 'zod';
import { INVENTORY_CSV_MAX_BYTES, INVENTORY_FORMATS, INVENTORY_MAX_PAGE, INVENTORY_PAGE_SIZE, MONTH_HEADER, parseMonthKey } from '../rules/inventory';
import { defineOperation } from './define';
import { idParam, wholeNumber } from './entities';
import { inventoryAdmins, inventoryReaders, projectReaders } from '../access-rules';

/**
 * The view inventory (platform.md §2 "Inventory dashboard", §7; docs/inventory.md). Reading: CSM_LEAD (its menu entry,
 * §6) and ADMIN; the export, import and availability search: ADMIN only (§6), refused by the server to the
 * others. The project editor's check of one target (audiences-projects-tools.md §3 "Inventory-related check
 * result") is its own operation, open to the project readers: it answers for a stored target only.
 */

/** A month as YY/MM (§3), a real month (01-12). */
export const monthKeySchema = z
  .string()
  .regex(MONTH_HEADER, 'YY/MM attendu')
  .refine((text) => parseMonthKey(text) !== null, 'Invalid dates');
const categoryIds = z.array(z.number().int().min(1).max(1_000_000)).max(500).default([]);
const categoryLabel = z.enum(['Specialty', 'Profession']);

export const inventoryEntrySchema = z.object({ date: z.string(), totalViews: z.number(), consumedViews: z.number() });
export const inventoryRowSchema = z.object({
  /** The specialty's or profession's id (reference data of GET /meta). */
  id: z.number().int(),
  label: categoryLabel,
  /** The category's name: what a target's populationCategory names to book it. */
  populationCategory: z.string(),
  inventory: z.array(inventoryEntrySchema),
  /** Views booked in this category by targets without dates ('non planifié'): they consume no month. */
  unplannedViews: z.number(),
});

export const availabilityMonthSchema = z.object({ date: z.string(), isAvailable: z.boolean(), viewDifference: z.number() });

const rangeBody = {
  from: monthKeySchema,
  to: monthKeySchema,
};

export const inventoryOperations = {
  'inventory.list': defineOperation({
    method: 'POST',
    path: '/inventory',
    summary:
      "Capacity and consumption per category and month (or calendar quarter) over a range of months: a page of categories (100 unless `limit` says, at most 500) in the screen's order, and how many there are",
    access: inventoryReaders,
    body: z.strictObject({
      ...rangeBody,
      specialty: categoryIds,
      profession: categoryIds,
      viewType: z.enum(['month', 'quarter']).default('month'),
      skip: wholeNumber(0, 10_000_000).default(0),
      limit: wholeNumber(1, INVENTORY_MAX_PAGE).default(INVENTORY_PAGE_SIZE),
    }),
    response: z.object({ items: z.array(inventoryRowSchema), total: z.number().int() }),
  }),
  'inventory.availability': defineOperation({
    method: 'POST',
    path: '/inventory/availability',
    summary: 'Whether sold views, spread evenly over the months of the range, fit in the remaining views of the chosen categories',
    access: inventoryAdmins,
    body: z.strictObject({
      ...rangeBody,
      specialty: categoryIds,
      profession: categoryIds,
      soldViews: z.number().int().min(0).max(1e12),
    }),
    response: z.array(availabilityMonthSchema),
  }),
  'inventory.upload': defineOperation({
    method: 'PUT',
    path: '/inventory/upload',
    summary: 'Imports the capacity CSV (multipart, streamed): the months it names are replaced, the others kept',
    access: inventoryAdmins,
    multipart: { fields: z.strictObject({}), maxFileBytes: INVENTORY_CSV_MAX_BYTES, formats: INVENTORY_FORMATS },
    response: z.object({ rows: z.number().int(), months: z.array(z.string()) }),
  }),
  'inventory.export': defineOperation({
    method: 'POST',
    path: '/inventory/export',
    summary: 'inventaire.csv: every category over the 12 months from now (the import columns, total and remaining views)',
    access: inventoryAdmins,
    body: z.strictObject({}),
    response: z.string(),
    answersFile: 'csv',
  }),
  'inventory.consumers': defineOperation({
    method: 'POST',
    path: '/inventory/consumers',
    summary: 'The targets that consume a category over a range of months, with their share of each month',
    access: inventoryReaders,
    body: z.strictObject({ ...rangeBody, label: categoryLabel, id: z.number().int().min(1).max(1_000_000) }),
    response: z.array(
      z.object({
        date: z.string(),
        targets: z.array(
          z.object({
            projectId: z.number().int(),
            projectName: z.string(),
            targetId: z.number().int(),
            actionCode: z.string().nullable(),
            views: z.number(),
          }),
        ),
      }),
    ),
  }),
  'inventory.targetCheck': defineOperation({
    method: 'GET',
    path: '/target/:id/inventory',
    summary: 'The availability check of one target (its category, dates and goal in views), leaving its own booking out',
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    response: z.object({
      /** none: no category, no dates or no goal in views; unknown: the category has no capacity row. */
      state: z.enum(['checked', 'none', 'unknown']),
      months: z.array(availabilityMonthSchema),
    }),
  }),
};

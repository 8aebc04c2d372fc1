import Papa from 'papaparse';
import { contract, type MultipartSpec } from '@shared/contract';
import type { inventoryOperations } from '@shared/contract/inventory';
import { INVENTORY_MESSAGES } from '@shared/messages/inventory';
import { CSV_BOM, CSV_NEWLINE, CSV_WRITE_OPTIONS } from '@shared/rules/csv';
import {
  CANCELLED_STATUS,
  EXPORT_MONTHS,
  addMonths,
  availability,
  compareMonths,
  monthKey,
  monthOf,
  monthRange,
  parseMonthKey,
  remainingViews,
  spreadOverMonths,
  sumByQuarter,
  type Month,
} from '@shared/rules/inventory';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { receiveFile } from '../../../storage/multipart';
import { importInventory } from '../import';
import {
  categoriesNamed,
  consumers,
  monthFigures,
  pagedMonthFigures,
  targetBooking,
  withoutJit,
  type CategoryFilter,
  type MonthFigures,
} from '../queries';

export type InventoryHandlers = Pick<Handlers, keyof typeof inventoryOperations>;

/** Longest range a call may ask for: 5 years of months. */
const MAX_MONTHS = 60;

/** The range of a body, checked: start before end (§5 message), at most 60 months. */
function range(body: { from: string; to: string }): { from: Month; to: Month } {
  const from = parseMonthKey(body.from);
  const to = parseMonthKey(body.to);
  if (!from || !to) throw new HttpError(400, INVENTORY_MESSAGES.invalidDates);
  if (compareMonths(from, to) > 0) throw new HttpError(400, INVENTORY_MESSAGES.startAfterEnd);
  if (monthRange(from, to).length > MAX_MONTHS) throw new HttpError(400, INVENTORY_MESSAGES.rangeTooLong);
  return { from, to };
}

/** Rows of the answer (spec §3 Inventory row) from the month figures, in their order. */
function toRows(figures: readonly MonthFigures[]) {
  const byCategory = new Map<
    string,
    {
      id: number;
      label: MonthFigures['label'];
      populationCategory: string;
      unplannedViews: number;
      inventory: { date: string; totalViews: number; consumedViews: number }[];
    }
  >();
  for (const figure of figures) {
    const key = `${figure.label}:${figure.categoryId}`;
    let row = byCategory.get(key);
    if (!row) {
      row = { id: figure.categoryId, label: figure.label, populationCategory: figure.name, unplannedViews: figure.unplannedViews, inventory: [] };
      byCategory.set(key, row);
    }
    row.inventory.push({ date: figure.date, totalViews: figure.totalViews, consumedViews: figure.consumedViews });
  }
  return [...byCategory.values()];
}

/** Remaining views of the chosen categories, summed month by month over the range. */
async function remainingByMonth(context: ServerContext, from: Month, to: Month, filter: CategoryFilter) {
  const figures = await monthFigures(context.db, from, to, filter);
  return monthRange(from, to).map((month) => {
    const date = monthKey(month);
    return { date, remaining: figures.filter((figure) => figure.date === date).reduce((sum, figure) => sum + remainingViews(figure), 0) };
  });
}

/**
 * inventaire.csv (§7: 12 months from now): the import's columns (the category by its id, its name in Nom), each
 * month's total views, so that it imports back.
 */
async function exportCsv(context: ServerContext): Promise<string> {
  const from = monthOf(context.clock.now().getTime());
  const to = addMonths(from, EXPORT_MONTHS - 1);
  const rows = toRows(await monthFigures(context.db, from, to, { specialty: [], profession: [] }));
  const months = monthRange(from, to).map(monthKey);
  const data = rows.map((row) => [
    row.label === 'Specialty' ? 'Médecin' : row.id,
    row.label === 'Specialty' ? row.id : '',
    row.populationCategory,
    ...row.inventory.map((entry) => entry.totalViews),
  ]);
  const csv = Papa.unparse({ fields: ['Profession', 'Specialty', 'Nom', ...months], data }, CSV_WRITE_OPTIONS);
  return CSV_BOM + csv + CSV_NEWLINE;
}

export function inventoryHandlers(context: ServerContext): InventoryHandlers {
  const { db } = context;
  return {
    'inventory.list': async ({ body }) => {
      const { from, to } = range(body);
      // A page of categories as the screen shows them (issue 51: every category at once was 10 MB).
      const { figures, total } = await pagedMonthFigures(db, from, to, body, { skip: body.skip, limit: body.limit });
      const rows = toRows(figures);
      return { items: body.viewType === 'quarter' ? rows.map((row) => ({ ...row, inventory: sumByQuarter(row.inventory) })) : rows, total };
    },

    'inventory.availability': async ({ body }) => {
      if (!body.specialty.length && !body.profession.length) throw new HttpError(400, INVENTORY_MESSAGES.fillAllFields);
      const { from, to } = range(body);
      return availability(await remainingByMonth(context, from, to, body), body.soldViews);
    },

    'inventory.upload': async ({ request, account }) =>
      receiveFile<Record<string, never>, { rows: number; months: string[] }>(
        request,
        contract['inventory.upload'].multipart as MultipartSpec,
        (file) => importInventory(db, file, account?.id ?? null, { embedded: context.dbKind === 'pglite' }),
      ),

    'inventory.export': async ({ reply }) => {
      const csv = await exportCsv(context);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="inventaire.csv"');
      return reply.send(csv) as never;
    },

    'inventory.consumers': async ({ body }) => {
      const { from, to } = range(body);
      const found = await withoutJit(db, (tx) => consumers(tx, from, to, body.label, body.id));
      return monthRange(from, to).map((month) => {
        const date = monthKey(month);
        return { date, targets: found.filter((row) => row.date === date).map(({ date: _date, ...target }) => target) };
      });
    },

    'inventory.targetCheck': async ({ params }) => {
      const target = await targetBooking(db, params.id);
      if (!target) throw new HttpError(404, 'Action introuvable');
      const category = target.populationCategory?.trim();
      if (!category || target.startDate === null || target.endDate === null || target.goalViews <= 0) return { state: 'none' as const, months: [] };
      const categories = await categoriesNamed(db, category);
      if (!categories.length) return { state: 'unknown' as const, months: [] };
      const from = monthOf(target.startDate * 1000);
      const to = monthOf(Math.max(target.startDate, target.endDate) * 1000);
      const filter = {
        specialty: categories.filter((c) => c.label === 'Specialty').map((c) => c.categoryId),
        profession: categories.filter((c) => c.label === 'Profession').map((c) => c.categoryId),
      };
      const remaining = await remainingByMonth(context, from, to, filter);
      // Its own booking is left out: the check says whether this target fits, not whether it fits twice.
      const own =
        target.status === CANCELLED_STATUS ? new Map<string, number>() : spreadOverMonths(target.startDate, target.endDate, target.goalViews);
      const withoutOwn = remaining.map(({ date, remaining: left }) => ({
        date,
        remaining: left + Math.round(own.get(date) ?? 0) * categories.length,
      }));
      return { state: 'checked' as const, months: availability(withoutOwn, target.goalViews) };
    },
  };
}

/**
 * The view inventory (platform.md §2 "Inventory dashboard", §4 "Inventory views", §5, §9; docs/inventory.md): months,
 * quarters, the 30 % alert, the availability rule, the CSV header rules and the spreading of a target's views.
 * Pure and free of imports: the screen, the server and the tests share it.
 */

/** §9: the month view shows 6 months from the current one; the export covers 12 months from now. */
export const MONTH_VIEW_MONTHS = 6;
export const EXPORT_MONTHS = 12;
/**
 * Categories a page of the inventory screen shows, and POST /inventory answers at once (issue 51: 23,661 categories
 * were answered whole, 10 MB); the screen's « Afficher plus » asks for the next page.
 */
export const INVENTORY_PAGE_SIZE = 100;
/** Most categories one call may ask for. */
export const INVENTORY_MAX_PAGE = 500;
/** §9: low-stock threshold, remaining views at or below 30 % of the total. */
export const LOW_STOCK_RATIO = 0.3;
/** §9 quarter labels. */
export const QUARTER_LABELS = ['Janvier - Mars', 'Avril - Juin', 'Juillet - Septembre', 'Octobre - Décembre'] as const;
/** The status of a cancelled target: it books nothing. */
export const CANCELLED_STATUS = '7. annulé';
/** The columns every inventory CSV must have (§5). */
export const REQUIRED_COLUMNS = ['Profession', 'Specialty', 'Nom'] as const;
/** Largest inventory CSV accepted (200 categories × 36 months weigh about 60 kB). */
export const INVENTORY_CSV_MAX_BYTES = 20 * 1024 * 1024;
export const INVENTORY_FORMATS = ['csv'] as const;
/** Largest view count of one cell (a month of one category). */
export const MAX_VIEWS = 1e12;

export type ViewType = 'month' | 'quarter';

/** A month as year and month (1-12). */
export interface Month {
  year: number;
  month: number;
}

/** §5 header rule: two digits, a slash, two digits. */
export const MONTH_HEADER = /^\d{2}\/\d{2}$/;

/** YY/MM of a month. */
export function monthKey({ year, month }: Month): string {
  return `${String(year % 100).padStart(2, '0')}/${String(month).padStart(2, '0')}`;
}

/** The month a YY/MM text names (years 2000-2099), or null when it cannot be parsed ('Invalid dates'). */
export function parseMonthKey(text: string): Month | null {
  if (!MONTH_HEADER.test(text)) return null;
  const month = Number(text.slice(3, 5));
  if (month < 1 || month > 12) return null;
  return { year: 2000 + Number(text.slice(0, 2)), month };
}

/** The month `count` months after (or before, when negative) `from`. */
export function addMonths(from: Month, count: number): Month {
  const index = from.year * 12 + (from.month - 1) + count;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** Months from `from` to `to`, both included (empty when `from` is after `to`). */
export function monthRange(from: Month, to: Month): Month[] {
  const out: Month[] = [];
  const last = to.year * 12 + to.month;
  for (let current = from; current.year * 12 + current.month <= last; current = addMonths(current, 1)) out.push(current);
  return out;
}

export const compareMonths = (a: Month, b: Month): number => a.year * 12 + a.month - (b.year * 12 + b.month);

/** The current month of an instant (UTC: calendar days are kept at midnight UTC). */
export function monthOf(epochMs: number): Month {
  const date = new Date(epochMs);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

/**
 * §4: the month view shows 6 months starting with `anchor` (the current month, moved by 6 per arrow); the quarter
 * view covers `anchor`'s calendar year (moved by one year per arrow).
 */
export function viewRange(viewType: ViewType, anchor: Month): { from: Month; to: Month } {
  if (viewType === 'quarter') return { from: { year: anchor.year, month: 1 }, to: { year: anchor.year, month: 12 } };
  return { from: anchor, to: addMonths(anchor, MONTH_VIEW_MONTHS - 1) };
}

/** Where an arrow leads: 6 months in month view, a year in quarter view. */
export function moveAnchor(viewType: ViewType, anchor: Month, direction: 1 | -1): Month {
  return addMonths(anchor, direction * (viewType === 'quarter' ? 12 : MONTH_VIEW_MONTHS));
}

/** The first month of a month's quarter. */
export function quarterStart({ year, month }: Month): Month {
  return { year, month: month - ((month - 1) % 3) };
}

/** §9 label of the quarter starting (or lying) at `month`. */
export function quarterLabel(month: Month): string {
  return QUARTER_LABELS[Math.floor((month.month - 1) / 3)];
}

const MONTH_NAMES = ['Janvier', 'Février', 'Mars', 'Avril', 'Mai', 'Juin', 'Juillet', 'Août', 'Septembre', 'Octobre', 'Novembre', 'Décembre'];

/** A month's French name ('Janvier'). */
export function monthName(month: Month): string {
  return MONTH_NAMES[month.month - 1];
}

/** §2 label: first month - last month and year, followed by '- vues disponibles' (quarter view: the year). */
export function periodLabel(viewType: ViewType, anchor: Month): string {
  const { from, to } = viewRange(viewType, anchor);
  const year = from.year === to.year ? `${to.year}` : `${from.year}/${to.year}`;
  return `${monthName(from)} - ${monthName(to)} ${year} - vues disponibles`;
}

export interface InventoryEntry {
  date: string;
  totalViews: number;
  consumedViews: number;
}

/** Quarter sums: the entries of one month each (YY/MM) summed per calendar quarter, dated by its first month. */
export function sumByQuarter(entries: readonly InventoryEntry[]): InventoryEntry[] {
  const quarters = new Map<string, InventoryEntry>();
  for (const entry of entries) {
    const month = parseMonthKey(entry.date);
    if (!month) continue;
    const date = monthKey(quarterStart(month));
    const sum = quarters.get(date) ?? { date, totalViews: 0, consumedViews: 0 };
    sum.totalViews += entry.totalViews;
    sum.consumedViews += entry.consumedViews;
    quarters.set(date, sum);
  }
  return [...quarters.values()].sort((a, b) => a.date.localeCompare(b.date));
}

export const remainingViews = (entry: Pick<InventoryEntry, 'totalViews' | 'consumedViews'>): number => entry.totalViews - entry.consumedViews;

/** §2: a row is on alert when its remaining views are at or below 30 % of its total. */
export function isLowStock(totalViews: number, consumedViews: number): boolean {
  return totalViews - consumedViews <= LOW_STOCK_RATIO * totalViews;
}

/** Consumption in percent of the total, one decimal (0 when there is no total). */
export function consumptionPercent(totalViews: number, consumedViews: number): number {
  return totalViews > 0 ? Math.round((consumedViews / totalViews) * 1000) / 10 : 0;
}

const DAY_SECONDS = 86_400;

/**
 * A target's views spread evenly over the days from its start day to its end day (both included, UTC days), summed
 * per month (YY/MM). The server computes the same in SQL; an end before the start books one day at the start.
 */
export function spreadOverMonths(startSeconds: number, endSeconds: number, views: number): Map<string, number> {
  const startDay = Math.floor(startSeconds / DAY_SECONDS);
  const endDay = Math.max(startDay, Math.floor(endSeconds / DAY_SECONDS));
  const perDay = views / (endDay - startDay + 1);
  const out = new Map<string, number>();
  let day = startDay;
  while (day <= endDay) {
    const month = monthOf(day * DAY_SECONDS * 1000);
    const next = addMonths(month, 1);
    const nextDay = Math.floor(Date.UTC(next.year, next.month - 1, 1) / 1000 / DAY_SECONDS);
    const last = Math.min(endDay, nextDay - 1);
    out.set(monthKey(month), (last - day + 1) * perDay);
    day = last + 1;
  }
  return out;
}

export interface AvailabilityMonth {
  date: string;
  isAvailable: boolean;
  viewDifference: number;
}

/**
 * The availability rule (README glossary): the sold views are spread evenly over the months of the range; a
 * month's viewDifference is the remaining views of the chosen categories minus that month's share (rounded to a
 * view), and the month is available when it is at least 0.
 */
export function availability(remainingByMonth: readonly { date: string; remaining: number }[], soldViews: number): AvailabilityMonth[] {
  const share = remainingByMonth.length ? soldViews / remainingByMonth.length : 0;
  return remainingByMonth.map(({ date, remaining }) => {
    const viewDifference = Math.round(remaining - share);
    return { date, isAvailable: viewDifference >= 0, viewDifference };
  });
}

/** §5: the header problem of an inventory CSV, the spec's message, or null when the header is right. */
export function headerProblem(headers: readonly string[]): string | null {
  const names = headers.map((header) => header.trim());
  const missing = REQUIRED_COLUMNS.filter((column) => !names.includes(column));
  if (missing.length) return `Missing columns : ${missing.join(' | ')}`;
  const dates = names.filter((name) => !(REQUIRED_COLUMNS as readonly string[]).includes(name));
  if (dates.some((name) => !MONTH_HEADER.test(name))) return 'Wrong format of dates, they should be formated like this: YY/MM (ex: 22/01)';
  if (dates.some((name) => parseMonthKey(name) === null)) return 'Invalid dates';
  return null;
}

/**
 * A view count as a cell writes it, French or plain: "12 000", "12 000" (no-break or narrow spaces), "12000",
 * "12.000" is refused (ambiguous). Empty cells are null (no capacity that month); anything else is undefined.
 */
export function parseViewCount(cell: string): number | null | undefined {
  const text = cell.replace(/[\s\u00a0\u202f]/g, '');
  if (text === '') return null;
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_VIEWS ? value : undefined;
}

/** Numbers with spaces as thousands separators (§9). */
export function formatViews(value: number): string {
  const sign = value < 0 ? '-' : '';
  return sign + String(Math.abs(Math.round(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** §5: sold views accept digits only. */
export const digitsOnly = (text: string): string => text.replace(/\D/g, '');

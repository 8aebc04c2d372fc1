import { sql, type SQL } from 'drizzle-orm';
import { CANCELLED_STATUS, monthKey, monthRange, type Month } from '@shared/rules/inventory';
import type { Database } from '../../db/client';
import { param, rows, type Executor } from '../../db/rows';

/**
 * The inventory's reads (docs/inventory.md). Capacity comes from inventory_capacity; consumption from the targets that book
 * views: goal.views > 0, any status but "7. annulé", in the category its populationCategory names (compared
 * without case), spread evenly over the UTC days from its start day to its end day (both included; an end before
 * the start books the start day). The dashboard reads the sums that triggers on targets keep per category and
 * month (migration 0017); the row modal's list of consuming targets reads the targets themselves, through
 * targets_inventory_idx (its predicate is written here as the index states it, so the planner can use it).
 */

export type CategoryLabel = 'Specialty' | 'Profession';

export interface CategoryFilter {
  specialty: readonly number[];
  profession: readonly number[];
}

export interface MonthFigures {
  label: CategoryLabel;
  categoryId: number;
  name: string;
  /** YY/MM */
  date: string;
  totalViews: number;
  consumedViews: number;
  unplannedViews: number;
}

const BOOKING = sql.raw(`t.goal_views > 0 AND t.status <> '${CANCELLED_STATUS}'`);
const DAY = 86_400;

export const firstDay = (month: Month) => `${month.year}-${String(month.month).padStart(2, '0')}-01`;
const epochOf = (month: Month) => Date.UTC(month.year, month.month - 1, 1) / 1000;

/**
 * A read of the targets' spread (the row modal's consumers), in a transaction without PostgreSQL's JIT: the
 * planner's cost of the spread (every booked target × the months of the range) passes jit_above_cost, and
 * compiling took longer than the query (seconds, in bench/sections/inventory.ts). PGlite has no JIT; the setting is accepted and changes nothing there.
 */
export function withoutJit<T>(db: Database, read: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    return read(tx);
  });
}

/** Categories of the filter (both lists empty: every category). */
function categoryClause(filter: CategoryFilter): SQL {
  if (!filter.specialty.length && !filter.profession.length) return sql`true`;
  return sql`((c.label = 'Specialty' AND c.category_id = ANY(${param(filter.specialty)}::int[]))
    OR (c.label = 'Profession' AND c.category_id = ANY(${param(filter.profession)}::int[])))`;
}

/** The months of the range with their first day and the day after their last (UTC day numbers). */
const monthsCte = (from: Month, to: Month) => sql`months AS (
    SELECT m::date AS month, (extract(epoch FROM m) / ${DAY})::int AS d0, (extract(epoch FROM m + interval '1 month') / ${DAY})::int AS d1
    FROM generate_series(${firstDay(from)}::timestamp, ${firstDay(to)}::timestamp, interval '1 month') AS m)`;

/** Targets of the chosen categories' names booking a day of the range, as day numbers. */
const bookedCte = (from: Month, afterTo: Month, extra: SQL = sql``) => sql`booked AS (
    SELECT lower(c.name) AS cat, t.goal_views::float8 AS views,
      (t.start_date / ${DAY})::int AS s, (greatest(t.start_date, t.end_date) / ${DAY})::int AS e ${extra}
    FROM (SELECT DISTINCT lower(name) AS name FROM cats) c JOIN targets t ON lower(t.population_category) = lower(c.name)
    WHERE ${BOOKING} AND t.start_date < ${epochOf(afterTo)} AND t.end_date IS NOT NULL AND greatest(t.start_date, t.end_date) >= ${epochOf(from)})`;

/** A booked target's share of a month: its views × days in the month / days booked. */
const share = sql`b.views * (least(b.e, m.d1 - 1) - greatest(b.s, m.d0) + 1) / (b.e - b.s + 1)`;

interface CategoryFigures {
  label: CategoryLabel;
  categoryId: number;
  name: string;
  /** The months (YY/MM) with capacity and their total views, in order. */
  capacityDates: string[];
  totals: number[];
  /** The months (YY/MM) with consumption and their consumed views (rounded). */
  consumedDates: string[] | null;
  consumed: number[] | null;
  unplannedViews: number;
}

/**
 * Capacity and consumption of every category of the filter with capacity in the range, month by month, in the
 * dashboard's order (general medicine first, then by name). Consumption is what the targets' triggers keep
 * (inventory_consumption, inventory_unplanned; migration 0017), matched by the category's name without case (the
 * database's lower()); a month's is rounded as float8, as when it was summed in SQL from the targets. A category's
 * name is its latest month's in the range. One row per category, its months as arrays: a result row costs more
 * to hand over than to compute (PGlite above all), so 200 rows, not 200 × the months.
 */
export async function monthFigures(db: Executor, from: Month, to: Month, filter: CategoryFilter, page?: Page): Promise<MonthFigures[]> {
  return (await pagedMonthFigures(db, from, to, filter, page)).figures;
}

/** A page of categories in the screen's order: `skip` categories left out, then at most `limit`. */
interface Page {
  skip: number;
  limit: number;
}

/** The month figures of a page of categories (every one without `page`), and how many categories the range has. */
export async function pagedMonthFigures(
  db: Executor,
  from: Month,
  to: Month,
  filter: CategoryFilter,
  page?: Page,
): Promise<{ figures: MonthFigures[]; total: number }> {
  const range = sql`BETWEEN ${firstDay(from)}::date AND ${firstDay(to)}::date`;
  const paged = page ? sql`LIMIT ${page.limit} OFFSET ${page.skip}` : sql``;
  const categories = await rows<CategoryFigures & { total: number }>(
    db,
    sql`WITH every_cat AS (
      SELECT c.label, c.category_id, (array_agg(c.name ORDER BY c.month DESC))[1] AS name,
        array_agg(to_char(c.month, 'YY/MM') ORDER BY c.month) AS dates, array_agg(c.total_views::float8 ORDER BY c.month) AS totals
      FROM inventory_capacity c WHERE c.month ${range} AND ${categoryClause(filter)} GROUP BY c.label, c.category_id),
    cats AS (SELECT e.*, count(*) OVER ()::int AS total FROM every_cat e
      ORDER BY e.label DESC, (e.label = 'Specialty' AND e.category_id = 1) DESC, lower(e.name), e.category_id ${paged}),
    used AS (SELECT co.category, array_agg(to_char(co.month, 'YY/MM')) AS dates, array_agg(round(co.views::float8)) AS views
      FROM inventory_consumption co WHERE co.month ${range} AND co.category IN (SELECT lower(name) FROM cats) GROUP BY co.category)
    SELECT c.label, c.category_id AS "categoryId", c.name, c.dates AS "capacityDates", c.totals,
      used.dates AS "consumedDates", used.views AS consumed, coalesce(u.views, 0)::float8 AS "unplannedViews", c.total
    FROM cats c LEFT JOIN used ON used.category = lower(c.name) LEFT JOIN inventory_unplanned u ON u.category = lower(c.name)
    ORDER BY c.label DESC, (c.label = 'Specialty' AND c.category_id = 1) DESC, lower(c.name), c.category_id`,
  );
  // A page past the last category has no row to carry the count: counted apart (only then).
  const total = categories[0]?.total ?? (page && page.skip > 0 ? await categoryCount(db, range, filter) : 0);
  const dates = monthRange(from, to).map(monthKey);
  const figures = categories.flatMap(({ label, categoryId, name, capacityDates, totals, consumedDates, consumed, unplannedViews }) => {
    const totalOf = new Map(capacityDates.map((date, i) => [date, totals[i]]));
    const consumedOf = new Map((consumedDates ?? []).map((date, i) => [date, consumed![i]]));
    return dates.map((date) => ({
      label,
      categoryId,
      name,
      date,
      totalViews: totalOf.get(date) ?? 0,
      consumedViews: consumedOf.get(date) ?? 0,
      unplannedViews,
    }));
  });
  return { figures, total };
}

async function categoryCount(db: Executor, range: SQL, filter: CategoryFilter): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM inventory_capacity c WHERE c.month ${range} AND ${categoryClause(filter)}
      GROUP BY c.label, c.category_id) categories`,
  );
  return row?.n ?? 0;
}

export interface Consumer {
  date: string;
  projectId: number;
  projectName: string;
  targetId: number;
  actionCode: string | null;
  views: number;
}

/** The targets booking one category over a range, with their share of each month (the row modal's list). */
export async function consumers(db: Executor, from: Month, to: Month, label: CategoryLabel, categoryId: number): Promise<Consumer[]> {
  const afterTo = { year: to.month === 12 ? to.year + 1 : to.year, month: (to.month % 12) + 1 };
  const found = await rows<Omit<Consumer, 'date'> & { month: string }>(
    db,
    sql`WITH ${monthsCte(from, to)},
    cats AS (SELECT DISTINCT ON (label, category_id) name FROM inventory_capacity
      WHERE label = ${label} AND category_id = ${categoryId} ORDER BY label, category_id, month DESC),
    ${bookedCte(from, afterTo, sql`, t.id AS target_id, t.project_id, t.action_code`)}
    SELECT to_char(m.month, 'YYYY-MM') AS month, b.project_id AS "projectId", p.name AS "projectName", b.target_id AS "targetId",
      b.action_code AS "actionCode", round(${share})::float8 AS views
    FROM booked b JOIN months m ON m.d0 <= b.e AND m.d1 > b.s JOIN projects p ON p.id = b.project_id
    ORDER BY m.month, views DESC, b.target_id`,
  );
  return found.map(({ month, ...row }) => ({ ...row, date: monthKey({ year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)) }) }));
}

export interface TargetBooking {
  id: number;
  populationCategory: string | null;
  status: string;
  goalViews: number;
  startDate: number | null;
  endDate: number | null;
}

export async function targetBooking(db: Executor, id: number): Promise<TargetBooking | undefined> {
  const [found] = await rows<TargetBooking>(
    db,
    sql`SELECT id, population_category AS "populationCategory", status, goal_views::float8 AS "goalViews",
      start_date::float8 AS "startDate", end_date::float8 AS "endDate" FROM targets WHERE id = ${id}`,
  );
  return found;
}

/** The categories whose name a populationCategory names (without case). */
export async function categoriesNamed(db: Executor, name: string): Promise<{ label: CategoryLabel; categoryId: number }[]> {
  return rows(
    db,
    sql`SELECT DISTINCT label, category_id AS "categoryId" FROM inventory_capacity WHERE lower(name) = lower(${name.trim()}) ORDER BY 1, 2`,
  );
}

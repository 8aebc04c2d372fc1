import { sql, type SQL } from 'drizzle-orm';
import { CANCELLED_STATUS, monthKey, type Month } from '@shared/rules/inventory';
import type { Database } from '../../db/client';
import { param, rows, type Executor } from '../../db/rows';

/**
 * The inventory's reads (issue 22). Capacity comes from inventory_capacity; consumption from the targets that book
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
 * planner's cost of the spread (every booked target × the months of the range) passes jit_above_cost, and compiling took longer than the query (seconds, in
 * bench/sections/inventory.ts). PGlite has no JIT; the setting is accepted and changes nothing there.
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

/**
 * Capacity and consumption of every category of the filter with capacity in the range, month by month: capacity
 * joined to the consumption the targets' triggers keep (inventory_consumption, inventory_unplanned; migration
 * 0017), by category name without case. A month's consumption is rounded as float8, as when it was summed here.
 */
export async function monthFigures(db: Executor, from: Month, to: Month, filter: CategoryFilter): Promise<MonthFigures[]> {
  const found = await rows<{
    label: CategoryLabel;
    categoryId: number;
    name: string;
    month: string;
    totalViews: number;
    consumedViews: number;
    unplannedViews: number;
  }>(
    db,
    sql`WITH months AS (SELECT m::date AS month FROM generate_series(${firstDay(from)}::timestamp, ${firstDay(to)}::timestamp, interval '1 month') AS m),
    cap AS (SELECT c.label, c.category_id, c.name, c.month, c.total_views FROM inventory_capacity c
      WHERE c.month BETWEEN ${firstDay(from)}::date AND ${firstDay(to)}::date AND ${categoryClause(filter)}),
    cats AS (SELECT DISTINCT ON (label, category_id) label, category_id, name, lower(name) AS category FROM cap ORDER BY label, category_id, month DESC)
    SELECT c.label, c.category_id AS "categoryId", c.name, to_char(m.month, 'YYYY-MM') AS month,
      coalesce(cap.total_views, 0)::float8 AS "totalViews", coalesce(round(co.views::float8), 0)::float8 AS "consumedViews",
      coalesce(u.views, 0)::float8 AS "unplannedViews"
    FROM cats c CROSS JOIN months m
    LEFT JOIN cap ON cap.label = c.label AND cap.category_id = c.category_id AND cap.month = m.month
    LEFT JOIN inventory_consumption co ON co.category = c.category AND co.month = m.month
    LEFT JOIN inventory_unplanned u ON u.category = c.category
    ORDER BY c.label DESC, (c.label = 'Specialty' AND c.category_id = 1) DESC, c.category, c.category_id, m.month`,
  );
  return found.map(({ month, ...row }) => ({ ...row, date: monthKey({ year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)) }) }));
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

import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCELLED_STATUS } from '@shared/rules/inventory';
import { TARGET_STATUSES } from '@shared/rules/projects';
import type { DatabaseHandle } from '../../src-server/db/client';
import { param, rows, type Executor } from '../../src-server/db/rows';
import { freshDatabase } from '../helpers/database';

/**
 * The consumption the triggers of migration 0017 keep on targets (inventory_consumption,
 * inventory_unplanned) equals, after any change of the targets, the consumption computed from scratch the way the
 * reads computed it before (every booking target spread over its days, summed per category name and month). On
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

let database: DatabaseHandle;
const DAY = 86_400;
const JAN_2024 = Date.UTC(2024, 0, 1) / 1000;

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database?.close());

/**
 * The reference: the SQL the reads ran before migration 0017, over every month the targets can reach. `exact` sums
 * the shares as numeric (what the table keeps), `rounded` as float8, rounded, as the dashboard showed them.
 */
const fromScratch = (db: Executor) =>
  rows<{ category: string; month: string; exact: string; rounded: number }>(
    db,
    sql`WITH booked AS (SELECT lower(t.population_category) AS category, t.goal_views AS views, (t.start_date / ${DAY})::int AS s,
        (greatest(t.start_date, t.end_date) / ${DAY})::int AS e FROM targets t
      WHERE t.goal_views > 0 AND t.status <> ${CANCELLED_STATUS} AND t.population_category IS NOT NULL AND t.start_date IS NOT NULL AND t.end_date IS NOT NULL),
    months AS (SELECT m::date AS month, (extract(epoch FROM m) / ${DAY})::int AS d0, (extract(epoch FROM m + interval '1 month') / ${DAY})::int AS d1
      FROM generate_series('2023-01-01'::timestamp, '2027-12-01'::timestamp, interval '1 month') AS m)
    SELECT b.category, to_char(m.month, 'YYYY-MM') AS month,
      trim_scale(sum(b.views::numeric * (least(b.e, m.d1 - 1) - greatest(b.s, m.d0) + 1) / (b.e - b.s + 1)))::text AS exact,
      round(sum(b.views::float8 * (least(b.e, m.d1 - 1) - greatest(b.s, m.d0) + 1) / (b.e - b.s + 1)))::float8 AS rounded
    FROM booked b JOIN months m ON m.d0 <= b.e AND m.d1 > b.s GROUP BY 1, 2 ORDER BY 1, 2`,
  );

const kept = (db: Executor) =>
  rows<{ category: string; month: string; exact: string; rounded: number }>(
    db,
    sql`SELECT category, to_char(month, 'YYYY-MM') AS month, trim_scale(views)::text AS exact, round(views::float8)::float8 AS rounded
    FROM inventory_consumption WHERE views <> 0 ORDER BY 1, 2`,
  );

const unplannedFromScratch = (db: Executor) =>
  rows<{ category: string; views: number }>(
    db,
    sql`SELECT lower(population_category) AS category, sum(goal_views)::float8 AS views FROM targets
    WHERE goal_views > 0 AND status <> ${CANCELLED_STATUS} AND population_category IS NOT NULL AND (start_date IS NULL OR end_date IS NULL)
    GROUP BY 1 ORDER BY 1`,
  );

const unplannedKept = (db: Executor) =>
  rows<{ category: string; views: number }>(db, sql`SELECT category, views::float8 AS views FROM inventory_unplanned WHERE views <> 0 ORDER BY 1`);

async function expectKeptEqualsFromScratch(step: string) {
  const db = database.db;
  expect(await kept(db), step).toEqual(await fromScratch(db));
  expect(await unplannedKept(db), step).toEqual(await unplannedFromScratch(db));
}

/** mulberry32: the same changes on every run, so a failure can be replayed. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

const CATEGORIES = ['Cardiologie', 'cardiologie', 'CARDIOLOGIE', 'Dermatologie', 'Pharmacien', 'Médecine générale', null];

async function newProject(db: Executor): Promise<number> {
  const [{ id }] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO projects (name, client_name, actor, status) VALUES ('Projet', 'Client', 'Laboratoire', 'active') RETURNING id`,
  );
  return id;
}

describe('inventory consumption kept by the targets triggers', () => {
  it('equals the from-scratch computation after random inserts, updates, copies, deletes and rollbacks', async () => {
    const db = database.db;
    const random = randomSource(22);
    const projects = [await newProject(db), await newProject(db), await newProject(db)];
    let code = 0;
    // A date in 2024-2025, at midnight or within the day; end dates before their start now and then.
    const date = () => (random.next() < 0.1 ? null : JAN_2024 + random.int(730) * DAY + (random.next() < 0.3 ? random.int(DAY) : 0));
    const target = () => {
      const start = date();
      const end = start === null || random.next() < 0.1 ? date() : start + (random.int(120) - 5) * DAY + random.int(3) * 3_600;
      return {
        category: random.pick(CATEGORIES),
        status: random.pick(TARGET_STATUSES),
        views: random.next() < 0.2 ? 0 : 1 + random.int(60_000),
        start,
        end,
      };
    };
    const insert = async (executor: Executor, count: number) => {
      const lines = Array.from({ length: count }, target);
      const first = code;
      code += count;
      await executor.execute(sql`INSERT INTO targets (project_id, position, action_code, status, population_category, goal_views, start_date, end_date)
        SELECT (${param(projects)}::int[])[1 + n::int % 3], n, 'R' || (${first} + n), s, c, v, sd, ed
        FROM unnest(${param(lines.map((l) => l.status))}::text[], ${param(lines.map((l) => l.category))}::text[], ${param(lines.map((l) => l.views))}::bigint[],
          ${param(lines.map((l) => l.start))}::bigint[], ${param(lines.map((l) => l.end))}::bigint[]) WITH ORDINALITY AS x(s, c, v, sd, ed, n)`);
    };
    const someIds = async (share: number) =>
      (await rows<{ id: number }>(db, sql`SELECT id FROM targets ORDER BY id`)).map((row) => row.id).filter(() => random.next() < share);

    await insert(db, 200);
    await expectKeptEqualsFromScratch('bulk insert');
    for (let round = 0; round < 40; round += 1) {
      const change = random.int(9);
      const ids = await someIds(0.1);
      const one = target();
      if (change === 0) await insert(db, 1 + random.int(30));
      else if (change === 1) await db.execute(sql`UPDATE targets SET goal_views = ${one.views} WHERE id = ANY(${param(ids)}::int[])`);
      else if (change === 2) await db.execute(sql`UPDATE targets SET status = ${one.status} WHERE id = ANY(${param(ids)}::int[])`);
      else if (change === 3)
        await db.execute(sql`UPDATE targets SET start_date = ${one.start}, end_date = ${one.end} WHERE id = ANY(${param(ids)}::int[])`);
      else if (change === 4) await db.execute(sql`UPDATE targets SET population_category = ${one.category} WHERE id = ANY(${param(ids)}::int[])`);
      else if (change === 5) await db.execute(sql`UPDATE targets SET start_date = start_date + ${(random.int(40) - 20) * DAY}::bigint`);
      else if (change === 6) await db.execute(sql`DELETE FROM targets WHERE id = ANY(${param(ids)}::int[])`);
      else if (change === 7)
        await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, population_category, goal_views, start_date, end_date)
          SELECT project_id, position, action_code || '-' || ${round}, status, population_category, goal_views, start_date, end_date
          FROM targets WHERE id = ANY(${param(ids)}::int[])`);
      else {
        // A transaction that changes targets and rolls back leaves the consumption as it was.
        await db
          .transaction(async (tx) => {
            await tx.execute(sql`UPDATE targets SET goal_views = goal_views + 1000, population_category = 'Pharmacien'`);
            await insert(tx, 5);
            tx.rollback();
          })
          .catch(() => undefined);
      }
      // An update of a column the inventory ignores writes no sum.
      await db.execute(sql`UPDATE targets SET comment = ${`tour ${round}`} WHERE id = ANY(${param(ids)}::int[])`);
      await expectKeptEqualsFromScratch(`round ${round}, change ${change}`);
    }
    // Some sums and "non planifié" counts are there, not only zeros.
    expect((await kept(db)).length).toBeGreaterThan(20);
    expect((await unplannedKept(db)).length).toBeGreaterThan(1);

    // A project deleted takes its targets (cascade), then a truncate empties everything.
    await db.execute(sql`DELETE FROM projects WHERE id = ${projects[0]}`);
    await expectKeptEqualsFromScratch('project deleted');
    await db.execute(sql`TRUNCATE projects CASCADE`);
    await expectKeptEqualsFromScratch('truncate');
    expect(await rows(db, sql`SELECT * FROM inventory_consumption`)).toEqual([]);
  });

  it('stays exact when concurrent transactions change targets of the same categories and months', async () => {
    const db = database.db;
    const project = await newProject(db);
    await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, population_category, goal_views, start_date, end_date)
      SELECT ${project}, n, 'C' || n, '2. en ligne', 'Cardiologie', 1000 + n, ${JAN_2024} + n * ${DAY}, ${JAN_2024} + (n + 60) * ${DAY}
      FROM generate_series(1, 40) n`);
    const ids = (await rows<{ id: number }>(db, sql`SELECT id FROM targets WHERE project_id = ${project} ORDER BY id`)).map((row) => row.id);
    // Eight transactions, each moving its own five targets (same category, overlapping months), held open a moment
    // so that on PostgreSQL they wait on each other's sums.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction(async (tx) => {
          const mine = ids.slice(i * 5, i * 5 + 5);
          await tx.execute(
            sql`UPDATE targets SET goal_views = goal_views * 2, end_date = end_date + ${i * DAY}::bigint WHERE id = ANY(${param(mine)}::int[])`,
          );
          await tx.execute(sql`SELECT pg_sleep(0.02)`);
          await tx.execute(sql`DELETE FROM targets WHERE id = ${mine[0]}`);
        }),
      ),
    );
    await expectKeptEqualsFromScratch('concurrent transactions');
    expect((await kept(db)).length).toBeGreaterThan(2);
  });

  it("the migration's backfill computes the same sums from the targets already there", async () => {
    const db = database.db;
    const project = await newProject(db);
    await db.execute(sql`ALTER TABLE targets DISABLE TRIGGER USER`);
    try {
      await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, population_category, goal_views, start_date, end_date)
        SELECT ${project}, n, 'B' || n, (${param(TARGET_STATUSES)}::text[])[1 + n % 9], (ARRAY['Pharmacien', 'dermatologie', NULL])[1 + n % 3],
          (n * 37) % 5000, CASE WHEN n % 11 = 0 THEN NULL ELSE ${JAN_2024} + (n % 500) * ${DAY} + n END,
          ${JAN_2024} + (n % 500 + n % 70 - 3) * ${DAY}
        FROM generate_series(1, 300) n`);
      await db.execute(sql`DELETE FROM inventory_consumption`);
      await db.execute(sql`DELETE FROM inventory_unplanned`);
      const migration = readFileSync(new URL('../../src-server/db/migrations/0017_inventory_consumption.sql', import.meta.url), 'utf8');
      const backfill = migration
        .split('--> statement-breakpoint')
        .map((statement) => statement.trim())
        .filter((statement) => statement.startsWith('INSERT INTO'));
      expect(backfill).toHaveLength(2);
      for (const statement of backfill) await db.execute(sql.raw(statement));
    } finally {
      await db.execute(sql`ALTER TABLE targets ENABLE TRIGGER USER`);
    }
    await expectKeptEqualsFromScratch('backfill');
    expect((await kept(db)).length).toBeGreaterThan(20);
  });
});

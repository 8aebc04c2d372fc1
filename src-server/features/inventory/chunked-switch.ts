import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { param, rows } from '../../db/rows';
import type { CategoryLabel } from './queries';

/**
 * The switch of a large inventory file on PGlite (docs/inventory.md, "Importing on the embedded database").
 * PGlite has one connection: the one-transaction switch of a 20 MB file held every other call for up to 28 s.
 * Here the new table is built beside the one readers use, in statements of a few thousand rows each (other calls
 * run between them), then switched in by a rename in one short transaction: readers see the old inventory or the
 * new one, never half of it. A failure before the rename drops the table being built and changes nothing.
 */

/** Rows per statement: about 20–60 ms each on PGlite on the 2-core reference machine. */
const CHUNK_ROWS = 2_000;
/** Pages of inventory_staging per statement (≈ 110 staged cells per 8 kB page). */
const CHUNK_PAGES = 16;

const NEXT = 'inventory_capacity_next';
const NEXT_CATEGORIES = 'inventory_next_categories';

/**
 * One switch at a time per database, chunked or not: a build copies the current inventory, then drops it; a
 * small file's transaction committed meanwhile (between two of its statements) would be dropped with it.
 */
const builds = new WeakMap<Database, Promise<unknown>>();

/** Runs `apply` once the switches queued before it on this database are over (in the order they were queued). */
export function afterPreviousSwitches<T>(db: Database, apply: () => Promise<T>): Promise<T> {
  const previous = builds.get(db) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(apply);
  builds.set(db, run);
  return run;
}

export interface ChunkedSwitch {
  importId: number;
  months: string[];
  /** The file's categories with the names it gives them (a rename applies to every month). */
  categories: Map<string, { label: CategoryLabel; categoryId: number; name: string }>;
  /** What the import's history row says once switched in: its rows and months (YY/MM). */
  rows: number;
  monthKeys: string[];
  /** Called between statements (tests read the inventory there: it must still be the old one). */
  afterChunk?: () => Promise<void>;
}

/** Switches a staged import in, by chunks; resolves once the new inventory is the one readers see. */
export function switchInByChunks(db: Database, plan: ChunkedSwitch): Promise<void> {
  return afterPreviousSwitches(db, () => build(db, plan));
}

async function build(db: Database, plan: ChunkedSwitch): Promise<void> {
  const pause = async () => {
    await yieldToOthers();
    await plan.afterChunk?.();
  };
  await db.execute(sql.raw(`DROP TABLE IF EXISTS ${NEXT}, ${NEXT_CATEGORIES}`));
  try {
    // fillfactor 50 as the table it replaces (migration 0017): a later import updates its cells in place.
    await db.execute(
      sql.raw(`CREATE TABLE ${NEXT} (LIKE inventory_capacity INCLUDING DEFAULTS, CONSTRAINT ${NEXT}_pk PRIMARY KEY (label, category_id, month))
        WITH (fillfactor = 50)`),
    );
    await db.execute(sql.raw(`CREATE INDEX ${NEXT}_month_idx ON ${NEXT} (month)`));
    await db.execute(
      sql.raw(`CREATE TABLE ${NEXT_CATEGORIES} (label text, category_id integer, name text NOT NULL, PRIMARY KEY (label, category_id))`),
    );
    await copyCategories(db, [...plan.categories.values()], pause);
    await copyStaged(db, plan.importId, pause);
    await copyKeptMonths(db, plan.months, pause);
    await db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE inventory_capacity IN ACCESS EXCLUSIVE MODE`);
      await tx.execute(sql`DROP TABLE inventory_capacity`);
      await tx.execute(sql.raw(`ALTER TABLE ${NEXT} RENAME TO inventory_capacity`));
      await tx.execute(sql.raw(`ALTER TABLE inventory_capacity RENAME CONSTRAINT ${NEXT}_pk TO inventory_capacity_label_category_id_month_pk`));
      await tx.execute(sql.raw(`ALTER INDEX ${NEXT}_month_idx RENAME TO inventory_capacity_month_idx`));
      await tx.execute(sql`UPDATE inventory_imports SET rows = ${plan.rows}, months = ${param(plan.monthKeys)}::text[], finished_at = now()
        WHERE id = ${plan.importId}`);
    });
  } finally {
    await db.execute(sql.raw(`DROP TABLE IF EXISTS ${NEXT}, ${NEXT_CATEGORIES}`));
  }
  await db.execute(sql`ANALYZE inventory_capacity`);
  await dropStaged(db, plan.importId, pause);
}

type FileCategory = ChunkedSwitch['categories'] extends Map<string, infer V> ? V : never;

async function copyCategories(db: Database, categories: FileCategory[], pause: () => Promise<void>) {
  for (let start = 0; start < categories.length; start += CHUNK_ROWS) {
    const chunk = categories.slice(start, start + CHUNK_ROWS);
    await db.execute(sql`INSERT INTO ${sql.raw(NEXT_CATEGORIES)} (label, category_id, name)
      SELECT * FROM unnest(${param(chunk.map((c) => c.label))}::text[], ${param(chunk.map((c) => c.categoryId))}::int[],
        ${param(chunk.map((c) => c.name))}::text[])`);
    await pause();
  }
}

/** The number of 8 kB pages of a table (staged rows lie in pages 0 … n − 1). */
async function pagesOf(db: Database, table: string): Promise<number> {
  const [{ pages }] = await rows<{ pages: number }>(
    db,
    sql`SELECT (pg_relation_size(${table}::regclass) / current_setting('block_size')::int)::int AS pages`,
  );
  return pages;
}

/** Pages first … first + CHUNK_PAGES − 1 of a table, as a TID range (a TID Range Scan reads only those pages). */
const pageRange = (first: number): SQL => sql.raw(`ctid >= '(${first},0)'::tid AND ctid < '(${first + CHUNK_PAGES},0)'::tid`);

/** The file's cells, a few pages of the staging table at a time. */
async function copyStaged(db: Database, importId: number, pause: () => Promise<void>) {
  const pages = await pagesOf(db, 'inventory_staging');
  for (let first = 0; first < pages; first += CHUNK_PAGES) {
    await db.execute(sql`INSERT INTO ${sql.raw(NEXT)} (label, category_id, name, month, total_views)
      SELECT label, category_id, name, month, total_views FROM inventory_staging WHERE import_id = ${importId} AND ${pageRange(first)}`);
    await pause();
  }
}

/**
 * The current cells of the months the file does not name, in primary-key order a chunk at a time, each with the
 * name the file gives its category when it names it.
 */
async function copyKeptMonths(db: Database, months: string[], pause: () => Promise<void>) {
  let after: { label: string; categoryId: number; month: string } | null = null;
  for (;;) {
    const from: SQL = after ? sql`WHERE (c.label, c.category_id, c.month) > (${after.label}, ${after.categoryId}, ${after.month}::date)` : sql``;
    const [last] = await rows<{ label: string; categoryId: number; month: string } | { label: null }>(
      db,
      sql`WITH chunk AS (SELECT * FROM inventory_capacity c ${from} ORDER BY c.label, c.category_id, c.month LIMIT ${CHUNK_ROWS}),
        copied AS (INSERT INTO ${sql.raw(NEXT)} (label, category_id, name, month, total_views)
          SELECT k.label, k.category_id, coalesce(n.name, k.name), k.month, k.total_views
          FROM chunk k LEFT JOIN ${sql.raw(NEXT_CATEGORIES)} n ON n.label = k.label AND n.category_id = k.category_id
          WHERE NOT (k.month = ANY(${param(months)}::date[])))
        SELECT label, category_id AS "categoryId", to_char(month, 'YYYY-MM-DD') AS month FROM chunk
        ORDER BY label DESC, category_id DESC, month DESC LIMIT 1`,
    );
    if (!last || last.label === null) return;
    after = last;
    await pause();
  }
}

/** The import's staged rows, removed a few pages at a time once it is switched in. */
async function dropStaged(db: Database, importId: number, pause: () => Promise<void>) {
  const pages = await pagesOf(db, 'inventory_staging');
  for (let first = 0; first < pages; first += CHUNK_PAGES) {
    await db.execute(sql`DELETE FROM inventory_staging WHERE import_id = ${importId} AND ${pageRange(first)}`);
    await pause();
  }
}

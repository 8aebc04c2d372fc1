import { TextDecoder } from 'node:util';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type SQL } from 'drizzle-orm';
import Papa from 'papaparse';
import { INVENTORY_MESSAGES } from '@shared/messages/inventory';
import { PROFESSIONS, SPECIALTIES, type ReferenceItem } from '@shared/reference';
import { REQUIRED_COLUMNS, headerProblem, monthKey, parseMonthKey, parseViewCount, type Month } from '@shared/rules/inventory';
import type { Database } from '../../db/client';
import { param, rows, type Executor } from '../../db/rows';
import { HttpError } from '../../errors';
import { afterPreviousSwitches, switchInByChunks } from './chunked-switch';
import { firstDay, type CategoryLabel } from './queries';
import { foldForSearch } from '@shared/rules/fold';

/**
 * The inventory CSV import (platform.md §5; docs/inventory.md): the file streams in (never held whole), is decoded (UTF-8
 * with or without BOM, else Windows-1252), split by papaparse on ';' or ',' (whichever the header line holds
 * more of), checked row by row, its rows held (a usual file) or staged in batches under its import id (a large
 * one). A bad row stops the import, named by its line, and its staged rows are dropped; at the end one
 * transaction replaces the months the file names.
 */

/**
 * A file of up to HOLD_CELLS capacity cells (200 categories × 36 months is 7,200) is held as read and written by
 * the final transaction itself; past that, its rows go to inventory_staging in batches of BATCH_ROWS as they are
 * read, so that memory stays bounded whatever the file's size.
 */
const HOLD_CELLS = 20_000;
const BATCH_ROWS = 500;
/**
 * On PGlite a statement holds every other call (one connection): batches of about 3,600 cells (100 rows of 36
 * months) keep each under ~40 ms, where 500 rows took ~140 ms.
 */
const PGLITE_BATCH_ROWS = 50;

/** Decodes a byte stream: BOM → UTF-8; else UTF-8 if the first 64 kB read as UTF-8, else Windows-1252. */
export function decoder(): Transform {
  let decoder: TextDecoder | null = null;
  let head: Buffer[] = [];
  let headBytes = 0;
  const start = (buffer: Buffer, whole: boolean) => {
    const bom = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    let utf8 = bom;
    if (!bom) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(buffer, { stream: !whole });
        utf8 = true;
      } catch {
        utf8 = false;
      }
    }
    decoder = new TextDecoder(utf8 ? 'utf-8' : 'windows-1252', { fatal: utf8, ignoreBOM: false });
  };
  const decode = (buffer: Buffer, stream: boolean) => {
    try {
      return decoder!.decode(buffer, { stream });
    } catch {
      throw new HttpError(400, INVENTORY_MESSAGES.badEncoding);
    }
  };
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _encoding, done) {
      try {
        if (decoder) return done(null, decode(chunk, true));
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes < 64 * 1024) return done();
        const buffer = Buffer.concat(head);
        head = [];
        start(buffer, false);
        done(null, decode(buffer, true));
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        let text = '';
        if (!decoder) {
          const buffer = Buffer.concat(head);
          start(buffer, true);
          text = decode(buffer, true);
        }
        done(null, text + decode(Buffer.alloc(0), false));
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

/** ';' or ',': whichever the header line holds more of. */
export function separatorOf(headerLine: string): ';' | ',' {
  return (headerLine.match(/;/g)?.length ?? 0) >= (headerLine.match(/,/g)?.length ?? 0) ? ';' : ',';
}

const fold = (text: string) => foldForSearch(text).trim();

/**
 * A category cell: an id (any, the platform may have more categories than the reference list names; the
 * reference name when it has one) or a name of the reference list.
 */
function lookup(list: readonly ReferenceItem[], cell: string): ReferenceItem | undefined {
  const text = cell.trim();
  if (/^\d{1,6}$/.test(text) && Number(text) > 0) return list.find((item) => item.id === Number(text)) ?? { id: Number(text), name: '' };
  return list.find((item) => fold(item.name) === fold(text));
}

export interface CapacityRow {
  label: CategoryLabel;
  categoryId: number;
  name: string;
  /** Views per month of the file (index of `months`); null: the cell was empty. */
  views: (number | null)[];
}

/** Reads one data row (line `line` of the file) against the header; throws the row's problem. */
export function readRow(
  header: readonly string[],
  cells: readonly string[],
  months: readonly { index: number; key: string }[],
  line: number,
): CapacityRow {
  const cell = (column: string) => (cells[header.indexOf(column)] ?? '').trim();
  const specialty = cell('Specialty');
  const profession = cell('Profession');
  let label: CategoryLabel;
  let item: ReferenceItem | undefined;
  if (specialty) {
    label = 'Specialty';
    item = lookup(SPECIALTIES, specialty);
    if (!item) throw new HttpError(400, INVENTORY_MESSAGES.unknownCategory(line, 'Specialty', specialty));
  } else if (profession) {
    label = 'Profession';
    item = lookup(PROFESSIONS, profession);
    if (!item) throw new HttpError(400, INVENTORY_MESSAGES.unknownCategory(line, 'Profession', profession));
  } else {
    throw new HttpError(400, INVENTORY_MESSAGES.noCategory(line));
  }
  const views = months.map(({ index, key }) => {
    const value = parseViewCount(cells[index] ?? '');
    if (value === undefined) throw new HttpError(400, INVENTORY_MESSAGES.badViews(line, key, cells[index] ?? ''));
    return value;
  });
  const name = cell('Nom') || item.name;
  if (!name) throw new HttpError(400, INVENTORY_MESSAGES.noName(line));
  return { label, categoryId: item.id, name, views };
}

interface ImportState {
  header: string[] | null;
  months: { index: number; key: string; month: Month }[];
  /** The file's categories by `label:id`, with the name it gives each (a duplicate row is refused). */
  categories: Map<string, { label: CategoryLabel; categoryId: number; name: string }>;
  /** Rows per staged batch once staging began. */
  batchRows: number;
  /** Rows read and not yet staged. */
  held: CapacityRow[];
  heldCells: number;
  /** The import's id once its rows spill into inventory_staging (a file larger than HOLD_CELLS). */
  stagedAs: number | null;
  rows: number;
}

const newState = (batchRows: number): ImportState => ({
  header: null,
  months: [],
  categories: new Map(),
  batchRows,
  held: [],
  heldCells: 0,
  stagedAs: null,
  rows: 0,
});

/**
 * The cells of rows as a relation f(label, category_id, name, month, total_views). The rows' categories, the
 * file's months and the views travel as arrays (a 200 × 36 file is 7,200 numbers, not 7,200 copies of each
 * category), the views month by month (a month's cells then lie together in the table, as the dashboard reads
 * them), null for an empty cell; the cell at position k is row (k - 1) % rows + 1 of month (k - 1) / rows + 1.
 */
function cellsOf(state: ImportState, batch: readonly CapacityRow[]): SQL {
  const views = state.months.flatMap((_, j) => batch.map((row) => row.views[j]));
  return sql`(SELECT r.label, r.category_id, r.name, m.month, v.total_views
    FROM unnest(${param(views)}::bigint[]) WITH ORDINALITY AS v(total_views, k)
    JOIN unnest(${param(state.months.map((month) => firstDay(month.month)))}::date[]) WITH ORDINALITY AS m(month, j)
      ON m.j = (v.k - 1) / ${batch.length}::int + 1
    JOIN unnest(${param(batch.map((row) => row.label))}::text[], ${param(batch.map((row) => row.categoryId))}::int[],
      ${param(batch.map((row) => row.name))}::text[]) WITH ORDINALITY AS r(label, category_id, name, i)
      ON r.i = (v.k - 1) % ${batch.length}::int + 1
    WHERE v.total_views IS NOT NULL) AS f`;
}

/** Moves the rows held into inventory_staging under the import's id (its history row, created on the first call). */
async function stage(db: Database, state: ImportState, file: ImportedFile): Promise<void> {
  if (state.stagedAs === null) {
    const [{ id }] = await rows<{ id: number }>(
      db,
      sql`INSERT INTO inventory_imports (account_id, file_name, rows, months) VALUES (${file.accountId}, ${file.fileName}, 0, '{}') RETURNING id`,
    );
    state.stagedAs = id;
  }
  const batch = state.held;
  state.held = [];
  state.heldCells = 0;
  if (!batch.length) return;
  await db.execute(sql`INSERT INTO inventory_staging (import_id, label, category_id, name, month, total_views)
    SELECT ${state.stagedAs}, label, category_id, name, month, total_views FROM ${cellsOf(state, batch)}`);
}

/** The header row: the §5 rules, then the months it names. */
function readHeader(state: ImportState, cells: string[]): void {
  const header = cells.map((cell) => cell.trim());
  const problem = headerProblem(header);
  if (problem) throw new HttpError(400, problem);
  state.header = header;
  state.months = header.flatMap((name, index) =>
    (REQUIRED_COLUMNS as readonly string[]).includes(name) ? [] : [{ index, key: name, month: parseMonthKey(name)! }],
  );
  const keys = state.months.map((month) => month.key);
  if (new Set(keys).size !== keys.length) throw new HttpError(400, INVENTORY_MESSAGES.invalidDates);
}

/**
 * Reads the file into `state`: its rows are held until they pass HOLD_CELLS cells, then staged in batches under
 * the import's id.
 */
async function readFile(db: Database, file: ImportedFile, state: ImportState): Promise<void> {
  const body = file.body;
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    // A function is called once, on the first chunk: the separator of the header line.
    delimiter: ((input: string) => separatorOf(input.split(/\r?\n/, 1)[0])) as unknown as string,
  }) as unknown as Transform;
  // pipeline, not pipe: a failure of any stage (the upload cut, the size limit, a bad row) reaches the await and
  // destroys the others; pipe forwards none, and an 'error' nobody listens to stops the process.
  let refused: unknown;
  const read = async (parsed: AsyncIterable<string[]>) => {
    try {
      await readRows(db, file, state, parsed);
    } catch (error) {
      refused = error;
      throw error;
    }
  };
  // A row refused stops the reading; pipeline then answers the AbortError of the stages it closed, not the reason.
  await pipeline(body, decoder(), parser, read).catch((error: unknown) => {
    throw refused ?? error;
  });
}

/** The parsed rows into `state`, staged in batches. */
async function readRows(db: Database, file: ImportedFile, state: ImportState, parsed: AsyncIterable<string[]>): Promise<void> {
  let line = 0;
  for await (const cells of parsed) {
    line += 1;
    if (cells.every((cell) => cell.trim() === '')) continue;
    if (!state.header) {
      readHeader(state, cells);
      continue;
    }
    const row = readRow(state.header, cells, state.months, line);
    const key = `${row.label}:${row.categoryId}`;
    if (state.categories.has(key)) throw new HttpError(400, INVENTORY_MESSAGES.duplicateCategory(line, row.name));
    state.categories.set(key, { label: row.label, categoryId: row.categoryId, name: row.name });
    state.held.push(row);
    state.heldCells += row.views.length;
    state.rows += 1;
    if (state.heldCells > HOLD_CELLS || (state.stagedAs !== null && state.held.length >= state.batchRows)) await stage(db, state, file);
  }
  if (state.stagedAs !== null) await stage(db, state, file);
}

/** Serialises the imports' final transactions: the later one replaces what the earlier one wrote. */
const SWITCH_LOCK = 7201022;

/**
 * Switches the file's cells in (in the caller's transaction): its cells are upserted, the months it names lose the
 * cells it does not have, and a category it renames takes its new name in the other months too. `fileCells`
 * yields f(label, category_id, name, month, total_views); `categories` f(label, category_id, name). A cell
 * changed is updated in place (a HOT update: inventory_capacity leaves room in its pages, migration 0017), one
 * left as it was is not written: the table and its indexes do not grow with each import, vacuum or not (PGlite
 * has no autovacuum).
 */
async function switchIn(tx: Executor, fileCells: SQL, categories: SQL, months: string[]): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${SWITCH_LOCK})`);
  // The upsert and the delete see the same snapshot and touch different rows (the file's cells, the others).
  await tx.execute(sql`WITH file AS MATERIALIZED (SELECT label, category_id, name, month, total_views FROM ${fileCells}),
    upserted AS (INSERT INTO inventory_capacity AS c (label, category_id, name, month, total_views)
      SELECT label, category_id, name, month, total_views FROM file
      ON CONFLICT (label, category_id, month) DO UPDATE SET name = excluded.name, total_views = excluded.total_views
        WHERE (c.name, c.total_views) IS DISTINCT FROM (excluded.name, excluded.total_views))
    DELETE FROM inventory_capacity c WHERE c.month = ANY(${param(months)}::date[])
      AND NOT EXISTS (SELECT 1 FROM file f WHERE f.label = c.label AND f.category_id = c.category_id AND f.month = c.month)`);
  await tx.execute(sql`UPDATE inventory_capacity c SET name = f.name FROM ${categories}
    WHERE c.label = f.label AND c.category_id = f.category_id AND c.name <> f.name`);
}

interface ImportedFile {
  fileName: string;
  body: Readable;
  accountId: number | null;
}

/** How the server's database takes a long write: PGlite (one connection) in short statements. */
export interface ImportOptions {
  embedded?: boolean;
  /** Called between the statements of a chunked switch (tests read the inventory there). */
  afterChunk?: () => Promise<void>;
}

/** Imports one inventory CSV; answers the rows and the months (YY/MM) it replaced. */
export async function importInventory(
  db: Database,
  file: { fileName: string; body: Readable },
  accountId: number | null,
  options: ImportOptions = {},
): Promise<{ rows: number; months: string[] }> {
  const state = newState(options.embedded ? PGLITE_BATCH_ROWS : BATCH_ROWS);
  try {
    await readFile(db, { ...file, accountId }, state);
    if (!state.header || !state.rows) throw new HttpError(400, INVENTORY_MESSAGES.emptyFile);
  } catch (error) {
    file.body.resume();
    if (state.stagedAs !== null) {
      await db.execute(sql`DELETE FROM inventory_staging WHERE import_id = ${state.stagedAs}`);
      await db.execute(sql`DELETE FROM inventory_imports WHERE id = ${state.stagedAs}`);
    }
    throw error;
  }
  const months = state.months.map((month) => firstDay(month.month));
  const keys = state.months.map((month) => month.key);
  const stagedAs = state.stagedAs;
  if (stagedAs !== null && options.embedded) {
    const plan = { importId: stagedAs, months, categories: state.categories, rows: state.rows, monthKeys: keys, afterChunk: options.afterChunk };
    await switchInByChunks(db, plan).catch(async (error: unknown) => {
      await db.execute(sql`DELETE FROM inventory_staging WHERE import_id = ${stagedAs}`);
      await db.execute(sql`DELETE FROM inventory_imports WHERE id = ${stagedAs}`);
      throw error;
    });
    return { rows: state.rows, months: state.months.map((month) => monthKey(month.month)) };
  }
  // On PGlite a small file waits for a chunked switch under way (chunked-switch.ts): one switch at a time.
  const queued = options.embedded ? <T>(apply: () => Promise<T>) => afterPreviousSwitches(db, apply) : <T>(apply: () => Promise<T>) => apply();
  await queued(() =>
    db.transaction(async (tx) => {
      if (stagedAs === null) {
        const held = state.held;
        const categories = sql`unnest(${param(held.map((row) => row.label))}::text[], ${param(held.map((row) => row.categoryId))}::int[],
        ${param(held.map((row) => row.name))}::text[]) AS f(label, category_id, name)`;
        await switchIn(tx, cellsOf(state, held), categories, months);
        await tx.execute(sql`INSERT INTO inventory_imports (account_id, file_name, rows, months, finished_at)
        VALUES (${accountId}, ${file.fileName}, ${state.rows}, ${param(keys)}::text[], now())`);
        return;
      }
      const staged = sql`inventory_staging WHERE import_id = ${stagedAs}`;
      await switchIn(tx, staged, sql`(SELECT DISTINCT label, category_id, name FROM ${staged}) f`, months);
      await tx.execute(sql`DELETE FROM ${staged}`);
      await tx.execute(
        sql`UPDATE inventory_imports SET rows = ${state.rows}, months = ${param(keys)}::text[], finished_at = now() WHERE id = ${stagedAs}`,
      );
    }),
  );
  return { rows: state.rows, months: state.months.map((month) => monthKey(month.month)) };
}

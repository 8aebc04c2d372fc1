import { Transform, type Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { INVENTORY_MESSAGES } from '@shared/messages/inventory';
import { PROFESSIONS, SPECIALTIES, type ReferenceItem } from '@shared/reference';
import { REQUIRED_COLUMNS, headerProblem, monthKey, parseMonthKey, parseViewCount, type Month } from '@shared/rules/inventory';
import type { Database } from '../../db/client';
import { param, rows } from '../../db/rows';
import { HttpError } from '../../errors';
import { firstDay, type CategoryLabel } from './queries';

/**
 * The inventory CSV import (platform.md §5; issue 22): the file streams in (never held whole), is decoded (UTF-8
 * with or without BOM, else Windows-1252), split by papaparse on ';' or ',' (whichever the header line holds
 * more of), checked row by row and staged in batches under its import id. A bad row stops the import, named by
 * its line, and its staged rows are dropped; at the end one transaction replaces the months the file names.
 */

const BATCH_ROWS = 500;

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

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

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
  seen: Set<string>;
  batch: CapacityRow[];
  rows: number;
}

async function stage(db: Database, importId: number, state: ImportState): Promise<void> {
  if (!state.batch.length) return;
  const labels: string[] = [];
  const ids: number[] = [];
  const names: string[] = [];
  const months: string[] = [];
  const views: number[] = [];
  for (const row of state.batch) {
    row.views.forEach((value, i) => {
      if (value === null) return;
      labels.push(row.label);
      ids.push(row.categoryId);
      names.push(row.name);
      months.push(firstDay(state.months[i].month));
      views.push(value);
    });
  }
  state.batch = [];
  if (!labels.length) return;
  await db.execute(sql`INSERT INTO inventory_staging (import_id, label, category_id, name, month, total_views)
    SELECT ${importId}, * FROM unnest(${param(labels)}::text[], ${param(ids)}::int[], ${param(names)}::text[], ${param(months)}::date[], ${param(views)}::bigint[])`);
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

/** Reads the file into the staging table under `importId`; answers the rows and months read. */
async function readFile(db: Database, importId: number, body: Readable): Promise<ImportState> {
  const state: ImportState = { header: null, months: [], seen: new Set(), batch: [], rows: 0 };
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    // A function is called once, on the first chunk: the separator of the header line.
    delimiter: ((input: string) => separatorOf(input.split(/\r?\n/, 1)[0])) as unknown as string,
  }) as unknown as Transform;
  const source = body.pipe(decoder());
  source.on('error', (error) => parser.destroy(error));
  let line = 0;
  for await (const cells of source.pipe(parser) as AsyncIterable<string[]>) {
    line += 1;
    if (cells.every((cell) => cell.trim() === '')) continue;
    if (!state.header) {
      readHeader(state, cells);
      continue;
    }
    const row = readRow(state.header, cells, state.months, line);
    const key = `${row.label}:${row.categoryId}`;
    if (state.seen.has(key)) throw new HttpError(400, INVENTORY_MESSAGES.duplicateCategory(line, row.name));
    state.seen.add(key);
    state.batch.push(row);
    state.rows += 1;
    if (state.batch.length >= BATCH_ROWS) await stage(db, importId, state);
  }
  await stage(db, importId, state);
  return state;
}

/** Imports one inventory CSV; answers the rows and the months (YY/MM) it replaced. */
export async function importInventory(
  db: Database,
  file: { fileName: string; body: Readable },
  accountId: number | null,
): Promise<{ rows: number; months: string[] }> {
  const [{ id }] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO inventory_imports (account_id, file_name, rows, months) VALUES (${accountId}, ${file.fileName}, 0, '{}') RETURNING id`,
  );
  let state: ImportState;
  try {
    state = await readFile(db, id, file.body);
    if (!state.header) throw new HttpError(400, INVENTORY_MESSAGES.emptyFile);
    if (!state.rows) throw new HttpError(400, INVENTORY_MESSAGES.emptyFile);
  } catch (error) {
    file.body.resume();
    await db.execute(sql`DELETE FROM inventory_staging WHERE import_id = ${id}`);
    await db.execute(sql`DELETE FROM inventory_imports WHERE id = ${id}`);
    throw error;
  }
  const months = state.months.map((month) => firstDay(month.month));
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM inventory_capacity WHERE month = ANY(${param(months)}::date[])`);
    await tx.execute(sql`INSERT INTO inventory_capacity (label, category_id, name, month, total_views)
      SELECT label, category_id, name, month, total_views FROM inventory_staging WHERE import_id = ${id}`);
    // A category renamed in this file has its new name in the months it did not name as well.
    await tx.execute(sql`UPDATE inventory_capacity c SET name = s.name
      FROM (SELECT DISTINCT label, category_id, name FROM inventory_staging WHERE import_id = ${id}) s
      WHERE c.label = s.label AND c.category_id = s.category_id AND c.name <> s.name`);
    await tx.execute(sql`DELETE FROM inventory_staging WHERE import_id = ${id}`);
    await tx.execute(sql`UPDATE inventory_imports SET rows = ${state.rows}, months = ${param(state.months.map((m) => m.key))}::text[],
      finished_at = now() WHERE id = ${id}`);
  });
  return { rows: state.rows, months: state.months.map((month) => monthKey(month.month)) };
}

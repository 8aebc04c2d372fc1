import { TextDecoder } from 'node:util';
import Papa from 'papaparse';
import { sql } from 'drizzle-orm';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { PANEL_MATCH_COLUMNS, PANEL_MAX_ROWS, critNumbers, missingPanelColumns, panelHeader } from '@shared/rules/laboratory';
import type { Database } from '../../db/client';
import { param } from '../../db/rows';
import { HttpError } from '../../errors';

/** Rows written per statement: 5,000 rows of a panel are about 400 kB of parameters. */
const BATCH_ROWS = 5000;
/**
 * On PGlite, rows per statement, and panel lines one matching statement covers: its one connection answers nothing
 * else while a statement runs, and 5,000 rows a statement (or one match of the whole panel) held every other call
 * for seconds.
 */
export const PGLITE_PANEL_ROWS_PER_STATEMENT = 1000;
/** Bytes looked at before the encoding is decided (UTF-8 unless they are not, then Windows-1252): the project exists as soon as they are read. */
const SNIFF_BYTES = 256 * 1024;
/** The unit separator joins a row's criteria into one text (string_to_array splits it back); never in a cell. */
const UNIT = '\u001f';

/**
 * The file's bytes as text: UTF-8 (its BOM dropped) when its first 256 kB read as UTF-8, else Windows-1252 as
 * Excel in French saves a CSV. Streamed: only those first bytes are ever held.
 */
async function* decodeText(body: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const head: Buffer[] = [];
  let headBytes = 0;
  let decoder: TextDecoder | null = null;
  const decide = () => {
    const bytes = Buffer.concat(head);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
      decoder = new TextDecoder('utf-8');
    } catch {
      decoder = new TextDecoder('windows-1252');
    }
    return decoder.decode(bytes, { stream: true });
  };
  for await (const chunk of body) {
    if (decoder) {
      yield (decoder as TextDecoder).decode(chunk, { stream: true });
      continue;
    }
    head.push(chunk);
    headBytes += chunk.length;
    if (headBytes >= SNIFF_BYTES) yield decide();
  }
  if (!decoder) yield decide();
  yield (decoder as unknown as TextDecoder).decode();
}

interface Columns {
  name: number;
  surname: number;
  gender: number;
  crits: { n: number; index: number }[];
  email: number;
  externalId: number;
}

/** Where each column the panel keeps sits in the header row; 'Missing columns : …' (spec §5) when one is missing. */
export function panelColumns(headers: string[]): Columns {
  const missing = missingPanelColumns(headers);
  if (missing.length > 0) throw new HttpError(400, LAB_MESSAGES.missingColumns(missing));
  const upper = headers.map(panelHeader);
  const at = (names: readonly string[]) => upper.findIndex((header) => names.includes(header));
  return {
    name: upper.indexOf('NAME'),
    surname: upper.indexOf('SURNAME'),
    gender: upper.indexOf('GENDER'),
    crits: critNumbers(headers).map((n) => ({ n, index: upper.indexOf(`CRIT_${String(n).padStart(2, '0')}`) })),
    email: at(PANEL_MATCH_COLUMNS.email),
    externalId: at(PANEL_MATCH_COLUMNS.externalId),
  };
}

/**
 * What is wrong with a data row, or undefined: a cell running over several lines (a quote never closed swallows
 * the rows after it; no panel value holds a line break), or not as many cells as the header. Such a row refuses
 * the whole file with its line, as the CSV import does: cutting or padding it would keep a panel that is not the
 * file.
 */
function panelRowProblem(cells: readonly string[], headerCount: number): string | undefined {
  if (cells.some((cell) => /[\r\n]/.test(cell))) return LAB_MESSAGES.panelUnclosedQuote;
  if (cells.length !== headerCount) return LAB_MESSAGES.panelColumnCount(cells.length, headerCount);
  return undefined;
}

type PanelRow = { l: number; n: string; s: string; g: string; c: string; e: string | null; x: string | null };

function panelRow(cells: string[], columns: Columns, line: number): PanelRow {
  const cell = (index: number) => (index >= 0 ? (cells[index] ?? '').trim().replaceAll(UNIT, ' ') : '');
  const crits: string[] = [];
  for (const { n, index } of columns.crits) crits[n - 1] = cell(index);
  return {
    l: line,
    n: cell(columns.name),
    s: cell(columns.surname),
    g: cell(columns.gender),
    c: Array.from(crits, (value) => value ?? '').join(UNIT),
    e: cell(columns.email).toLowerCase() || null,
    x: cell(columns.externalId) || null,
  };
}

async function writeBatch(db: Database, projectId: number, batch: PanelRow[]) {
  await db.execute(sql`
    INSERT INTO lab_panel_members (project_id, line, name, surname, gender, crits, email, external_id)
    SELECT ${projectId}, r.l, r.n, r.s, r.g, string_to_array(r.c, chr(31)), r.e, r.x
    FROM jsonb_to_recordset(${param(JSON.stringify(batch))}::jsonb) AS r(l int, n text, s text, g text, c text, e text, x text)`);
}

/** Most text carried without a record end (characters): past it the file is refused rather than held whole. */
export const PANEL_MAX_RECORD_CHARS = 1024 * 1024;

/**
 * Complete CSV records of a text stream, a block at a time: each chunk is cut after its last line break (LF, CR
 * or CRLF: old Excel exports end lines with CR alone) outside quotes (a quoted cell may hold line breaks), the rest
 * waits for the next chunk, up to PANEL_MAX_RECORD_CHARS (an unbalanced quote would otherwise hold the whole file).
 * Papaparse then reads each block whole (synchronous, fast); the separator (';' or ',') is guessed on the first
 * block and kept.
 */
async function* csvBlocks(text: AsyncIterable<string>): AsyncGenerator<string[][]> {
  let carry = '';
  let inQuotes = false;
  let delimiter: string | undefined;
  /** The last block ended with a CR: a LF opening the next chunk is the rest of that CRLF. */
  let afterCr = false;
  /** Line breaks outside quotes before `carry`: the carried record starts on line breaks + 1. */
  let breaks = 0;
  const parse = (block: string) => {
    const result = Papa.parse<string[]>(block, { delimiter, delimitersToGuess: [';', ','], skipEmptyLines: 'greedy' });
    delimiter ??= result.meta.delimiter;
    return result.data;
  };
  for await (let chunk of text) {
    if (afterCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    if (chunk.length === 0) continue;
    afterCr = false;
    let cut = -1;
    let cutBreaks = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk.charCodeAt(i);
      if (c === 34) inQuotes = !inQuotes;
      else if ((c === 10 || c === 13) && !inQuotes) {
        // CRLF is one break, cut after its LF.
        if (c === 13 && chunk.charCodeAt(i + 1) === 10) i += 1;
        cut = i;
        cutBreaks += 1;
      }
    }
    if (cut === -1) {
      carry += chunk;
      if (carry.length > PANEL_MAX_RECORD_CHARS) {
        throw new HttpError(400, LAB_MESSAGES.panelRecordTooLong(breaks + 1, PANEL_MAX_RECORD_CHARS / (1024 * 1024)));
      }
      continue;
    }
    const block = carry + chunk.slice(0, cut + 1);
    carry = chunk.slice(cut + 1);
    breaks += cutBreaks;
    afterCr = chunk.charCodeAt(cut) === 13;
    yield parse(block);
  }
  if (carry.trim()) yield parse(carry);
}

/**
 * Reads a panel file as it arrives and hands its header row to `onHeader` (which checks it and creates the pending
 * project), then writes its rows in batches (`rowsPerStatement`, 5,000 by default). Answers the count of rows. Nothing is held but the current
 * block and batch.
 */
export async function readPanel(
  db: Database,
  body: AsyncIterable<Buffer>,
  onHeader: (headers: string[], crits: number[]) => Promise<number>,
  rowsPerStatement = BATCH_ROWS,
): Promise<{ projectId: number; rows: number }> {
  let columns: Columns | null = null;
  let headerCount = 0;
  let projectId = 0;
  let line = 1;
  let batch: PanelRow[] = [];
  for await (const block of csvBlocks(decodeText(body))) {
    for (const cells of block) {
      if (!columns) {
        columns = panelColumns(cells);
        headerCount = cells.length;
        projectId = await onHeader(
          cells,
          columns.crits.map((crit) => crit.n),
        );
        continue;
      }
      line += 1;
      if (line - 1 > PANEL_MAX_ROWS) throw new HttpError(413, LAB_MESSAGES.panelTooManyRows(PANEL_MAX_ROWS));
      const problem = panelRowProblem(cells, headerCount);
      if (problem) throw new HttpError(400, LAB_MESSAGES.panelRowRefused(line, problem));
      batch.push(panelRow(cells, columns, line));
      if (batch.length >= rowsPerStatement) {
        await writeBatch(db, projectId, batch);
        batch = [];
      }
    }
  }
  if (!columns) throw new HttpError(400, LAB_MESSAGES.missingColumns(missingPanelColumns([])));
  if (batch.length > 0) await writeBatch(db, projectId, batch);
  if (line === 1) throw new HttpError(400, LAB_MESSAGES.panelEmpty);
  return { projectId, rows: line - 1 };
}

/**
 * Matches the panel's members to app users (externalId first, else e-mail); answers how many matched. With
 * `linesPerStatement` (PGlite) each statement matches that many lines of the panel (the project is still pending:
 * no reader counts it meanwhile); otherwise one statement each.
 */
export async function matchPanel(db: Database, projectId: number, rows: number, linesPerStatement?: number): Promise<number> {
  // Data lines are 2 … rows + 1 (the header is line 1).
  const step = linesPerStatement ?? rows + 1;
  for (let first = 2; first <= rows + 1; first += step) {
    const lines = sql`m.line BETWEEN ${first} AND ${first + step - 1}`;
    await db.execute(sql`
      UPDATE lab_panel_members m SET app_user_id = u.id FROM app_users u
      WHERE m.project_id = ${projectId} AND ${lines} AND m.external_id IS NOT NULL AND u.external_id = m.external_id`);
    await db.execute(sql`
      UPDATE lab_panel_members m SET app_user_id = u.id FROM app_users u
      WHERE m.project_id = ${projectId} AND ${lines} AND m.app_user_id IS NULL AND m.email IS NOT NULL AND lower(u.email) = m.email`);
    // A PGlite statement resolves without a turn of the event loop: calls that arrived meanwhile get one here.
    if (linesPerStatement) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  // A panel of 100,000 rows changes the table's statistics at once: counts are planned on the new figures.
  await db.execute(sql`ANALYZE lab_panel_members`);
  const result = (await db.execute(
    sql`SELECT count(*)::int AS n FROM lab_panel_members WHERE project_id = ${projectId} AND app_user_id IS NOT NULL`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0].n;
}

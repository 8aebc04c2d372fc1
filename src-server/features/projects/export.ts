import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Papa from 'papaparse';
import { sql, type SQL } from 'drizzle-orm';
import type { TargetExportBody } from '@shared/contract/projects';
import type { Database } from '../../db/client';
import { FORMULA_CELL, FORMULA_CELL_PATTERN, FORMULA_START_PATTERN, needsFormulaEscape } from '@shared/rules/csv';
import { formatDay } from '@shared/rules/dates';
import { targetJoins, targetListClauses } from './queries';

/** The export columns of spec §3, in order; the header is the field name. */
export const TARGET_EXPORT_COLUMNS = [
  'projectName',
  'clientName',
  'advertId',
  'advertSource',
  'actionCode',
  'status',
  'keyAccount',
  'type',
  'populationCategory',
  'populationSample',
  'populationSize',
  'goal',
  'startDate',
  'checkDate',
  'endDate',
  'actor',
  'quotationSignedMonth',
  'initialQuotationDate',
  'revenue',
  'revenueDelayImpact',
] as const;

/**
 * The raw cells of a target row: the database only reads and the server formats (regular expressions and to_char
 * in SQL cost 7 s of 9 for 200,000 rows). Text cells come as fields of their own; the twelve numbers as one field,
 * space-separated (numeric(14,2) as text already has its two decimals), since the driver's cost is per field.
 */
const exportColumns = sql`p.name AS n, p.client_name AS c, t.action_code AS ac, t.status AS s, ka.name AS k, t.type AS ty,
  t.population_category AS pc, t.population_sample AS ps, t.actor AS ar,
  concat_ws(' ', coalesce(t.advert_id::text, ''), coalesce(t.population_size::text, ''), t.goal_views, t.goal_days, t.goal_shipments,
    coalesce(t.start_date::text, ''), coalesce(t.check_date::text, ''), coalesce(t.end_date::text, ''), coalesce(t.quotation_signed_month::text, ''),
    coalesce(t.initial_quotation_date::text, ''), coalesce(t.revenue::text, ''), coalesce(t.revenue_delay_impact::text, '')) AS x`;

interface ExportRow {
  n: string;
  c: string;
  ac: string | null;
  s: string;
  k: string | null;
  ty: string | null;
  pc: string | null;
  ps: string | null;
  ar: string | null;
  /** advertId populationSize goalViews goalDays goalShipments startDate checkDate endDate quotationSignedMonth initialQuotationDate revenue revenueDelayImpact */
  x: string;
}

const QUOTE_TRIGGERS = /[;"\r\n]/;
/** [[:space:]]: space, tab, line feed, vertical tab, form feed, carriage return. */
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);
/**
 * A text cell as papaparse writes it with the export-cell rule (@shared/rules/csv): a formula (=, +, -, @, tab or CR
 * first, and not a plain number) quoted with a ' in front; else quoted when it holds the separator, a quote or a
 * line break, or starts or ends with a space.
 */
function text(value: string | null): string {
  if (value == null || value === '') return '';
  if (needsFormulaEscape(value)) return `"'${value.replace(/"/g, '""')}"`;
  if (QUOTE_TRIGGERS.test(value) || isSpace(value.charCodeAt(0)) || isSpace(value.charCodeAt(value.length - 1))) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

/** formatDay of epoch seconds given as text; the days of an export repeat, so each is formatted once (bounded cache). */
function dayFormatter(): (seconds: string) => string {
  const cache = new Map<string, string>();
  return (seconds) => {
    if (seconds === '') return '';
    let shown = cache.get(seconds);
    if (shown === undefined) {
      if (cache.size >= 50_000) cache.clear();
      shown = formatDay(Number(seconds));
      cache.set(seconds, shown);
    }
    return shown;
  };
}

/** formatGoalForExport from the three counts as text: views bare, days under 30 in jours, else days/30 to one decimal in mois, shipments in envois. */
function goal(views: string, days: string, shipments: string): string {
  if (views !== '0') return views;
  if (days !== '0') {
    const count = Number(days);
    return count < 30 ? `${days} jours` : `${Math.round((count / 30) * 10) / 10} mois`;
  }
  if (shipments !== '0') return `${shipments} envois`;
  return '';
}

/** One CSV line (the export columns of spec §3), CRLF included. */
function exportLine(row: ExportRow, day: (seconds: string) => string): string {
  const [advertId, size, views, days, shipments, start, check, end, signed, quoted, revenue, impact] = row.x.split(' ');
  return (
    text(row.n) + ';' + text(row.c) + ';' + advertId + ';' + (advertId === '' ? '' : '/adverts/edit/' + advertId) + ';' + text(row.ac) + ';' +
    text(row.s) + ';' + text(row.k) + ';' + text(row.ty) + ';' + text(row.pc) + ';' + text(row.ps) + ';' + size + ';' + goal(views, days, shipments) + ';' +
    day(start) + ';' + day(check) + ';' + day(end) + ';' + text(row.ar) + ';' + day(signed) + ';' + day(quoted) + ';' + revenue + ';' + impact + '\r\n'
  );
}

const CSV = { delimiter: ';', newline: '\r\n', escapeFormulae: FORMULA_CELL } as const;
/** Rows a FETCH brings: round trips overlap the writing (one batch ahead), and fewer rows alive at once kept the export process smaller (+56 MB at 500 rows against +149 MB at 2,000 in one bench run at 250,000 rows; RSS is noisy). */
const BATCH = 500;

/**
 * The rows of a query in batches through a server-side cursor, inside one read transaction (one consistent
 * snapshot; memory holds one batch). The transaction runs beside the consumer: it fetches the next batch only
 * once the previous one was taken, so a slow client slows the query instead of filling memory, and a consumer
 * that stops (client gone) ends the transaction. `prepare` turns a batch into what is handed over as soon as it
 * arrives: the batch waiting for a slow consumer is then its bytes (outside the JS heap), and the row objects
 * die young instead of surviving collections into the old generation (which grew the export's RSS by 140 MB).
 */
export async function* cursorBatches<T, U = T[]>(
  db: Database,
  query: SQL,
  batchSize = BATCH,
  prepare: (rows: T[]) => U = (rows) => rows as unknown as U,
): AsyncGenerator<U> {
  let handOver: ((batch: U | null) => Promise<boolean>) | undefined;
  let pending: { batch: U | null; taken: (keepGoing: boolean) => void } | undefined;
  let wake: (() => void) | undefined;
  let failure: unknown;
  let finished = false;
  handOver = (batch) =>
    new Promise<boolean>((taken) => {
      pending = { batch, taken };
      wake?.();
    });
  const work = db
    .transaction(async (tx) => {
      await tx.execute(sql`DECLARE target_export NO SCROLL CURSOR FOR ${query}`);
      // One FETCH ahead: the database computes the next batch while this one is prepared and handed over (a FETCH
      // only runs the query that far). The rows are only referenced inside prepareBatch: while the batch waits for
      // the consumer, only `prepare`'s result is alive (a row array kept across the wait was promoted to the old
      // generation).
      const fetchRows = () => tx.execute(sql.raw(`FETCH ${batchSize} FROM target_export`)) as unknown as Promise<{ rows: T[] }>;
      const prepareBatch = (rows: T[]) => (rows.length ? prepare(rows) : null);
      let next: Promise<{ rows: T[] }> | undefined = fetchRows();
      while (next) {
        const { rows }: { rows: T[] } = await next;
        next = rows.length === batchSize ? fetchRows() : undefined;
        // splice(0) empties the fetched array, so its rows are not held while the batch is handed over.
        const batch = prepareBatch(rows.splice(0));
        const keepGoing = await handOver!(batch);
        if (!keepGoing) {
          await next;
          break;
        }
      }
      await tx.execute(sql`CLOSE target_export`);
    })
    .catch((error) => {
      failure = error;
    })
    .finally(() => {
      finished = true;
      wake?.();
    });
  try {
    for (;;) {
      while (!pending && !finished) await new Promise<void>((resolve) => (wake = resolve));
      if (!pending) break;
      const { batch, taken } = pending;
      pending = undefined;
      if (batch === null) {
        taken(false);
        break;
      }
      // The next FETCH runs while this batch is written: the database and the writer overlap, one batch ahead.
      taken(true);
      yield batch;
    }
  } finally {
    // The consumer stopped early: let the transaction end.
    if (pending) pending.taken(false);
    handOver = async () => false;
    await work;
  }
  if (failure) throw failure;
}

/** The whitespace JS's text() quotes at either end of a cell: tab, line feed, vertical tab, form feed, carriage return, space. */
const SPACE_CLASS = '[\t\n\v\f\r ]';
/** A cell text() would quote (one pattern for all cells: the database compiles it once). */
const QUOTED_CELL = `[;"\r\n]|^${SPACE_CLASS}|${SPACE_CLASS}$`;
/**
 * The same test over the text cells of a row joined with \x01, plus a cell starting with a formula trigger
 * (FORMULA_START_PATTERN, plain numbers included: the per-cell test tells them apart): false on almost every row, so
 * one match per row instead of nine (a \x01 inside a cell can only cause a needless per-cell test, never a miss).
 */
const QUOTED_ROW = `[;"\r\n]|^${SPACE_CLASS}|${SPACE_CLASS}$|${SPACE_CLASS}\x01|\x01${SPACE_CLASS}|^${FORMULA_START_PATTERN}|\x01${FORMULA_START_PATTERN}`;

/**
 * SQL of text(): a formula by the export-cell rule (FORMULA_CELL_PATTERN, the very regular expression JS uses)
 * quoted with a ' in front; else the cell, quoted as papaparse does when it holds ';', '"', a line break or edge
 * whitespace.
 */
const quotedCell = (cell: SQL) =>
  sql`CASE WHEN ${cell} ~ ${FORMULA_CELL_PATTERN} THEN '"''' || replace(${cell}, '"', '""') || '"'
    WHEN ${cell} ~ ${QUOTED_CELL} THEN '"' || replace(${cell}, '"', '""') || '"' ELSE ${cell} END`;
/** SQL of formatDay (DD/MM/yyyy in UTC, the year unpadded); out of a timestamp's range, what JS's Date gives (no error mid-export). */
const dayCell = (seconds: SQL) =>
  sql`CASE WHEN ${seconds} BETWEEN -62135596800 AND 8640000000000 THEN to_char(to_timestamp(${seconds}) AT TIME ZONE 'UTC', 'DD/MM/FMYYYY') WHEN ${seconds} IS NOT NULL THEN 'NaN/NaN/NaN' END`;
/** SQL of goal(): views bare, days under 30 in jours, else tenths of 30 days (count / 3 has no .5: no tie to round) in mois, shipments in envois. */
const goalCell = sql`CASE WHEN t.goal_views <> 0 THEN t.goal_views::text
  WHEN t.goal_days <> 0 THEN CASE WHEN t.goal_days < 30 THEN t.goal_days || ' jours'
    ELSE (round(t.goal_days / 3.0)::bigint / 10) || CASE WHEN round(t.goal_days / 3.0)::bigint % 10 = 0 THEN '' ELSE '.' || round(t.goal_days / 3.0)::bigint % 10 END || ' mois' END
  WHEN t.goal_shipments <> 0 THEN t.goal_shipments || ' envois' END`;
const TEXT_CELLS = [sql`p.name`, sql`p.client_name`, sql`t.action_code`, sql`t.status`, sql`ka.name`, sql`t.type`, sql`t.population_category`, sql`t.population_sample`, sql`t.actor`];
/** The line of exportLine() built by the database (concat: a NULL is an empty cell), with or without quoting the text cells. */
const sqlLine = (cell: (text: SQL) => SQL) => {
  const [name, client, actionCode, status, keyAccount, type, category, sample, actor] = TEXT_CELLS.map(cell);
  return sql`concat(${name}, ';', ${client}, ';', t.advert_id, ';', '/adverts/edit/' || t.advert_id, ';', ${actionCode}, ';', ${status}, ';', ${keyAccount}, ';',
    ${type}, ';', ${category}, ';', ${sample}, ';', t.population_size, ';', ${goalCell}, ';', ${dayCell(sql`t.start_date`)}, ';', ${dayCell(sql`t.check_date`)}, ';',
    ${dayCell(sql`t.end_date`)}, ';', ${actor}, ';', ${dayCell(sql`t.quotation_signed_month`)}, ';', ${dayCell(sql`t.initial_quotation_date`)}, ';', t.revenue, ';',
    t.revenue_delay_impact, E'\r\n')`;
};
const exportLineSql = sql`CASE WHEN concat_ws(E'\x01', ${sql.join(TEXT_CELLS, sql`, `)}) ~ ${QUOTED_ROW} THEN ${sqlLine(quotedCell)} ELSE ${sqlLine((cell) => cell)} END AS l`;
/** Lines a FETCH brings when the database writes them: one string each, so a larger batch costs little memory. */
const LINE_BATCH = 2_000;

/**
 * How the lines are made. 'database' (PostgreSQL): the database writes each CSV line, the server only joins a
 * batch's strings (per row, the driver's fields and the JS formatting cost the server twice the database's time).
 * 'server' (PGlite, where the database shares the server's thread and runs its functions in WASM): raw cells,
 * formatted here. Both write the same bytes (tests/server/projects.test.ts compares them).
 */
export type ExportFormatting = 'database' | 'server';

/**
 * A batch's lines as one UTF-8 buffer, each line written in place: joining them first would make one string of
 * hundreds of kB, which V8 allocates in the old generation (large-object space) where only a full collection frees
 * it; 200 MB of such strings grew the server's heap by 140 MB during an export.
 */
function utf8Lines(lines: string[]): Buffer {
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line);
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const line of lines) offset += bytes.write(line, offset);
  return bytes;
}

/**
 * A full collection, for a long export to call every EXPORT_COLLECT_BYTES: the rows of each batch live across a
 * few young collections (a FETCH's rows arrive over several socket reads) and are promoted; V8 then lets the old
 * generation grow to about four times its live size before collecting it (+130 MB of dead rows during an export
 * of 1,000,000 targets). A collection of the ~40 MB live heap takes tens of ms, a few times per export.
 */
const collectGarbage: (() => void) | undefined = (() => {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();
const EXPORT_COLLECT_BYTES = 24 * 1024 * 1024;

/** Calls collectGarbage every EXPORT_COLLECT_BYTES of a generator's chunks. */
async function* collectingAsItGoes(chunks: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  let sinceCollection = 0;
  for await (const chunk of chunks) {
    sinceCollection += chunk.length;
    if (sinceCollection >= EXPORT_COLLECT_BYTES) {
      sinceCollection = 0;
      collectGarbage?.();
    }
    yield chunk;
  }
}

/** The CSV file of the targets matching the list's filters and order, chunk by chunk (BOM, ';', CRLF), as UTF-8 bytes. */
export async function* targetExportCsv(db: Database, body: TargetExportBody, formatting: ExportFormatting = 'server'): AsyncGenerator<Buffer> {
  const { where, orderBy } = targetListClauses(body);
  yield Buffer.from('\uFEFF' + Papa.unparse([TARGET_EXPORT_COLUMNS as unknown as string[]], CSV) + '\r\n');
  if (formatting === 'database') {
    const query = sql`SELECT ${exportLineSql} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`;
    yield* collectingAsItGoes(cursorBatches<{ l: string }, Buffer>(db, query, LINE_BATCH, (batch) => utf8Lines(batch.map((row) => row.l))));
    return;
  }
  const query = sql`SELECT ${exportColumns} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`;
  const day = dayFormatter();
  yield* collectingAsItGoes(cursorBatches<ExportRow, Buffer>(db, query, BATCH, (batch) => utf8Lines(batch.map((row) => exportLine(row, day)))));
}

import { once } from 'node:events';
import { PassThrough, Readable, type Writable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { prepareValue } from 'pg/lib/utils.js';
import { to as copyTo } from 'pg-copy-streams';
import type { TargetExportBody } from '@shared/contract/projects/targets';
import {
  CSV_BOM,
  CSV_DELIMITER,
  CSV_NEWLINE,
  CsvRecordEnds,
  FORMULA_CELL_PATTERN,
  FORMULA_ESCAPE_PREFIX,
  FORMULA_START_PATTERN,
  FORMULA_TRIGGERS,
} from '@shared/rules/csv';
import { driverOf, type Database, type DatabaseKind } from '../../db/client';
import { targetJoins, targetListClauses } from './queries/targets';

/**
 * The targets export (spec §3): one definition of its columns, each cell formatted by the database as the file
 * shows it (NULL: an empty cell). PostgreSQL writes the CSV itself (COPY … (FORMAT csv)); on PGlite the same
 * columns are joined into lines quoted as COPY quotes them by the SELECT itself (csvLinesQuery), read through a
 * cursor, so both write the same bytes.
 */

/** The formula trigger's first character code: a cheap test before the regular expression (almost no cell has one). */
const TRIGGER_CODES = sql.raw(FORMULA_TRIGGERS.map((trigger) => trigger.charCodeAt(0)).join(', '));

/** A text cell: a formula (FORMULA_CELL_PATTERN of @shared/rules/csv) gets a ' in front; an empty text is an empty cell. */
const textCell = (value: SQL) =>
  sql`CASE WHEN ascii(${value}) IN (${TRIGGER_CODES}) AND ${value} ~ ${FORMULA_CELL_PATTERN} THEN ${FORMULA_ESCAPE_PREFIX} || ${value} ELSE nullif(${value}, '') END`;

/**
 * The export's dates are written under this DateStyle (set for its transaction, EXPORT_SETTINGS): a date cast to
 * text then reads DD/MM/YYYY, a far cheaper call than to_char (on PGlite, 1,000,000 targets: 13 % less CPU).
 */
const EXPORT_SETTINGS = `SET LOCAL DateStyle = 'SQL, DMY'`;
/** formatDay of @shared/rules/dates (DD/MM/yyyy in UTC, the year unpadded) from epoch seconds; out of a timestamp's range, what JS's Date gives. */
const dayCell = (seconds: SQL) =>
  // From 1970 to 9999 (the year four digits, whole days from the epoch) the date cast; before or after, to_char.
  sql`CASE WHEN ${seconds} BETWEEN 0 AND 253402300799 THEN (date '1970-01-01' + (${seconds} / 86400)::int)::text
    WHEN ${seconds} BETWEEN -62135596800 AND 8640000000000 THEN to_char(to_timestamp(${seconds}) AT TIME ZONE 'UTC', 'DD/MM/FMYYYY')
    WHEN ${seconds} IS NOT NULL THEN 'NaN/NaN/NaN' END`;
/** The export's reading of a goal: views bare, days under 30 in jours, else days/30 to one decimal in mois (count / 3 has no .5: no tie to round), shipments in envois. */
const goalCell = sql`CASE WHEN t.goal_views <> 0 THEN t.goal_views::text
  WHEN t.goal_days <> 0 THEN CASE WHEN t.goal_days < 30 THEN t.goal_days || ' jours'
    ELSE (round(t.goal_days / 3.0)::bigint / 10) || CASE WHEN round(t.goal_days / 3.0)::bigint % 10 = 0 THEN '' ELSE '.' || round(t.goal_days / 3.0)::bigint % 10 END || ' mois' END
  WHEN t.goal_shipments <> 0 THEN t.goal_shipments || ' envois' END`;

/**
 * A column of the export: its header (the field name) and its value. A text column's value is the stored text,
 * written through textCell (any character, a formula neutralised); any other column's value is its cell as is,
 * which never holds ';', '"' nor a line break and is never an empty text (NULL instead), so CSV never quotes it.
 */
interface ExportColumn {
  header: string;
  value: SQL;
  text: boolean;
}
const text = (header: string, value: SQL): ExportColumn => ({ header, value, text: true });
const plain = (header: string, value: SQL): ExportColumn => ({ header, value, text: false });
const cellOf = (column: ExportColumn) => (column.text ? textCell(column.value) : column.value);

/** The export columns of spec §3, in order. */
export const TARGET_EXPORT_COLUMNS: readonly ExportColumn[] = [
  text('projectName', sql`p.name`),
  text('clientName', sql`p.client_name`),
  plain('advertId', sql`t.advert_id::text`),
  plain('advertSource', sql`'/adverts/edit/' || t.advert_id`),
  text('actionCode', sql`t.action_code`),
  text('status', sql`t.status`),
  text('keyAccount', sql`ka.name`),
  text('type', sql`t.type`),
  text('populationCategory', sql`t.population_category`),
  text('populationSample', sql`t.population_sample`),
  plain('populationSize', sql`t.population_size::text`),
  plain('goal', goalCell),
  plain('startDate', dayCell(sql`t.start_date`)),
  plain('checkDate', dayCell(sql`t.check_date`)),
  plain('endDate', dayCell(sql`t.end_date`)),
  text('actor', sql`t.actor`),
  plain('quotationSignedMonth', dayCell(sql`t.quotation_signed_month`)),
  plain('initialQuotationDate', dayCell(sql`t.initial_quotation_date`)),
  plain('revenue', sql`t.revenue::text`),
  plain('revenueDelayImpact', sql`t.revenue_delay_impact::text`),
];

/** The export's rows, in the list's filters and order. */
function exportQuery(body: TargetExportBody): SQL {
  const { where, orderBy } = targetListClauses(body);
  const cells = sql.join(
    TARGET_EXPORT_COLUMNS.map((column) => sql`${cellOf(column)} AS ${sql.identifier(column.header)}`),
    sql`, `,
  );
  return sql`SELECT ${cells} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`;
}

const BOM = Buffer.from(CSV_BOM);
const dialect = new PgDialect();

// ---- PostgreSQL: COPY TO STDOUT through pg-copy-streams ----------------------------------------------------------

/**
 * A query with its parameters written in as literals: COPY takes none. pg's own serialisation (arrays as
 * '{…}', every value through escapeLiteral); each parameter of the export's query is cast or compared with a
 * typed column, so a quoted literal reads as the value the parameter carried.
 */
export function withLiterals(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_, index: string) => {
    const value = prepareValue(params[Number(index) - 1]);
    return value === null ? 'NULL' : pg.escapeLiteral(String(value));
  });
}

/**
 * COPY's records end with a line feed; the product's CSV files end theirs with CRLF (as papaparse and Excel write
 * them). The record ends are found by quote parity, so a line break inside a cell stays as it is.
 */
function withCrlf(chunk: Buffer, recordEnds: CsvRecordEnds): Buffer {
  const ends: number[] = [];
  recordEnds.scan(chunk, (index) => ends.push(index));
  if (!ends.length) return chunk;
  const bytes = Buffer.allocUnsafe(chunk.length + ends.length);
  let from = 0;
  let written = 0;
  for (const end of ends) {
    written += chunk.copy(bytes, written, from, end);
    bytes[written++] = 0x0d;
    from = end;
  }
  chunk.copy(bytes, written, from);
  return bytes;
}

/**
 * The file as PostgreSQL writes it. The copy stream reads the socket only as fast as the response takes the
 * bytes, so a slow client slows the database instead of filling memory.
 */
async function* copiedFromPostgres(pool: pg.Pool, query: SQL): AsyncGenerator<Buffer> {
  const client = await pool.connect();
  let copy: ReturnType<typeof copyTo> | undefined;
  let complete = false;
  try {
    await client.query(`BEGIN READ ONLY; ${EXPORT_SETTINGS}`);
    copy = client.query(copyTo(`COPY (${withLiterals(query)}) TO STDOUT (FORMAT csv, DELIMITER '${CSV_DELIMITER}', HEADER)`));
    yield BOM;
    const recordEnds = new CsvRecordEnds();
    for await (const chunk of copy as AsyncIterable<Buffer>) yield withCrlf(chunk, recordEnds);
    await client.query('COMMIT');
    complete = true;
  } finally {
    if (!complete) {
      // Stopped mid-copy (client gone, failure): the connection is in the middle of the COPY, so it is closed
      // rather than reused, which ends the query; the copy stream's late error has nowhere else to go.
      copy?.on('error', () => undefined);
      client.release(true);
    } else client.release();
  }
}

// ---- PGlite: the same cells quoted by the SELECT itself, through a cursor ------------------------------------------

/** The separator as an SQL literal (the product's CSV layout, @shared/rules/csv), written into the query. */
const DELIMITER_SQL = sql.raw(`'${CSV_DELIMITER}'`);
/** Characters that make COPY (FORMAT csv, DELIMITER ';') quote a cell. */
const CSV_SPECIAL = `[${CSV_DELIMITER}"\r\n]`;

/**
 * A cell as COPY (FORMAT csv, DELIMITER ';') writes it, in SQL: quoted when it holds ';', '"' or a line break (its
 * quotes doubled), '' quoted, NULL empty. Only text cells can need it (TARGET_EXPORT_COLUMNS).
 */
const csvCellSql = (cell: SQL) =>
  sql`CASE WHEN ${cell} IS NULL THEN '' WHEN ${cell} = '' OR ${cell} ~ ${CSV_SPECIAL} THEN '"' || replace(${cell}, '"', '""') || '"' ELSE ${cell} END`;

/** Put before each text value of a row to find, with one regular expression, one that starts with a formula trigger. */
const VALUE_START = '\u0001';
/** A row one of whose text values needs care: CSV quoting (CSV_SPECIAL) or a formula trigger at its start. */
const NEEDS_CARE_PATTERN = `${CSV_SPECIAL}|${VALUE_START}${FORMULA_START_PATTERN}`;

/**
 * The export's rows as CSV lines (without their CRLF), each one text value: the database formats and quotes
 * every cell, so the server handles one value per row instead of twenty (PGlite's wire parsing costs per value).
 * The subquery (kept apart by its LIMIT) gives the text columns' stored values and the other columns' cells.
 * Almost no row has a text value to quote or neutralise: one regular expression over the row's texts tells, and
 * such a row is joined as it is by concat (NULL: empty); the others go cell by cell through textCell and COPY's
 * quoting. WebAssembly makes each SQL function call dear on PGlite: this path calls a handful per row, not a
 * hundred.
 */
function csvLinesQuery(body: TargetExportBody): SQL {
  const values = sql.join(
    TARGET_EXPORT_COLUMNS.map((column, index) => sql`${column.value} AS ${sql.identifier(`c${index}`)}`),
    sql`, `,
  );
  const valueOf = (index: number) => sql`c.${sql.identifier(`c${index}`)}`;
  const texts = sql.join(
    TARGET_EXPORT_COLUMNS.flatMap((column, index) => (column.text ? [valueOf(index)] : [])),
    sql`, `,
  );
  const joined = sql`concat(${sql.join(
    TARGET_EXPORT_COLUMNS.map((_, index) => valueOf(index)),
    sql`, ${DELIMITER_SQL}, `,
  )})`;
  const cellByCell = sql.join(
    TARGET_EXPORT_COLUMNS.map((column, index) => (column.text ? csvCellSql(textCell(valueOf(index))) : sql`coalesce(${valueOf(index)}, '')`)),
    sql` || ${DELIMITER_SQL} || `,
  );
  const { where, orderBy } = targetListClauses(body);
  return sql`SELECT CASE WHEN concat_ws(${VALUE_START}::text, '', ${texts}) ~ ${NEEDS_CARE_PATTERN} THEN ${cellByCell} ELSE ${joined} END
    FROM (SELECT ${values} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}) c`;
}

/** The header line, as COPY's HEADER writes it (no header needs quoting). */
const HEADER_LINE = TARGET_EXPORT_COLUMNS.map((column) => column.header).join(CSV_DELIMITER) + CSV_NEWLINE;

/** Lines a FETCH brings on PGlite: a few MB of text per call, so that the per-call cost stays small. */
const PGLITE_BATCH = 10_000;

/** Resolves once `out` can take more, or once it was closed (the client went away). */
async function drained(out: Writable): Promise<void> {
  const closed = new AbortController();
  await Promise.race([once(out, 'drain', { signal: closed.signal }), once(out, 'close', { signal: closed.signal })]).finally(() => closed.abort());
}

/**
 * The file from PGlite. Its COPY TO only writes to '/dev/blob', a Blob of the whole file handed over when the
 * statement ends: a million targets would sit in memory. So the export's SELECT runs through a cursor inside one
 * read transaction (one snapshot), each batch written as CSV lines, the next fetched once the response took it.
 */
function copiedFromPglite(client: PGlite, body: TargetExportBody): Readable {
  const out = new PassThrough();
  const { sql: text, params } = dialect.sqlToQuery(csvLinesQuery(body));
  void client
    .transaction(async (tx) => {
      await tx.exec(EXPORT_SETTINGS);
      await tx.query(`DECLARE target_export NO SCROLL CURSOR FOR ${text}`, params);
      out.write(BOM);
      out.write(HEADER_LINE);
      while (!out.destroyed) {
        const { rows } = await tx.query<[string]>(`FETCH ${PGLITE_BATCH} FROM target_export`, [], { rowMode: 'array' });
        if (rows.length) {
          let chunk = '';
          for (const [line] of rows) chunk += line + CSV_NEWLINE;
          if (!out.write(chunk) && !out.destroyed) await drained(out);
        }
        if (rows.length < PGLITE_BATCH) break;
      }
      await tx.query('CLOSE target_export');
    })
    .then(
      () => out.end(),
      (error: unknown) => out.destroy(error as Error),
    );
  return out;
}

/** The CSV file of the targets matching the list's filters and order (BOM, ';', CRLF), as a stream of UTF-8 bytes. */
export function targetExportCsv(db: Database, body: TargetExportBody, kind: DatabaseKind): Readable {
  const client = driverOf(db);
  return kind === 'postgresql'
    ? Readable.from(copiedFromPostgres(client as pg.Pool, exportQuery(body)), { objectMode: false })
    : copiedFromPglite(client as PGlite, body);
}

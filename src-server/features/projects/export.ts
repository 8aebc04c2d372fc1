import { once } from 'node:events';
import { PassThrough, Readable, type Writable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { prepareValue } from 'pg/lib/utils.js';
import { to as copyTo } from 'pg-copy-streams';
import type { TargetExportBody } from '@shared/contract/projects';
import { CsvRecordEnds, FORMULA_CELL_PATTERN, FORMULA_ESCAPE_PREFIX, FORMULA_TRIGGERS } from '@shared/rules/csv';
import type { Database, DatabaseKind } from '../../db/client';
import { targetJoins, targetListClauses } from './queries';

/**
 * The targets export (spec §3): one definition of its columns, each cell formatted by the database as the file
 * shows it (NULL: an empty cell). PostgreSQL writes the CSV itself (COPY … (FORMAT csv)); on PGlite the same cells
 * are quoted as COPY quotes them by the SELECT itself (csvLinesQuery), read line by line through a cursor, so both
 * write the same bytes.
 */

/** The formula trigger's first character code: a cheap test before the regular expression (almost no cell has one). */
const TRIGGER_CODES = sql.raw(FORMULA_TRIGGERS.map((trigger) => trigger.charCodeAt(0)).join(', '));

/** The text cells (textCell): the only ones CSV may have to quote. */
const textCells = new WeakSet<SQL>();
/** A text cell: a formula (FORMULA_CELL_PATTERN of @shared/rules/csv) gets a ' in front; an empty text is an empty cell. */
const textCell = (value: SQL) => {
  const cell = sql`CASE WHEN ascii(${value}) IN (${TRIGGER_CODES}) AND ${value} ~ ${FORMULA_CELL_PATTERN} THEN ${FORMULA_ESCAPE_PREFIX} || ${value} ELSE nullif(${value}, '') END`;
  textCells.add(cell);
  return cell;
};
/** formatDay of @shared/rules/dates (DD/MM/yyyy in UTC, the year unpadded) from epoch seconds; out of a timestamp's range, what JS's Date gives. */
const dayCell = (seconds: SQL) =>
  sql`CASE WHEN ${seconds} BETWEEN -62135596800 AND 8640000000000 THEN to_char(to_timestamp(${seconds}) AT TIME ZONE 'UTC', 'DD/MM/FMYYYY') WHEN ${seconds} IS NOT NULL THEN 'NaN/NaN/NaN' END`;
/** The export's reading of a goal: views bare, days under 30 in jours, else days/30 to one decimal in mois (count / 3 has no .5: no tie to round), shipments in envois. */
const goalCell = sql`CASE WHEN t.goal_views <> 0 THEN t.goal_views::text
  WHEN t.goal_days <> 0 THEN CASE WHEN t.goal_days < 30 THEN t.goal_days || ' jours'
    ELSE (round(t.goal_days / 3.0)::bigint / 10) || CASE WHEN round(t.goal_days / 3.0)::bigint % 10 = 0 THEN '' ELSE '.' || round(t.goal_days / 3.0)::bigint % 10 END || ' mois' END
  WHEN t.goal_shipments <> 0 THEN t.goal_shipments || ' envois' END`;

/**
 * The export columns of spec §3, in order: the header (the field name) and the cell. A text cell may hold any
 * character; the others (numbers, days, goals, the advert's path) never hold ';', '"' nor a line break and are
 * never an empty text (NULL instead), so CSV never quotes them.
 */
export const TARGET_EXPORT_COLUMNS = [
  ['projectName', textCell(sql`p.name`)],
  ['clientName', textCell(sql`p.client_name`)],
  ['advertId', sql`t.advert_id::text`],
  ['advertSource', sql`'/adverts/edit/' || t.advert_id`],
  ['actionCode', textCell(sql`t.action_code`)],
  ['status', textCell(sql`t.status`)],
  ['keyAccount', textCell(sql`ka.name`)],
  ['type', textCell(sql`t.type`)],
  ['populationCategory', textCell(sql`t.population_category`)],
  ['populationSample', textCell(sql`t.population_sample`)],
  ['populationSize', sql`t.population_size::text`],
  ['goal', goalCell],
  ['startDate', dayCell(sql`t.start_date`)],
  ['checkDate', dayCell(sql`t.check_date`)],
  ['endDate', dayCell(sql`t.end_date`)],
  ['actor', textCell(sql`t.actor`)],
  ['quotationSignedMonth', dayCell(sql`t.quotation_signed_month`)],
  ['initialQuotationDate', dayCell(sql`t.initial_quotation_date`)],
  ['revenue', sql`t.revenue::text`],
  ['revenueDelayImpact', sql`t.revenue_delay_impact::text`],
] as const satisfies readonly (readonly [string, SQL])[];

/** The export's rows, in the list's filters and order. */
function exportQuery(body: TargetExportBody): SQL {
  const { where, orderBy } = targetListClauses(body);
  const cells = sql.join(
    TARGET_EXPORT_COLUMNS.map(([header, cell]) => sql`${cell} AS ${sql.identifier(header)}`),
    sql`, `,
  );
  return sql`SELECT ${cells} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`;
}

const BOM = Buffer.from('\uFEFF');
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
  const copy = client.query(copyTo(`COPY (${withLiterals(query)}) TO STDOUT (FORMAT csv, DELIMITER ';', HEADER)`));
  let complete = false;
  try {
    yield BOM;
    const recordEnds = new CsvRecordEnds();
    for await (const chunk of copy as AsyncIterable<Buffer>) yield withCrlf(chunk, recordEnds);
    complete = true;
  } finally {
    if (!complete) {
      // Stopped mid-copy (client gone, failure): the connection is in the middle of the COPY, so it is closed
      // rather than reused, which ends the query; the copy stream's late error has nowhere else to go.
      copy.on('error', () => undefined);
      client.release(true);
    } else client.release();
  }
}

// ---- PGlite: the same cells quoted by the SELECT itself, through a cursor ------------------------------------------

/** Characters that make COPY (FORMAT csv, DELIMITER ';') quote a cell. */
const CSV_SPECIAL = sql.raw(`'[;"\r\n]'`);

/**
 * A cell as COPY (FORMAT csv, DELIMITER ';') writes it, in SQL: quoted when it holds ';', '"' or a line break (its
 * quotes doubled), '' quoted, NULL empty. Only text cells can need it (TARGET_EXPORT_COLUMNS).
 */
const csvCellSql = (cell: SQL, text: boolean) =>
  text
    ? sql`CASE WHEN ${cell} IS NULL THEN '' WHEN ${cell} = '' OR ${cell} ~ ${CSV_SPECIAL} THEN '"' || replace(${cell}, '"', '""') || '"' ELSE ${cell} END`
    : sql`coalesce(${cell}, '')`;

/**
 * The export's rows as CSV lines (without their CRLF), each one text value: the database formats and quotes
 * every cell, so the server handles one value per row instead of twenty (PGlite's wire parsing costs per value).
 * The cells are computed once in a subquery that is kept apart (OFFSET 0), then each is quoted as COPY would.
 */
function csvLinesQuery(body: TargetExportBody): SQL {
  const cells = sql.join(
    TARGET_EXPORT_COLUMNS.map(([, cell], index) => sql`${cell} AS ${sql.identifier(`c${index}`)}`),
    sql`, `,
  );
  const line = sql.join(
    TARGET_EXPORT_COLUMNS.map(([, cell], index) => csvCellSql(sql`c.${sql.identifier(`c${index}`)}`, textCells.has(cell))),
    sql` || ';' || `,
  );
  const { where, orderBy } = targetListClauses(body);
  return sql`SELECT ${line} FROM (SELECT ${cells} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}) c`;
}

/** The header line, as COPY's HEADER writes it (no header needs quoting). */
const HEADER_LINE = TARGET_EXPORT_COLUMNS.map(([header]) => header).join(';') + '\r\n';

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
      await tx.query(`DECLARE target_export NO SCROLL CURSOR FOR ${text}`, params);
      out.write(BOM);
      out.write(HEADER_LINE);
      while (!out.destroyed) {
        const { rows } = await tx.query<[string]>(`FETCH ${PGLITE_BATCH} FROM target_export`, [], { rowMode: 'array' });
        if (rows.length) {
          let chunk = '';
          for (const [line] of rows) chunk += line + '\r\n';
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
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  return kind === 'postgresql'
    ? Readable.from(copiedFromPostgres(client as pg.Pool, exportQuery(body)), { objectMode: false })
    : copiedFromPglite(client as PGlite, body);
}

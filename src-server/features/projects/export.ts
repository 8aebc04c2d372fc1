import Papa from 'papaparse';
import { sql, type SQL } from 'drizzle-orm';
import type { TargetExportBody } from '@shared/contract/projects';
import type { Database } from '../../db/client';
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

/** A text cell, quoted when it holds the separator, a quote or a line break (as papaparse writes them). */
const text = (column: SQL) =>
  sql`CASE WHEN ${column} IS NULL THEN '' WHEN ${column} ~ '[;"\r\n]' OR ${column} ~ '^[[:space:]]|[[:space:]]$' THEN '"' || replace(${column}, '"', '""') || '"' ELSE ${column} END`;
const whole = (column: SQL) => sql`coalesce(${column}::text, '')`;
/** DD/MM/yyyy of an epoch-seconds day (formatDate). */
const day = (column: SQL) => sql`coalesce(to_char(to_timestamp(${column}) AT TIME ZONE 'UTC', 'DD/MM/YYYY'), '')`;
const euros = (column: SQL) => sql`coalesce(to_char(${column}, 'FM999999999999990.00'), '')`;
/** formatGoalForExport: views bare, days under 30 in jours, else days/30 to one decimal in mois, shipments in envois. */
const goal = sql`CASE WHEN t.goal_views > 0 THEN t.goal_views::text
  WHEN t.goal_days > 0 AND t.goal_days < 30 THEN t.goal_days || ' jours'
  WHEN t.goal_days >= 30 THEN trim_scale(round(t.goal_days / 30.0, 1))::text || ' mois'
  WHEN t.goal_shipments > 0 THEN t.goal_shipments || ' envois' ELSE '' END`;

/**
 * One CSV line per target, written by the database: the server then only passes text along, so a million rows
 * cost no row objects (the same cells as formatDate, formatGoalForExport and two-decimal amounts; the unit tests
 * of those rules and the export test pin them).
 */
const exportLine = sql`concat_ws(';', ${text(sql`p.name`)}, ${text(sql`p.client_name`)}, ${whole(sql`t.advert_id`)},
  CASE WHEN t.advert_id IS NULL THEN '' ELSE '/adverts/edit/' || t.advert_id END, ${text(sql`t.action_code`)}, ${text(sql`t.status`)},
  ${text(sql`ka.name`)}, ${text(sql`t.type`)}, ${text(sql`t.population_category`)}, ${text(sql`t.population_sample`)}, ${whole(sql`t.population_size`)},
  ${goal}, ${day(sql`t.start_date`)}, ${day(sql`t.check_date`)}, ${day(sql`t.end_date`)}, ${text(sql`t.actor`)}, ${day(sql`t.quotation_signed_month`)},
  ${day(sql`t.initial_quotation_date`)}, ${euros(sql`t.revenue`)}, ${euros(sql`t.revenue_delay_impact`)}) AS line`;

const CSV = { delimiter: ';', newline: '\r\n' } as const;
const BATCH = 5_000;

/**
 * The rows of a query in batches through a server-side cursor, inside one read transaction (one consistent
 * snapshot; memory holds one batch). The transaction runs beside the consumer: it fetches the next batch only
 * once the previous one was taken, so a slow client slows the query instead of filling memory, and a consumer
 * that stops (client gone) ends the transaction.
 */
export async function* cursorBatches<T>(db: Database, query: SQL, batchSize = BATCH): AsyncGenerator<T[]> {
  let handOver: ((batch: T[] | null) => Promise<boolean>) | undefined;
  let pending: { batch: T[] | null; taken: (keepGoing: boolean) => void } | undefined;
  let wake: (() => void) | undefined;
  let failure: unknown;
  let finished = false;
  let unanswered: ((keepGoing: boolean) => void) | undefined;
  handOver = (batch) =>
    new Promise<boolean>((taken) => {
      pending = { batch, taken };
      wake?.();
    });
  const work = db
    .transaction(async (tx) => {
      await tx.execute(sql`DECLARE target_export NO SCROLL CURSOR FOR ${query}`);
      for (;;) {
        const result = (await tx.execute(sql.raw(`FETCH ${batchSize} FROM target_export`))) as unknown as { rows: T[] };
        const keepGoing = await handOver!(result.rows.length ? result.rows : null);
        if (!keepGoing || result.rows.length < batchSize) break;
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
      unanswered = taken;
      yield batch;
      unanswered = undefined;
      taken(true);
    }
  } finally {
    // The consumer stopped early: let the transaction end.
    unanswered?.(false);
    if (pending) pending.taken(false);
    handOver = async () => false;
    await work;
  }
  if (failure) throw failure;
}

/** The CSV file of the targets matching the list's filters and order, chunk by chunk (BOM, ';', CRLF). */
export async function* targetExportCsv(db: Database, body: TargetExportBody): AsyncGenerator<string> {
  const { where, orderBy } = targetListClauses(body);
  const query = sql`SELECT ${exportLine} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`;
  yield '\uFEFF' + Papa.unparse([TARGET_EXPORT_COLUMNS as unknown as string[]], CSV) + '\r\n';
  for await (const batch of cursorBatches<{ line: string }>(db, query)) {
    let chunk = '';
    for (const row of batch) chunk += `${row.line}\r\n`;
    yield chunk;
  }
}

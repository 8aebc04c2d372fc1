import Papa from 'papaparse';
import { sql, type SQL } from 'drizzle-orm';
import type { TargetExportBody } from '@shared/contract/projects';
import { formatDate, formatGoalForExport } from '@shared/rules/projects';
import type { Database } from '../../db/client';
import { targetColumns, targetJoins, targetListClauses, type TargetRow } from './queries';

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

const amount = (value: number | null) => (value == null ? '' : value.toFixed(2));

function exportCells(row: TargetRow): (string | number)[] {
  return [
    row.projectName,
    row.clientName,
    row.advertId ?? '',
    row.advertId == null ? '' : `/adverts/edit/${row.advertId}`,
    row.actionCode ?? '',
    row.status,
    row.keyAccountName ?? '',
    row.type ?? '',
    row.populationCategory ?? '',
    row.populationSample ?? '',
    row.populationSize ?? '',
    formatGoalForExport({ views: row.goalViews, days: row.goalDays, shipments: row.goalShipments }),
    formatDate(row.startDate),
    formatDate(row.checkDate),
    formatDate(row.endDate),
    row.actor ?? '',
    formatDate(row.quotationSignedMonth),
    formatDate(row.initialQuotationDate),
    amount(row.revenue),
    amount(row.revenueDelayImpact),
  ];
}

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
  const query = sql`SELECT ${targetColumns} FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`;
  yield '\uFEFF' + Papa.unparse([TARGET_EXPORT_COLUMNS as unknown as string[]], CSV) + '\r\n';
  for await (const batch of cursorBatches<TargetRow>(db, query)) {
    yield Papa.unparse(batch.map(exportCells), CSV) + '\r\n';
  }
}

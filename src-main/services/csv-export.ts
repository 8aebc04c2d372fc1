import type { z } from 'zod';
import { contract, type OperationId, type OperationInput, type Operation } from '@shared/contract';
import type { IpcFailure, IpcResult } from '@shared/ipc';
import { EXPORT_MESSAGES } from '@shared/messages';
import { CsvRecordEnds } from '@shared/rules/csv';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeCsvFile } from './files';
import { discardPartialFile, keepPartialFile, partialPathOf } from './partial-file';

/** One column of an export: where the value is in a row (dotted path) and the header the file shows. */
export interface CsvColumn {
  key: string;
  header: string;
}

export interface ExportRequest {
  /** A list operation: it takes `skip` and `limit` (in its query or body) and answers `{ items, total? }`. */
  operation: OperationId;
  /** Its filters, as the screen sends them (paging is added here). */
  input: OperationInput<Operation>;
  columns: CsvColumn[];
  /** Rows asked per call; the operation's own `limit` maximum should not be exceeded. */
  pageSize?: number;
  /** Stop after this many rows (the spec caps exports: 10,000 groups, 1,000,000 targets). */
  maxRows?: number;
}

export interface Progress {
  done: number;
  /** Rows expected, when the operation tells its total. */
  total: number | null;
}

export type CallOperation = (operation: OperationId, input: OperationInput<Operation>) => Promise<IpcResult<unknown>>;

/** A failed export: the API's failure as it came, for the screen to show. */
export class ExportFailedError extends Error {
  constructor(readonly failure: IpcFailure) {
    super(failure.errorMsg);
  }
}

/** Where the operation takes its paging: its query (GET lists) or its body (POST lists). */
export function pagingPart(operationId: OperationId): 'query' | 'body' | null {
  const operation = contract[operationId] as Operation;
  for (const part of ['query', 'body'] as const) {
    const shape = (operation[part] as z.ZodObject | undefined)?.shape as Record<string, unknown> | undefined;
    if (shape && 'skip' in shape && 'limit' in shape) return part;
  }
  return null;
}

/** The value at a dotted path; lists are joined, as a spreadsheet cell shows them. */
export function valueAt(row: Record<string, unknown>, key: string): unknown {
  let value: unknown = row;
  for (const segment of key.split('.')) value = value === null || value === undefined ? undefined : (value as Record<string, unknown>)[segment];
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item))).join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return value;
}

/**
 * Pages through a list operation and yields its rows, one page in memory at a time. Stops at a short page, at
 * the operation's total, at `maxRows`, or when `signal` aborts.
 */
export async function* pagedRows(
  call: CallOperation,
  request: ExportRequest,
  options: { signal?: AbortSignal; onProgress?: (progress: Progress) => void } = {},
): AsyncGenerator<Record<string, unknown>> {
  const part = pagingPart(request.operation);
  if (!part) throw new ExportFailedError({ ok: false, status: 0, errorMsg: EXPORT_MESSAGES.notAList });
  const pageSize = request.pageSize ?? 500;
  const maxRows = request.maxRows ?? 1_000_000;
  let done = 0;
  let total: number | null = null;
  while (done < maxRows) {
    options.signal?.throwIfAborted();
    const limit = Math.min(pageSize, maxRows - done);
    const base = (request.input[part] ?? {}) as Record<string, unknown>;
    const result = await call(request.operation, { ...request.input, [part]: { ...base, skip: done, limit } });
    if (!result.ok) throw new ExportFailedError(result);
    const answer = result.data as { items?: Record<string, unknown>[]; total?: number };
    const items = answer.items ?? [];
    if (typeof answer.total === 'number') total = Math.min(answer.total, maxRows);
    for (const item of items) yield item;
    done += items.length;
    options.onProgress?.({ done, total });
    if (items.length < limit || (total !== null && done >= total)) break;
  }
}

/**
 * Exports everything a list operation answers to a CSV file (`;` and a BOM, for French Excel), streamed: the file
 * is written page by page under a temporary name and renamed at the end, so a cancelled or failed export leaves
 * nothing under the chosen name.
 */
export async function exportToCsvFile(
  call: CallOperation,
  request: ExportRequest,
  path: string,
  options: { signal?: AbortSignal; onProgress?: (progress: Progress) => void } = {},
): Promise<{ rows: number }> {
  let rows = 0;
  const counted = async function* () {
    for await (const row of pagedRows(call, request, options)) {
      rows += 1;
      yield row;
    }
  };
  await writeCsvFile(
    path,
    counted(),
    request.columns.map((column) => column.key),
    { headers: request.columns.map((column) => column.header), cellValue: valueAt },
  );
  return { rows };
}

/** Opens an operation's streamed file answer (ApiClient.open). */
export type OpenFile = (
  operation: OperationId,
  input: OperationInput<Operation>,
  signal?: AbortSignal,
) => Promise<IpcResult<AsyncIterable<Uint8Array>>>;

/** Whether the operation answers the whole CSV file itself (Operation.answersFile): then main only saves the bytes. */
export function answersFile(operationId: OperationId): boolean {
  return (contract[operationId] as Operation).answersFile === 'csv';
}

/** Rows between two progress reports of a streamed file. */
const PROGRESS_EVERY_ROWS = 5_000;

/**
 * Saves a file the server streams (targets.export: up to 1,000,000 rows, written by the server as the database
 * gives them) to `path` as it arrives: under a temporary name, renamed at the end, so a cancel or a failure leaves
 * nothing under the chosen name. Progress counts CSV records (the header excluded), so a cell holding a line break
 * is still one row; memory holds a chunk.
 */
export async function downloadCsvFile(
  open: OpenFile,
  request: { operation: OperationId; input: OperationInput<Operation> },
  path: string,
  options: { signal?: AbortSignal; onProgress?: (progress: Progress) => void } = {},
): Promise<{ rows: number }> {
  const opened = await open(request.operation, request.input, options.signal);
  if (!opened.ok) throw new ExportFailedError(opened);
  const temporary = partialPathOf(path);
  const out = createWriteStream(temporary);
  // pipeline reports the stream's errors; this listener only keeps a late one (destroyed while opening) from
  // ending the process.
  out.on('error', () => undefined);
  const recordEnds = new CsvRecordEnds();
  let records = 0;
  let lastReport = 0;
  const countRecord = () => (records += 1);
  const counted = async function* () {
    for await (const chunk of opened.data) {
      recordEnds.scan(chunk, countRecord);
      if (records - lastReport >= PROGRESS_EVERY_ROWS) {
        lastReport = records;
        options.onProgress?.({ done: Math.max(0, records - 1), total: null });
      }
      yield chunk;
    }
  };
  try {
    await pipeline(Readable.from(counted()), out, { signal: options.signal });
    await keepPartialFile(temporary, path);
  } catch (error) {
    await discardPartialFile(temporary, out);
    throw error;
  }
  const rows = Math.max(0, records - 1);
  options.onProgress?.({ done: rows, total: rows });
  return { rows };
}

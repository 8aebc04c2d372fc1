import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { IpcResult } from '@shared/ipc';
import { emailField } from '@shared/contract/entities';
import { IMPORT_MESSAGES } from '@shared/messages';
import { fileSource, scanCsv, type CsvScan } from './files';
import type { Progress } from './csv-export';

/** Rows the import screens preview (spec: 25 rows per page). */
export const PREVIEW_ROWS = 25;
/** Per-row errors kept for the screen; the count goes on past it. */
export const MAX_REPORTED_ERRORS = 1000;

export interface CsvPreview extends CsvScan {
  /** Names the picked file in later calls; the renderer never sees its path. */
  handle: string;
  rows: Record<string, string>[];
  rowCount: number;
}

export interface RowError {
  /** The row as a spreadsheet numbers it: the header is row 1, the first value row 2. */
  line: number;
  message: string;
  /** The value of a row refused before sending (blank: ''; or not of the column's format); absent for a row the server refused. */
  value?: string;
}

export interface ImportReport {
  rows: number;
  sent: number;
  refused: number;
  /** Rows not sent: a blank value, or one not of the column's `format`; each named in `errors` (the first 1,000). */
  invalid: number;
  errors: RowError[];
  /** More errors happened than `errors` holds. */
  errorsTruncated: boolean;
  /** Each accepted chunk's answer (the operation's own report, e.g. attachEmails' added and unmatched), in order. */
  answers: unknown[];
}

/** Formats a column's values may be checked against before anything is sent (the row is reported, not sent). */
export const VALUE_FORMATS = {
  email: (value: string) => emailField.safeParse(value).success,
} as const;
export type ValueFormat = keyof typeof VALUE_FORMATS;

interface PickedFile {
  path: string;
  scan: CsvScan;
  /** A copy made by the host (web uploads): deleted when forgotten. */
  temporary: boolean;
  expires: number;
  rowCount: number;
}

const HANDLE_TTL_MS = 30 * 60 * 1000;

/**
 * Files picked for an import, by handle. A preview reads the whole file once (row count, encoding) but keeps
 * only its first 25 rows; the import reads it again and sends one column in chunks. Nothing holds every row.
 */
export class CsvImports {
  private readonly files = new Map<string, PickedFile>();

  constructor(private readonly now: () => number = Date.now) {}

  async preview(path: string, options: { temporary?: boolean; fileName?: string } = {}): Promise<CsvPreview> {
    this.forgetExpired();
    const rows: Record<string, string>[] = [];
    let rowCount = 0;
    const scan = await scanCsv(fileSource(path), options.fileName ?? path, {
      onStart: () => {
        rows.length = 0;
        rowCount = 0;
      },
      onRow: (row) => {
        rowCount += 1;
        if (rows.length < PREVIEW_ROWS) rows.push(row);
      },
    });
    const handle = randomUUID();
    this.files.set(handle, { path, scan, temporary: options.temporary ?? false, expires: this.now() + HANDLE_TTL_MS, rowCount });
    return { ...scan, handle, rows, rowCount };
  }

  /**
   * Sends the values of `column` to `send` in chunks of `chunkSize`. A blank cell is a row error; a chunk the
   * server refuses makes each of its rows an error with the server's message. Stops when `signal` aborts.
   */
  async importColumn(
    handle: string,
    options: { column: string; chunkSize?: number; format?: ValueFormat },
    send: (values: string[]) => Promise<IpcResult<unknown>>,
    progress: { signal?: AbortSignal; onProgress?: (progress: Progress) => void } = {},
  ): Promise<ImportReport> {
    const file = this.files.get(handle);
    if (!file || file.expires < this.now()) throw new Error(IMPORT_MESSAGES.fileForgotten);
    if (!file.scan.columns.includes(options.column)) throw new Error(IMPORT_MESSAGES.missingColumn(options.column));
    const chunkSize = options.chunkSize ?? 1000;
    const report: ImportReport = { rows: 0, sent: 0, refused: 0, invalid: 0, errors: [], errorsTruncated: false, answers: [] };
    const wellFormed = options.format ? VALUE_FORMATS[options.format] : () => true;
    const addError = (error: RowError) => {
      if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push(error);
      else report.errorsTruncated = true;
    };
    let chunk: { line: number; value: string }[] = [];
    const flush = async (size: number) => {
      progress.signal?.throwIfAborted();
      const sending = chunk.slice(0, size);
      chunk = chunk.slice(size);
      const result = await send(sending.map((entry) => entry.value));
      if (result.ok) {
        report.sent += sending.length;
        report.answers.push(result.data);
      } else {
        report.refused += sending.length;
        for (const entry of sending) addError({ line: entry.line, message: result.errorMsg });
      }
      progress.onProgress?.({ done: report.rows, total: null });
    };
    // Rows arrive from the parser synchronously; full chunks are sent between reads of the file, so memory holds
    // at most one read (256 kB) of values plus one chunk.
    let line = 1;
    await scanCsv(fileSource(file.path), file.path, {
      encoding: file.scan.encoding,
      onRow: (row) => {
        line += 1;
        report.rows += 1;
        const value = (row[options.column] ?? '').trim();
        if (value && wellFormed(value)) chunk.push({ line, value });
        else {
          report.invalid += 1;
          addError({ line, message: value ? IMPORT_MESSAGES.badValue(options.format!, value) : IMPORT_MESSAGES.blankValue(options.column), value });
        }
      },
      afterRead: async () => {
        while (chunk.length >= chunkSize) await flush(chunkSize);
      },
    });
    while (chunk.length) await flush(chunkSize);
    progress.onProgress?.({ done: report.rows, total: report.rows });
    return report;
  }

  /**
   * Sends whole rows (every column) in chunks to a batch operation; a file of more than `maxRows` rows is refused
   * before anything is sent. Stops at the first refused chunk (its first row named).
   */
  async importRows(
    handle: string,
    options: { chunkSize: number; maxRows: number },
    send: (rows: Record<string, string>[], firstLine: number) => Promise<IpcResult<unknown>>,
    progress: { signal?: AbortSignal; onProgress?: (progress: Progress) => void } = {},
  ): Promise<{ rows: number; answers: unknown[]; refused: { line: number; message: string } | null }> {
    const file = this.files.get(handle);
    if (!file || file.expires < this.now()) throw new Error(IMPORT_MESSAGES.fileForgotten);
    const total = file.rowCount;
    if (total > options.maxRows)
      return { rows: total, answers: [], refused: { line: 0, message: IMPORT_MESSAGES.tooManyRows(options.maxRows, total) } };
    const answers: unknown[] = [];
    let refused: { line: number; message: string } | null = null;
    let chunk: Record<string, string>[] = [];
    let chunkLine = 2;
    let read = 0;
    const flush = async (size: number) => {
      progress.signal?.throwIfAborted();
      if (refused) {
        chunk = [];
        return;
      }
      const sending = chunk.slice(0, size);
      chunk = chunk.slice(size);
      const result = await send(sending, chunkLine);
      if (result.ok) answers.push(result.data);
      else refused = { line: chunkLine, message: result.errorMsg };
      chunkLine += sending.length;
      progress.onProgress?.({ done: chunkLine - 2, total });
    };
    await scanCsv(fileSource(file.path), file.path, {
      encoding: file.scan.encoding,
      onRow: (row) => {
        read += 1;
        chunk.push(row);
      },
      afterRead: async () => {
        while (chunk.length >= options.chunkSize) await flush(options.chunkSize);
        progress.onProgress?.({ done: read, total });
      },
    });
    while (chunk.length) await flush(options.chunkSize);
    progress.onProgress?.({ done: read, total });
    return { rows: read, answers, refused };
  }

  async forget(handle: string): Promise<void> {
    const file = this.files.get(handle);
    this.files.delete(handle);
    if (file?.temporary) await rm(file.path, { force: true });
  }

  private forgetExpired(): void {
    for (const [handle, file] of this.files) if (file.expires < this.now()) void this.forget(handle);
  }
}

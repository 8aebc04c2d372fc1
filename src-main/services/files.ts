import { createReadStream, createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import Papa from 'papaparse';
import type { CsvReadResult } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { CSV_BOM, CSV_NEWLINE, CSV_WRITE_OPTIONS } from '@shared/rules/csv';
import { discardPartialFile, keepPartialFile, partialPathOf } from './partial-file';

function assertCsvName(fileName: string): void {
  if (!/\.csv$/i.test(fileName)) throw new Error(MESSAGES.csvOnly);
}

/** Opens the file's bytes, once per reading: the encoding fallback reads them again. */
export type ByteSource = () => AsyncIterable<Uint8Array | string>;

/** A byte that is not UTF-8: the file is read again as Windows-1252. */
class NotUtf8Error extends Error {}

/** `;` (French Excel) or `,`, whichever the header line uses more outside quotes. */
function detectDelimiter(headerLine: string): ';' | ',' {
  const unquoted = headerLine.replace(/"[^"]*"/g, '');
  const semicolons = unquoted.split(';').length - 1;
  const commas = unquoted.split(',').length - 1;
  return semicolons >= commas && semicolons > 0 ? ';' : commas > 0 ? ',' : ';';
}

/**
 * Decodes and parses the source as it streams in: papaparse receives text chunk by chunk, once the header line
 * has shown the separator. A strict UTF-8 decoder (the BOM dropped) throws NotUtf8Error on a byte it cannot
 * read; the caller then starts over in Windows-1252.
 */
async function parseStream(
  open: ByteSource,
  encoding: CsvReadResult['encoding'],
  onRow: (row: Record<string, string>) => void,
  afterRead?: () => Promise<void>,
) {
  const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' });
  let header = '';
  let parser: PassThrough | null = null;
  let parsed: Promise<void> = Promise.resolve();
  let delimiter: ';' | ',' = ';';

  const startParser = () => {
    delimiter = detectDelimiter(header.split(/\r?\n|\r/, 1)[0]);
    // Papa reads a text stream and hands rows to `step`: lighter than its object-mode duplex, one push per row.
    const text = new PassThrough({ encoding: 'utf8' });
    parsed = new Promise<void>((resolve, reject) => {
      Papa.parse<Record<string, string>>(text as unknown as File, {
        header: true,
        delimiter,
        skipEmptyLines: 'greedy',
        transformHeader: (name: string) => name.trim(),
        step: (result) => onRow(result.data),
        complete: () => resolve(),
        error: () => reject(new Error(MESSAGES.csvUnreadable)),
      });
    });
    return text;
  };
  const feed = async (text: string) => {
    if (!parser) {
      header += text;
      if (!/[\r\n]/.test(header)) return;
      parser = startParser();
      text = header;
    }
    if (text && !parser.write(text)) await once(parser, 'drain');
  };
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new NotUtf8Error();
    }
  };

  for await (const chunk of open()) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // Text never holds NUL bytes: this is a binary file (or UTF-16) renamed .csv.
    if (bytes.includes(0)) throw new Error(MESSAGES.csvUnreadable);
    await feed(decode(bytes));
    // The consumer may act on the rows parsed so far (send a chunk) before more of the file is read.
    await afterRead?.();
  }
  await feed(decode());
  // A file of one line without a line break: its header alone.
  if (!parser && header.trim()) {
    parser = startParser();
    parser.write(header);
  }
  if (!parser) throw new Error(MESSAGES.csvUnreadable);
  const firstLine = header.split(/\r?\n|\r/, 1)[0];
  parser.end();
  await parsed;
  return { delimiter, firstLine };
}

/** What a full pass over a CSV file learnt, without its rows. */
export type CsvScan = Omit<CsvReadResult, 'rows'>;

/**
 * Reads a CSV file row by row, never holding it whole: `onRow` sees each row as it is parsed. A file that turns
 * out not to be UTF-8 is read again as Windows-1252, so `onStart` tells the consumer to forget what it saw.
 * A known `encoding` (from an earlier pass) reads once.
 */
export async function scanCsv(
  input: Uint8Array | ByteSource,
  fileName: string,
  handlers: {
    onRow: (row: Record<string, string>) => void;
    onStart?: () => void;
    /** Called between reads of the file: back-pressure for a consumer that sends rows on. */
    afterRead?: () => Promise<void>;
    encoding?: CsvReadResult['encoding'];
  },
): Promise<CsvScan> {
  assertCsvName(fileName);
  const open: ByteSource = input instanceof Uint8Array ? () => Readable.from([Buffer.from(input.buffer, input.byteOffset, input.byteLength)]) : input;
  let encoding: CsvReadResult['encoding'] = handlers.encoding ?? 'utf-8';
  let firstRow: Record<string, string> | null = null;
  const onRow = (row: Record<string, string>) => {
    firstRow ??= row;
    handlers.onRow(row);
  };
  let result: Awaited<ReturnType<typeof parseStream>>;
  try {
    handlers.onStart?.();
    result = await parseStream(open, encoding, onRow, handlers.afterRead);
  } catch (error) {
    if (!(error instanceof NotUtf8Error) || handlers.encoding) throw error;
    encoding = 'windows-1252';
    firstRow = null;
    handlers.onStart?.();
    result = await parseStream(open, encoding, onRow, handlers.afterRead);
  }
  const { delimiter, firstLine } = result;
  const columns = firstRow
    ? Object.keys(firstRow)
    : firstLine
        .split(delimiter)
        .map((column) => column.trim().replace(/^"|"$/g, ''))
        .filter(Boolean);
  if (!columns.length) throw new Error(MESSAGES.csvUnreadable);
  return { fileName: basename(fileName), columns, encoding, delimiter };
}

/** Opens a file on disk as a byte source, in 256 kB chunks. */
export function fileSource(path: string): ByteSource {
  return () => createReadStream(path, { highWaterMark: 256 * 1024 });
}

/**
 * A value as papaparse gets it: numbers, bigints and booleans kept as such (escapeFormulae never prefixes them, -5
 * stays -5), anything else as text (which the export-cell rule may prefix).
 */
function cell(value: unknown): string | number | bigint | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return value;
  return typeof value === 'string' ? value : String(value);
}

/** Streams rows to disk in chunks: an export of a million rows never sits whole in memory. */
export async function writeCsvFile(
  path: string,
  rows: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>,
  columns: string[],
  options: { headers?: string[]; cellValue?: (row: Record<string, unknown>, column: string) => unknown } = {},
): Promise<void> {
  const temporary = partialPathOf(path);
  const out = createWriteStream(temporary, { encoding: 'utf8' });
  // Listened to at once: a stream destroyed while its file is still opening (a cancel right at the start) reports
  // its buffered writes as an error, which must end this export, never the process.
  let failure: Error | undefined;
  out.on('error', (error) => {
    failure ??= error;
  });
  const write = (text: string) => {
    if (failure) return Promise.reject(failure);
    if (out.write(text)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onDrain = () => {
        out.off('error', onError);
        resolve();
      };
      const onError = (error: Error) => {
        out.off('drain', onDrain);
        reject(error);
      };
      out.once('drain', onDrain);
      out.once('error', onError);
    });
  };
  const cellValue = options.cellValue ?? ((row, column) => row[column]);
  try {
    // The product's CSV layout and export-cell rule (@shared/rules/csv): BOM, ';', CRLF, formulas neutralised.
    await write(CSV_BOM + Papa.unparse([options.headers ?? columns], CSV_WRITE_OPTIONS) + CSV_NEWLINE);
    let batch: ReturnType<typeof cell>[][] = [];
    for await (const row of rows as AsyncIterable<Record<string, unknown>>) {
      batch.push(columns.map((c) => cell(cellValue(row, c))));
      if (batch.length === 5000) {
        await write(Papa.unparse(batch, CSV_WRITE_OPTIONS) + CSV_NEWLINE);
        batch = [];
      }
    }
    if (batch.length) await write(Papa.unparse(batch, CSV_WRITE_OPTIONS) + CSV_NEWLINE);
    out.end();
    await finished(out);
    await keepPartialFile(temporary, path);
  } catch (error) {
    await discardPartialFile(temporary, out);
    throw error;
  }
}

/** Writes then renames, so a failure never leaves half a PDF under the chosen name. */
export async function savePdfFile(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = partialPathOf(path);
  try {
    await writeFile(temporary, bytes);
    await keepPartialFile(temporary, path);
  } catch (error) {
    await discardPartialFile(temporary);
    throw error;
  }
}

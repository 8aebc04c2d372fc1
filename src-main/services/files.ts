import { createReadStream, createWriteStream } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import Papa from 'papaparse';
import type { CsvReadResult } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

function assertCsvName(fileName: string): void {
  if (!/\.csv$/i.test(fileName)) throw new Error(MESSAGES.csvOnly);
}

/** Reads the whole input: encoding detection needs every byte (a lone é may come late in a Windows file). */
async function collect(input: Uint8Array | NodeJS.ReadableStream): Promise<Buffer> {
  if (input instanceof Uint8Array) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const chunks: Buffer[] = [];
  for await (const chunk of input as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** UTF-8 with BOM, valid UTF-8, or else Windows-1252 (French Excel exports). */
function decode(bytes: Buffer): { text: string; encoding: CsvReadResult['encoding'] } {
  if (UTF8_BOM.every((byte, i) => bytes[i] === byte)) return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** `;` (French Excel) or `,`, whichever the header line uses more outside quotes. */
function detectDelimiter(text: string): ';' | ',' {
  const firstLine = text.split(/\r?\n/, 1)[0].replace(/"[^"]*"/g, '');
  const semicolons = firstLine.split(';').length - 1;
  const commas = firstLine.split(',').length - 1;
  return semicolons >= commas && semicolons > 0 ? ';' : commas > 0 ? ',' : ';';
}

/** Parses CSV bytes or a stream; papaparse consumes the decoded text as a stream, row by row. */
export async function parseCsv(input: Uint8Array | NodeJS.ReadableStream, fileName: string): Promise<CsvReadResult> {
  assertCsvName(fileName);
  const bytes = await collect(input);
  // Text never holds NUL bytes: this is a binary file (or UTF-16) renamed .csv.
  if (bytes.includes(0)) throw new Error(MESSAGES.csvUnreadable);
  const { text, encoding } = decode(bytes);
  const delimiter = detectDelimiter(text);
  const rows: Record<string, string>[] = [];
  let columns: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
      header: true,
      delimiter,
      skipEmptyLines: 'greedy',
      transformHeader: (header: string) => header.trim(),
    }) as unknown as NodeJS.ReadWriteStream;
    parser.on('data', (row: Record<string, string>) => rows.push(row));
    parser.on('end', () => resolve());
    parser.on('error', () => reject(new Error(MESSAGES.csvUnreadable)));
    Readable.from([text]).pipe(parser);
  });
  if (rows.length) columns = Object.keys(rows[0]);
  else columns = text.split(/\r?\n/, 1)[0].split(delimiter).map((c) => c.trim().replace(/^"|"$/g, '')).filter(Boolean);
  if (!columns.length) throw new Error(MESSAGES.csvUnreadable);
  return { fileName: basename(fileName), columns, rows, encoding, delimiter };
}

export async function readCsvFile(path: string): Promise<CsvReadResult> {
  assertCsvName(path);
  return parseCsv(createReadStream(path), path);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}

/** `;`-separated with a UTF-8 BOM, as French Excel opens it. */
export function toCsv(rows: Record<string, unknown>[], columns?: string[]): string {
  const header = columns ?? Object.keys(rows[0] ?? {});
  return '\uFEFF' + Papa.unparse({ fields: header, data: rows.map((row) => header.map((c) => cell(row[c]))) }, { delimiter: ';', newline: '\r\n' });
}

/** Streams rows to disk in chunks: an export of a million rows never sits whole in memory. */
export async function writeCsvFile(
  path: string,
  rows: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>,
  columns: string[],
): Promise<void> {
  const temporary = `${path}.${process.pid}.partial`;
  const out = createWriteStream(temporary, { encoding: 'utf8' });
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
  try {
    await write('\uFEFF' + Papa.unparse([columns], { delimiter: ';', newline: '\r\n' }) + '\r\n');
    let batch: string[][] = [];
    for await (const row of rows as AsyncIterable<Record<string, unknown>>) {
      batch.push(columns.map((c) => cell(row[c])));
      if (batch.length === 5000) {
        await write(Papa.unparse(batch, { delimiter: ';', newline: '\r\n' }) + '\r\n');
        batch = [];
      }
    }
    if (batch.length) await write(Papa.unparse(batch, { delimiter: ';', newline: '\r\n' }) + '\r\n');
    out.end();
    await finished(out);
    await rename(temporary, path);
  } catch (error) {
    out.destroy();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Writes then renames, so a failure never leaves half a PDF under the chosen name. */
export async function savePdfFile(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.partial`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

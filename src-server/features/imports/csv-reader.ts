import { TextDecoder } from 'node:util';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import Papa from 'papaparse';
import { IMPORT_MESSAGES } from '@shared/messages/imports';
import { detectSeparator } from '@shared/rules/imports';
import { HttpError } from '../../errors';

export type CsvEncoding = 'utf-8' | 'windows-1252';

/** What reading a file found: its headers, encoding and separator (rows go to the callback). */
export interface CsvShape {
  headers: string[];
  encoding: CsvEncoding;
  separator: ';' | ',';
}

/** Thrown by a row callback to stop reading (the preview has its page). */
class StopReading extends Error {}
export const stopReading = (): never => {
  throw new StopReading();
};

/**
 * The encoding of a file from its first bytes: a UTF-8 BOM, or bytes that read as UTF-8, say UTF-8; otherwise
 * Windows-1252 (what Excel writes in France). A character cut at the end of the sample is not held against it.
 */
function detectEncoding(sample: Uint8Array): CsvEncoding {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf-8';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/**
 * A row of blanks only (papaparse's 'greedy' skipping joins every row to find them: a tenth of the parse time; a
 * row whose first cell holds text is answered at once).
 */
const isBlank = (cells: readonly string[]) => !cells[0]?.trim() && cells.every((cell) => !cell.trim());

/**
 * Reads a CSV stream row by row, never whole: decoded (UTF-8 with or without BOM, or Windows-1252), separated by
 * ';' or ',' (from the header line), parsed by papaparse. `onHeaders` gets the header line, `onRow` each data row
 * with its line (the header is line 1); either may be async (the file waits: back-pressure) or call stopReading().
 */
export async function readCsv(
  body: Readable,
  handlers: {
    onHeaders?: (shape: CsvShape) => void;
    onRow: (cells: string[], line: number) => void;
    /** Awaited between chunks of the file: the consumer writes what it gathered. */
    afterChunk?: () => Promise<void>;
  },
): Promise<CsvShape | null> {
  let decoder: TextDecoder | null = null;
  let shape: CsvShape | null = null;
  let pending = '';
  let parser: PassThrough | null = null;
  let parsed: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  let line = 0;
  let encoding: CsvEncoding = 'utf-8';

  const start = (firstLine: string) => {
    const separator = detectSeparator(firstLine);
    const text = new PassThrough({ decodeStrings: false, encoding: 'utf8' });
    parsed = new Promise<void>((resolve, reject) => {
      Papa.parse<string[]>(text as unknown as File, {
        header: false,
        delimiter: separator,
        skipEmptyLines: true,
        step: (result, papa) => {
          if (failure || isBlank(result.data)) return;
          line += 1;
          try {
            if (line === 1) {
              shape = { headers: result.data.map((header) => header.trim()), encoding, separator };
              handlers.onHeaders?.(shape);
            } else handlers.onRow(result.data, line);
          } catch (error) {
            failure = error;
            papa.abort();
          }
        },
        complete: () => resolve(),
        error: () => reject(new HttpError(400, IMPORT_MESSAGES.emptyFile)),
      });
    });
    return text;
  };
  const feed = async (text: string) => {
    if (!parser) {
      pending += text.charCodeAt(0) === 0xfeff && !pending ? text.slice(1) : text;
      const end = pending.search(/[\r\n]/);
      if (end < 0) return;
      parser = start(pending.slice(0, end));
      text = pending;
    }
    if (text && !parser.write(text)) await once(parser, 'drain');
  };

  try {
    for await (const chunk of body) {
      if (failure) break;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (!decoder) {
        encoding = detectEncoding(bytes.subarray(0, 65_536));
        decoder = new TextDecoder(encoding);
      }
      await feed(decoder.decode(bytes, { stream: true }));
      if (failure) break;
      await handlers.afterChunk?.();
    }
    if (!failure) {
      await feed(decoder?.decode() ?? '');
      const open = parser as PassThrough | null;
      if (open) open.end();
      else if (pending.trim()) (parser = start(pending)).end(pending);
      await parsed;
    }
  } finally {
    body.destroy();
    (parser as PassThrough | null)?.destroy();
  }
  if (failure && !(failure instanceof StopReading)) throw failure;
  return shape;
}

import Papa from 'papaparse';
import { isExists } from 'date-fns';
import { sql } from 'drizzle-orm';
import { VALIDATION_MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { ESTIMATE_ID_PATTERN } from '@shared/rules/projects';
import type { Database } from '../../db/client';
import { HttpError } from '../../errors';
import { rows, type Executor } from '../../db/rows';
import { foldForSearch } from '@shared/rules/fold';

/**
 * Quotes (estimates) come from the company's invoicing tool. One interface, two sources:
 * - the default, kept in the database and filled by importing the tool's quote export file (importEstimateCsv);
 * - an HTTP adapter for the tool's API when ESTIMATES_API_URL (and ESTIMATES_API_TOKEN) are set.
 */
export interface EstimateLine {
  label: string;
  quantity: number;
  /** Euros, without tax. */
  unitPrice: number;
}
export interface Estimate {
  id: string;
  clientName: string;
  /** Epoch seconds of the signature, when known. */
  signedAt: number | null;
  lines: EstimateLine[];
}
export interface EstimateSource {
  /** The quote, or null when the tool has none with this number. */
  find(id: string): Promise<Estimate | null>;
}

// ---- database source ------------------------------------------------------------------------------------------

export function databaseEstimateSource(db: Executor): EstimateSource {
  return {
    async find(id) {
      const [found] = await rows<{ id: string; clientName: string; signedAt: number | null; importId: number | null }>(
        db,
        sql`SELECT id, client_name AS "clientName", signed_at::float8 AS "signedAt", import_id AS "importId" FROM estimate_quotes WHERE id = ${id}`,
      );
      if (!found) return null;
      const { importId, ...quote } = found;
      // Its lines are those of the import it switched to (lines of another import are staged or replaced).
      const lines = await rows<EstimateLine>(
        db,
        sql`SELECT label, quantity::float8 AS quantity, unit_price::float8 AS "unitPrice" FROM estimate_lines
            WHERE quote_id = ${id} AND import_id IS NOT DISTINCT FROM ${importId} ORDER BY position, id`,
      );
      return { ...quote, lines };
    },
  };
}

/**
 * The invoicing tool's quote export: one row per quote line, ';' or ',' separated (detected), UTF-8 with or
 * without BOM, a header row naming the columns below (case and accents ignored; the English names are accepted).
 *
 * | column             | also accepted      | example              |
 * |--------------------|--------------------|----------------------|
 * | Numéro de devis    | quote_number, Devis| DEV-2026-0042        |
 * | Client             | client             | Laboratoires Sanofa  |
 * | Libellé            | label, line_label  | Post sponsorisé cardio |
 * | Quantité           | quantity           | 2                    |
 * | Prix unitaire HT   | unit_price, Prix unitaire | 4 500,00      |
 * | Date de signature  | signed_date        | 12/01/2026 or 2026-01-12 (empty: not signed) |
 *
 * Decimal commas and space thousands separators are read. Each quote of the file replaces its stored lines.
 * Quantities, unit prices and line totals must fit the tables' numeric(14, 2) (ESTIMATE_AMOUNT_MAX), dates must
 * exist in the calendar (1970 to 2099); one bad cell refuses the whole file, naming its line and column.
 */
export const ESTIMATE_CSV_COLUMNS = {
  quoteNumber: ['numero de devis', 'numero devis', 'devis', 'quote_number', 'quote number'],
  client: ['client', 'client_name'],
  label: ['libelle', 'label', 'line_label', 'line label', 'designation'],
  quantity: ['quantite', 'quantity', 'qte'],
  unitPrice: ['prix unitaire ht', 'prix unitaire', 'unit_price', 'unit price'],
  signedDate: ['date de signature', 'signed_date', 'signed date', 'date signature'],
} as const;
type EstimateColumn = keyof typeof ESTIMATE_CSV_COLUMNS;

/**
 * The largest amount the tables hold: quantity, unit price (estimate_lines) and the line's total, which becomes a
 * target's revenue (targets.revenue), are numeric(14, 2): 12 digits before the point, 2 after, rounded to cents.
 */
export const ESTIMATE_AMOUNT_MAX = 999_999_999_999.99;
/** Signature dates become targets' initial quotation dates, which the contract takes from 1970 to 2099. */
const FIRST_SIGNED_YEAR = 1970;
const LAST_SIGNED_YEAR = 2099;

const fold = (text: string) => foldForSearch(text.replace(/^\uFEFF/, '')).trim();

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** '4 500,00', '1200', '1e3' → number; anything else (empty included) → NaN. */
function parseDecimal(text: string): number {
  const cleaned = text.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  return DECIMAL.test(cleaned) ? Number(cleaned) : NaN;
}

/** What numeric(14, 2) stores: rounded to cents, at most 12 digits before the point. */
const fitsAmount = (value: number) => Math.abs(Math.round(value * 100) / 100) <= ESTIMATE_AMOUNT_MAX;

/**
 * DD/MM/YYYY or YYYY-MM-DD (a time after it ignored) → epoch seconds at midnight UTC; empty → null; a day that
 * does not exist in the calendar → 'invalid'; a year outside 1970–2099 → 'range'.
 */
function parseDay(text: string): number | null | 'invalid' | 'range' {
  const trimmed = text.trim();
  if (!trimmed) return null;
  let parts: [number, number, number] | undefined;
  let match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  if (match) parts = [Number(match[3]), Number(match[2]), Number(match[1])];
  match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]*(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(trimmed);
  if (match) parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!parts || !isExists(parts[0], parts[1] - 1, parts[2])) return 'invalid';
  if (parts[0] < FIRST_SIGNED_YEAR || parts[0] > LAST_SIGNED_YEAR) return 'range';
  return Date.UTC(parts[0], parts[1] - 1, parts[2]) / 1000;
}

/** Characters parsed between two yields to the event loop: a 5 MB file is parsed without holding other calls. */
const PARSE_CHUNK_CHARS = 64 * 1024;

/**
 * The text cut into pieces of about `size` characters, each ending at a line end outside a quoted field (an even
 * number of '"' before it: an escaped quote is two), so that each piece parses on its own.
 */
export function* csvPieces(text: string, size: number): Generator<string> {
  const quotesIn = (from: number, to: number) => {
    let count = 0;
    for (let at = text.indexOf('"', from); at !== -1 && at < to; at = text.indexOf('"', at + 1)) count += 1;
    return count;
  };
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    let quotes = quotesIn(start, end);
    while (end < text.length) {
      const lineEnd = text.indexOf('\n', end);
      if (lineEnd === -1) {
        end = text.length;
        break;
      }
      quotes += quotesIn(end, lineEnd);
      end = lineEnd + 1;
      if (quotes % 2 === 0) break;
    }
    yield text.slice(start, end);
    start = end;
  }
}
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads the export file into quotes; the first bad cell is a 400 naming its line and column
 * ('Fichier de devis invalide (ligne 7) — Quantité : 999 999 999 999,99 au plus (en valeur absolue)'). Parsed in
 * chunks, yielding between them, so that other calls are answered meanwhile.
 */
export async function parseEstimateCsv(text: string): Promise<Estimate[]> {
  const quotes = new Map<string, Estimate>();
  let index: Record<EstimateColumn, number> | undefined;
  let header: string[] = [];
  let dataRows = 0;

  const readHeader = (row: string[]) => {
    header = row.map((name) => name.replace(/^\uFEFF/, '').trim());
    const folded = row.map(fold);
    const found = {} as Record<EstimateColumn, number>;
    const missing: string[] = [];
    for (const [key, names] of Object.entries(ESTIMATE_CSV_COLUMNS) as [EstimateColumn, readonly string[]][]) {
      found[key] = folded.findIndex((name) => names.includes(name));
      if (found[key] === -1 && key !== 'signedDate') missing.push(names[0]);
    }
    if (missing.length) throw new HttpError(400, `${PROJECT_MESSAGES.estimateFileMissingColumns}${missing.join(', ')}`);
    return found;
  };

  const readRow = (row: string[], columns: Record<EstimateColumn, number>) => {
    dataRows += 1;
    const line = dataRows + 1;
    const cell = (key: EstimateColumn) => (columns[key] === -1 ? '' : (row[columns[key]] ?? '').trim());
    const fail = (key: EstimateColumn | 'lineTotal', reason: string): never => {
      const column = key === 'lineTotal' ? `${header[columns.quantity]} × ${header[columns.unitPrice]}` : header[columns[key]];
      throw new HttpError(400, PROJECT_MESSAGES.estimateRowInvalid(line, column, reason), {}, `${line}.${key}`);
    };
    const id = cell('quoteNumber');
    if (!ESTIMATE_ID_PATTERN.test(id)) fail('quoteNumber', PROJECT_MESSAGES.estimateQuoteNumberExpected);
    const label = cell('label');
    if (!label) fail('label', VALIDATION_MESSAGES.required);
    const quantity = parseDecimal(cell('quantity'));
    if (!Number.isFinite(quantity)) fail('quantity', PROJECT_MESSAGES.estimateNumberExpected);
    if (!fitsAmount(quantity)) fail('quantity', PROJECT_MESSAGES.estimateNumberTooLarge(ESTIMATE_AMOUNT_MAX));
    const unitPrice = parseDecimal(cell('unitPrice'));
    if (!Number.isFinite(unitPrice)) fail('unitPrice', PROJECT_MESSAGES.estimateNumberExpected);
    if (!fitsAmount(unitPrice)) fail('unitPrice', PROJECT_MESSAGES.estimateNumberTooLarge(ESTIMATE_AMOUNT_MAX));
    // The quote's project gets the line's total as a target's revenue, numeric(14, 2) as well.
    if (!fitsAmount(quantity * unitPrice)) fail('lineTotal', PROJECT_MESSAGES.estimateLineTotalTooLarge(ESTIMATE_AMOUNT_MAX));
    const signedAt = parseDay(cell('signedDate'));
    if (signedAt === 'invalid') fail('signedDate', PROJECT_MESSAGES.estimateDateInvalid);
    if (signedAt === 'range') fail('signedDate', PROJECT_MESSAGES.estimateDateOutOfRange(FIRST_SIGNED_YEAR, LAST_SIGNED_YEAR));
    let quote = quotes.get(id);
    if (!quote) {
      quote = { id, clientName: cell('client').slice(0, 200), signedAt: signedAt as number | null, lines: [] };
      quotes.set(id, quote);
    }
    quote.lines.push({ label: label.slice(0, 500), quantity, unitPrice });
  };

  // Papa's own chunking of a string (pause/resume in `chunk`) re-reads or drops rows: the file is cut here instead,
  // at line ends outside quoted fields, and each piece parsed with the first piece's delimiter and line end.
  let format: { delimiter: string; newline: Papa.ParseConfig['newline'] } | undefined;
  for (const piece of csvPieces(text.replace(/^\uFEFF/, ''), PARSE_CHUNK_CHARS)) {
    const parsed = Papa.parse<string[]>(piece, { skipEmptyLines: 'greedy', ...format });
    format ??= { delimiter: parsed.meta.delimiter, newline: parsed.meta.linebreak as Papa.ParseConfig['newline'] };
    for (const row of parsed.data) {
      if (!index) index = readHeader(row);
      else readRow(row, index);
    }
    await nextTurn();
  }
  if (!index) throw new HttpError(400, PROJECT_MESSAGES.estimateFileInvalid);
  return [...quotes.values()];
}

/** Lines written by one statement, each statement its own short transaction (a few ms on PGlite). */
const LINES_PER_BATCH = 500;
/** Quotes whose replaced lines one statement deletes. */
const QUOTES_PER_CLEANUP = 100;
/** An import that has not switched over after this long is abandoned (the process stopped): its lines may go. */
const ABANDONED_AFTER = sql`interval '1 day'`;

/** Deletes, a few quotes at a time, lines of these quotes that no quote uses any more (never those of an import still writing). */
async function deleteReplacedLines(db: Database, quoteIds: string[]): Promise<void> {
  for (let start = 0; start < quoteIds.length; start += QUOTES_PER_CLEANUP) {
    const ids = JSON.stringify(quoteIds.slice(start, start + QUOTES_PER_CLEANUP));
    await db.execute(sql`DELETE FROM estimate_lines l
      WHERE l.quote_id IN (SELECT json_array_elements_text(${ids}::json))
        AND l.import_id IS DISTINCT FROM (SELECT q.import_id FROM estimate_quotes q WHERE q.id = l.quote_id)
        AND (l.import_id IS NULL OR l.import_id IN (SELECT i.id FROM estimate_imports i WHERE i.switched_at IS NOT NULL OR i.started_at < now() - ${ABANDONED_AFTER}))`);
    await nextTurn();
  }
}

/**
 * Stores the file's quotes in the default source, each replacing its previous lines. All or nothing: the whole
 * file is read and checked first (a bad cell is a 400 and nothing is written); the lines are then written in short
 * batches under a new import id, where no reader sees them, and the file's quotes switch over to them in one short
 * statement. Between two statements other calls run: PGlite has a single connection, and one transaction for a
 * 5 MB file held every other call for seconds. If writing fails, the lines written so far are deleted and the
 * quotes keep their previous lines.
 */
export async function importEstimateCsv(db: Database, text: string): Promise<{ quotes: number; lines: number }> {
  const quotes = await parseEstimateCsv(text);
  const lines = quotes.reduce((sum, quote) => sum + quote.lines.length, 0);
  const [{ id: importId }] = await rows<{ id: number }>(db, sql`INSERT INTO estimate_imports DEFAULT VALUES RETURNING id`);
  const quoteIds = quotes.map((quote) => quote.id);
  try {
    let batch: { q: string; p: number; l: string; n: number; u: number }[] = [];
    const flush = async () => {
      await db.execute(sql`INSERT INTO estimate_lines (quote_id, import_id, position, label, quantity, unit_price)
        SELECT r.q, ${importId}, r.p, r.l, r.n, r.u FROM json_to_recordset(${JSON.stringify(batch)}::json) AS r(q text, p int, l text, n numeric, u numeric)`);
      batch = [];
      await nextTurn();
    };
    for (const quote of quotes) {
      for (const [position, line] of quote.lines.entries()) {
        batch.push({ q: quote.id, p: position, l: line.label, n: line.quantity, u: line.unitPrice });
        if (batch.length === LINES_PER_BATCH) await flush();
      }
    }
    if (batch.length) await flush();
    const headers = JSON.stringify(quotes.map((quote) => ({ id: quote.id, c: quote.clientName, s: quote.signedAt })));
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO estimate_quotes (id, client_name, signed_at, import_id)
          SELECT r.id, r.c, r.s, ${importId} FROM json_to_recordset(${headers}::json) AS r(id text, c text, s bigint)
        ON CONFLICT (id) DO UPDATE SET client_name = EXCLUDED.client_name, signed_at = EXCLUDED.signed_at, import_id = EXCLUDED.import_id, imported_at = now()`);
      await tx.execute(sql`UPDATE estimate_imports SET switched_at = now() WHERE id = ${importId}`);
    });
  } catch (error) {
    await abandonImport(db, importId, quoteIds).catch(() => undefined);
    throw error;
  }
  await deleteReplacedLines(db, quoteIds);
  return { quotes: quotes.length, lines };
}

/** An import that failed while writing: its lines go, a few quotes at a time, then the import itself. */
async function abandonImport(db: Database, importId: number, quoteIds: string[]): Promise<void> {
  for (let start = 0; start < quoteIds.length; start += QUOTES_PER_CLEANUP) {
    const ids = JSON.stringify(quoteIds.slice(start, start + QUOTES_PER_CLEANUP));
    await db.execute(sql`DELETE FROM estimate_lines WHERE import_id = ${importId} AND quote_id IN (SELECT json_array_elements_text(${ids}::json))`);
    await nextTurn();
  }
  await db.execute(sql`DELETE FROM estimate_imports WHERE id = ${importId} AND switched_at IS NULL`);
}

// ---- HTTP source ----------------------------------------------------------------------------------------------

/**
 * The invoicing tool's API: GET {ESTIMATES_API_URL}/quotes/{id} with `Authorization: Bearer {ESTIMATES_API_TOKEN}`
 * and `Accept: application/json`. 404 means no such quote. Expected JSON (extra fields ignored):
 *
 * ```json
 * { "id": "DEV-2026-0042", "client": "Laboratoires Sanofa", "signedAt": "2026-01-12",
 *   "lines": [ { "label": "Post sponsorisé cardio", "quantity": 2, "unitPrice": 4500 } ] }
 * ```
 * `signedAt` is an ISO date (or null); `unitPrice` euros without tax. Any other answer, or none within 10 s, is
 * a 502 'L'outil de facturation ne répond pas'.
 */
export function httpEstimateSource(options: { url: string; token?: string; timeoutMs?: number }): EstimateSource {
  const base = options.url.replace(/\/+$/, '');
  return {
    async find(id) {
      let response: Response;
      try {
        response = await fetch(`${base}/quotes/${encodeURIComponent(id)}`, {
          headers: { accept: 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch {
        throw new HttpError(502, PROJECT_MESSAGES.estimateSourceFailed);
      }
      if (response.status === 404) return null;
      if (!response.ok) throw new HttpError(502, PROJECT_MESSAGES.estimateSourceFailed);
      const body = (await response.json().catch(() => null)) as {
        id?: unknown;
        client?: unknown;
        signedAt?: unknown;
        lines?: { label?: unknown; quantity?: unknown; unitPrice?: unknown }[];
      } | null;
      if (!body || typeof body.client !== 'string' || !Array.isArray(body.lines)) throw new HttpError(502, PROJECT_MESSAGES.estimateSourceFailed);
      const lines = body.lines.map((line) => ({
        label: String(line.label ?? '').slice(0, 500),
        quantity: Number(line.quantity),
        unitPrice: Number(line.unitPrice),
      }));
      if (lines.some((line) => !line.label || !Number.isFinite(line.quantity) || !Number.isFinite(line.unitPrice))) {
        throw new HttpError(502, PROJECT_MESSAGES.estimateSourceFailed);
      }
      const signed = typeof body.signedAt === 'string' ? Date.parse(body.signedAt) : NaN;
      return { id, clientName: body.client.slice(0, 200), signedAt: Number.isFinite(signed) ? Math.floor(signed / 1000) : null, lines };
    },
  };
}

/** The HTTP adapter when ESTIMATES_API_URL is set, else the database source. */
export function estimateSourceFromEnvironment(db: Database, env: NodeJS.ProcessEnv = process.env): EstimateSource {
  const url = env.ESTIMATES_API_URL?.trim();
  return url ? httpEstimateSource({ url, token: env.ESTIMATES_API_TOKEN?.trim() || undefined }) : databaseEstimateSource(db);
}

import Papa from 'papaparse';
import { sql } from 'drizzle-orm';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { ESTIMATE_ID_PATTERN } from '@shared/rules/projects';
import type { Database } from '../../db/client';
import { HttpError } from '../../errors';
import { rows, type Executor } from './queries';

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
      const [quote] = await rows<{ id: string; clientName: string; signedAt: number | null }>(
        db,
        sql`SELECT id, client_name AS "clientName", signed_at::float8 AS "signedAt" FROM estimate_quotes WHERE id = ${id}`,
      );
      if (!quote) return null;
      const lines = await rows<EstimateLine>(
        db,
        sql`SELECT label, quantity::float8 AS quantity, unit_price::float8 AS "unitPrice" FROM estimate_lines WHERE quote_id = ${id} ORDER BY position, id`,
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
 */
export const ESTIMATE_CSV_COLUMNS = {
  quoteNumber: ['numero de devis', 'numero devis', 'devis', 'quote_number', 'quote number'],
  client: ['client', 'client_name'],
  label: ['libelle', 'label', 'line_label', 'line label', 'designation'],
  quantity: ['quantite', 'quantity', 'qte'],
  unitPrice: ['prix unitaire ht', 'prix unitaire', 'unit_price', 'unit price'],
  signedDate: ['date de signature', 'signed_date', 'signed date', 'date signature'],
} as const;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();

function parseDecimal(text: string): number {
  const cleaned = text.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  return cleaned === '' ? NaN : Number(cleaned);
}

/** DD/MM/YYYY or YYYY-MM-DD → epoch seconds at midnight UTC; empty → null; anything else → NaN. */
function parseDay(text: string): number | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  let match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  if (match) return Date.UTC(Number(match[3]), Number(match[2]) - 1, Number(match[1])) / 1000;
  match = /^(\d{4})-(\d{2})-(\d{2})/.exec(trimmed);
  if (match) return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 1000;
  return NaN;
}

/** Reads the export file into quotes; a bad row is a 400 naming its line. */
export function parseEstimateCsv(text: string): Estimate[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header, ...data] = parsed.data;
  if (!header) throw new HttpError(400, PROJECT_MESSAGES.estimateFileInvalid);
  const folded = header.map(fold);
  const index = {} as Record<keyof typeof ESTIMATE_CSV_COLUMNS, number>;
  const missing: string[] = [];
  for (const [key, names] of Object.entries(ESTIMATE_CSV_COLUMNS) as [keyof typeof ESTIMATE_CSV_COLUMNS, readonly string[]][]) {
    index[key] = folded.findIndex((name) => names.includes(name));
    if (index[key] === -1 && key !== 'signedDate') missing.push(names[0]);
  }
  if (missing.length) throw new HttpError(400, `${PROJECT_MESSAGES.estimateFileMissingColumns}${missing.join(', ')}`);
  const quotes = new Map<string, Estimate>();
  data.forEach((row, rowIndex) => {
    const line = rowIndex + 2;
    const cell = (key: keyof typeof ESTIMATE_CSV_COLUMNS) => (index[key] === -1 ? '' : (row[index[key]] ?? '').trim());
    const id = cell('quoteNumber');
    const quantity = parseDecimal(cell('quantity'));
    const unitPrice = parseDecimal(cell('unitPrice'));
    const signedAt = parseDay(cell('signedDate'));
    const label = cell('label');
    if (!ESTIMATE_ID_PATTERN.test(id) || !label || !Number.isFinite(quantity) || !Number.isFinite(unitPrice) || Number.isNaN(signedAt)) {
      throw new HttpError(400, `${PROJECT_MESSAGES.estimateFileInvalid} (ligne ${line})`);
    }
    const quote = quotes.get(id) ?? { id, clientName: cell('client'), signedAt, lines: [] };
    quote.lines.push({ label: label.slice(0, 500), quantity, unitPrice });
    quotes.set(id, quote);
  });
  return [...quotes.values()];
}

/** Stores the file's quotes in the default source, each replacing its previous lines. */
export async function importEstimateCsv(db: Database, text: string): Promise<{ quotes: number; lines: number }> {
  const quotes = parseEstimateCsv(text);
  let lines = 0;
  await db.transaction(async (tx) => {
    for (const quote of quotes) {
      await tx.execute(sql`INSERT INTO estimate_quotes (id, client_name, signed_at) VALUES (${quote.id}, ${quote.clientName}, ${quote.signedAt})
        ON CONFLICT (id) DO UPDATE SET client_name = EXCLUDED.client_name, signed_at = EXCLUDED.signed_at, imported_at = now()`);
      await tx.execute(sql`DELETE FROM estimate_lines WHERE quote_id = ${quote.id}`);
      const values = quote.lines.map((line, position) => sql`(${quote.id}, ${position}, ${line.label}, ${line.quantity}, ${line.unitPrice})`);
      for (let start = 0; start < values.length; start += 1000) {
        await tx.execute(sql`INSERT INTO estimate_lines (quote_id, position, label, quantity, unit_price) VALUES ${sql.join(values.slice(start, start + 1000), sql`, `)}`);
      }
      lines += quote.lines.length;
    }
  });
  return { quotes: quotes.length, lines };
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
      const lines = body.lines.map((line) => ({ label: String(line.label ?? '').slice(0, 500), quantity: Number(line.quantity), unitPrice: Number(line.unitPrice) }));
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

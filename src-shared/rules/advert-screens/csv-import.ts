import { contentFieldLabel } from '../../messages/content-fields';
import { ADVERT_TYPES } from './content-types';

/** CSV import values (adverts-articles.md §5 "Other rules"). Times are epoch seconds (spec §3). */

/** Booleans accept true, yes, 1 and false, no, 0 (any case); anything else is null. */
export function parseCsvBoolean(raw: string | null | undefined): boolean | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (['true', 'yes', '1'].includes(value)) return true;
  if (['false', 'no', '0'].includes(value)) return false;
  return null;
}

/** weight and maxViews are integers; anything else is null. */
export function parseCsvInteger(raw: string | null | undefined): number | null {
  const value = (raw ?? '').trim();
  return /^[-+]?\d{1,15}$/.test(value) ? Number(value) : null;
}

/** Dates: epoch seconds as digits, or a date string the platform parses; invalid gives null. Answers epoch seconds. */
export function parseCsvDate(raw: string | null | undefined): number | null {
  const value = (raw ?? '').trim();
  if (!value) return null;
  if (/^\d{1,12}$/.test(value)) return Number(value);
  // DD/MM/yyyy (the product's display format, platform.md §9), optionally with HH:mm.
  const french = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2}))?$/.exec(value);
  if (french) {
    const [, day, month, year, hours, minutes] = french.map(Number);
    const date = new Date(year, month - 1, day, hours || 0, minutes || 0);
    if (date.getMonth() !== month - 1 || date.getDate() !== day) return null;
    return Math.floor(date.getTime() / 1000);
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : Math.floor(parsed / 1000);
}

export const CSV_BOOLEAN_FIELDS = ['published', 'archived', 'isFree', 'promoteInSearch', 'showReadMore', 'isInCatalog'] as const;
export const CSV_INTEGER_FIELDS = ['id', 'weight', 'maxViews'] as const;
export const CSV_DATE_FIELDS = ['autoStartAt', 'autoStopAt'] as const;
export const CSV_TEXT_FIELDS = [
  'name',
  'type',
  'title',
  'subtitle',
  'author',
  'source',
  'tagline',
  'description',
  'footNote',
  'buttonLabel',
  'sonataId',
  'pixelTrackingUrl',
] as const;

export type CsvAdvertRow = Partial<Record<(typeof CSV_BOOLEAN_FIELDS)[number], boolean>> &
  Partial<Record<(typeof CSV_INTEGER_FIELDS)[number], number>> &
  Partial<Record<(typeof CSV_DATE_FIELDS)[number], number>> &
  Partial<Record<(typeof CSV_TEXT_FIELDS)[number], string>>;

/** Rows of one CSV import of adverts: imported in one transaction, whole or not at all. */
export const ADVERT_IMPORT_MAX_ROWS = 5000;

/**
 * One CSV row as advert fields: known columns parsed by their kind, blank cells left out, other columns ignored.
 * A value that does not parse is an error of the row (the spec's "invalid gives null" would silently erase it),
 * named by the editor's label of its field (docs/content.md, field labels), never by its column key.
 */
export function parseAdvertCsvRow(row: Record<string, string>): { value: CsvAdvertRow; errors: string[] } {
  const value: Record<string, unknown> = {};
  const errors: string[] = [];
  const cell = (column: string) => (row[column] ?? '').trim();
  for (const field of CSV_BOOLEAN_FIELDS) {
    if (!cell(field)) continue;
    const parsed = parseCsvBoolean(cell(field));
    if (parsed === null) errors.push(`${contentFieldLabel(field)} : booléen attendu (true/yes/1, false/no/0)`);
    else value[field] = parsed;
  }
  for (const field of CSV_INTEGER_FIELDS) {
    if (!cell(field)) continue;
    const parsed = parseCsvInteger(cell(field));
    if (parsed === null) errors.push(`${contentFieldLabel(field)} : nombre entier attendu`);
    else value[field] = parsed;
  }
  for (const field of CSV_DATE_FIELDS) {
    if (!cell(field)) continue;
    const parsed = parseCsvDate(cell(field));
    if (parsed === null) errors.push(`${contentFieldLabel(field)} : date invalide`);
    else value[field] = parsed;
  }
  for (const field of CSV_TEXT_FIELDS) if (cell(field)) value[field] = cell(field);
  if (value.type !== undefined && !(ADVERT_TYPES as readonly string[]).includes(value.type as string))
    errors.push(`${contentFieldLabel('type')} : inconnu (${value.type})`);
  return { value: value as CsvAdvertRow, errors };
}

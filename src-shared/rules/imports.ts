/**
 * The CSV list import (audiences-projects-tools.md §2 "CSV list import", §3 "CSV import data", §9; docs/imports.md):
 * which user fields a column may fill, how a mapping is checked and how each cell is read. Pure: the server checks
 * every row with it, the screen uses the same lists and texts.
 */
import { IMPORT_MESSAGES as M } from '../messages/imports';
import { PROFESSIONS, SPECIALTIES, type ReferenceItem } from '../reference';
import { AREAS, OPERATING_SYSTEMS, TITLES } from './audiences';
import { foldForSearch } from './fold';

/**
 * Where the uploaded CSV files live in the storage: outside assets/ (nothing under imports/ is ever served by
 * /cdn/, and the storage browser does not show it): the files hold health professionals' e-mails.
 */
export const CSV_ROOT = 'imports/csv';

/** Whether a storage key is in the imports area, as a case-insensitive file system would read it (`IMPORTS./x`). */
export function isImportsKey(key: string): boolean {
  const first = key
    .split('/')[0]
    .toLowerCase()
    .split(':')[0]
    .replace(/[. ]+$/, '');
  return first === CSV_ROOT.split('/')[0];
}
/** Largest CSV file (about 2 million rows of a dozen columns); main refuses a bigger one before sending it. */
export const CSV_MAX_BYTES = 400 * 1024 * 1024;
export const CSV_FORMATS = ['csv'] as const;
/** The kind of the import jobs' events (server job events, useJobEvents on the /imports screen). */
export const IMPORT_JOB_KIND = 'csv-import';
/** Spec §9: the preview shows 25 rows per page. */
export const CSV_PREVIEW_PAGE_SIZE = 25;
/** Largest page of GET /csv/data. */
export const CSV_DATA_MAX_ROWS = 200;
/** The errors a failed import lists (the count says how many there were in all). */
export const MAX_LISTED_ERRORS = 1000;

/** The population's user fields an import may fill (availableFields360), in the order the screen offers them. */
export const IMPORT_FIELDS = [
  'externalId',
  'email',
  'name',
  'profession',
  'specialty',
  'title',
  'area',
  'country',
  'zipcode',
  'uga',
  'workplace',
  'os',
  'roles',
  'feeds',
  'apps',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Countries of the population (spec §9: France 72, Spain 722), by id and by their names. */
export const IMPORT_COUNTRIES: readonly (ReferenceItem & { aliases: readonly string[] })[] = [
  { id: 72, name: 'France', aliases: ['france', 'fr'] },
  { id: 722, name: 'Espagne', aliases: ['espagne', 'spain', 'es', 'españa'] },
];

/** One header of the file and the field it fills (null: the column is left out). */
export interface MappingEntry {
  header: string;
  field: ImportField | null;
}

/** A user as one valid row gives it: undefined where the row's cell was empty or the column not mapped. */
export interface ImportedUser {
  externalId?: string;
  email?: string;
  name?: string;
  professionId?: number;
  specialtyId?: number;
  title?: string;
  area?: string;
  countryId?: number;
  zipcode?: string;
  uga?: string;
  workplace?: string;
  os?: string;
  roles?: string[];
  feeds?: string[];
  apps?: string[];
}

/** A refused cell: the file's line (1 = the header line) and the column's header. */
export interface ImportError {
  line: number;
  column: string;
  message: string;
}

/** The mapping as the rows are read: the column index of each mapped field. */
export type ImportPlan = readonly { index: number; header: string; field: ImportField }[];

/** Checks a mapping against the file's headers; answers the plan, or the French reason it cannot run. */
export function planMapping(
  headers: readonly string[],
  mapping: readonly MappingEntry[],
): { ok: true; plan: ImportPlan } | { ok: false; message: string } {
  const plan: { index: number; header: string; field: ImportField }[] = [];
  const used = new Set<ImportField>();
  for (const entry of mapping) {
    const index = headers.indexOf(entry.header);
    if (index < 0) return { ok: false, message: M.unknownHeader(entry.header) };
    if (entry.field === null) continue;
    if (used.has(entry.field)) return { ok: false, message: M.fieldTwice(entry.field) };
    used.add(entry.field);
    plan.push({ index, header: entry.header, field: entry.field });
  }
  if (!used.has('externalId') && !used.has('email')) return { ok: false, message: M.keyRequired };
  return { ok: true, plan };
}

/** Lower case, no accents, single spaces: how names are compared. */
export function foldName(text: string): string {
  return foldForSearch(text).replace(/\s+/g, ' ').trim();
}

/**
 * A whole number written plainly or the French way: '12', '1 234' (spaces or no-break spaces between thousands),
 * '12,0' or '12.0'. Null when it is not a whole number.
 */
export function readWholeNumber(text: string): number | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (!/^\d{1,9}([.,]0+)?$/.test(compact)) return null;
  return Number(compact.replace(/[.,]0+$/, ''));
}

const byName = (items: readonly ReferenceItem[]) => new Map(items.map((item) => [foldName(item.name), item.id]));
const professionIds = new Set(PROFESSIONS.map((item) => item.id));
const professionNames = byName(PROFESSIONS);
const specialtyIds = new Set(SPECIALTIES.map((item) => item.id));
const specialtyNames = byName(SPECIALTIES);
const countryIds = new Set(IMPORT_COUNTRIES.map((item) => item.id));
const countryNames = new Map(IMPORT_COUNTRIES.flatMap((item) => [item.name, ...item.aliases].map((name) => [foldName(name), item.id] as const)));
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A reference item by id (French or plain number) or by name (case and accents ignored). A file repeats a few
 * spellings on every row: each is read once (up to a bound) rather than folded again a million times.
 */
function referenceReader(ids: ReadonlySet<number>, names: ReadonlyMap<string, number>): (text: string) => number | null {
  const known = new Map<string, number | null>();
  return (text) => {
    let id = known.get(text);
    if (id !== undefined) return id;
    const number = readWholeNumber(text);
    id = number !== null ? (ids.has(number) ? number : null) : (names.get(foldName(text)) ?? null);
    if (known.size < 10_000) known.set(text, id);
    return id;
  };
}

function oneOf(allowed: readonly string[]): (text: string) => string | null {
  const byLower = new Map(allowed.map((value) => [value.toLowerCase(), value]));
  return (text) => byLower.get(text.toLowerCase()) ?? null;
}

/** A list cell: values separated by '|' or ',' (';' too when the file is separated by commas). */
function listOf(text: string, maxItems: number, maxLength: number): string[] | null {
  const values = [...new Set(text.split(/[|,;]/).map((value) => value.trim()))].filter(Boolean);
  if (values.length > maxItems || values.some((value) => value.length > maxLength)) return null;
  return values;
}

type Reader = (text: string) => { value: ImportedUser[keyof ImportedUser] } | { error: string };
/** A reader from a function answering the value or null, and the French message of a refused cell (built once). */
const reader =
  <T extends ImportedUser[keyof ImportedUser]>(read: (text: string) => T | null, error: string): Reader =>
  (text) => {
    const value = read(text);
    return value === null ? { error } : { value };
  };
const text = (max: number) => reader((value) => (value.length <= max ? value : null), M.tooLong(max));
/**
 * A postal code of the areas served (75011, 1000, 28013, SW1A 1AA): letters, digits, inner spaces and dashes, at
 * least one digit, a letter or digit at each end ('ABCDE' and '-1' are no postal code).
 */
const ZIPCODE = /^(?=.*\p{N})[\p{L}\p{N}](?:[\p{L}\p{N} -]{0,18}[\p{L}\p{N}])?$/u;

/** How each field reads its cell (already trimmed, never empty), and the key of ImportedUser it fills. */
const READERS: Record<ImportField, { key: keyof ImportedUser; read: Reader }> = {
  externalId: { key: 'externalId', read: text(200) },
  email: { key: 'email', read: reader((value) => (value.length <= 254 && EMAIL.test(value) ? value : null), M.invalidEmail) },
  name: { key: 'name', read: text(200) },
  profession: { key: 'professionId', read: reader(referenceReader(professionIds, professionNames), M.unknownProfession) },
  specialty: { key: 'specialtyId', read: reader(referenceReader(specialtyIds, specialtyNames), M.unknownSpecialty) },
  title: { key: 'title', read: reader(oneOf(TITLES), M.oneOf(TITLES)) },
  area: { key: 'area', read: reader(oneOf(AREAS), M.oneOf(AREAS)) },
  country: { key: 'countryId', read: reader(referenceReader(countryIds, countryNames), M.unknownCountry) },
  zipcode: { key: 'zipcode', read: reader((value) => (ZIPCODE.test(value) ? value : null), M.invalidZipcode) },
  uga: { key: 'uga', read: text(200) },
  workplace: { key: 'workplace', read: text(200) },
  os: { key: 'os', read: reader(oneOf(OPERATING_SYSTEMS), M.oneOf(OPERATING_SYSTEMS)) },
  roles: { key: 'roles', read: reader((value) => listOf(value, 20, 60), M.invalidList(20, 60)) },
  feeds: { key: 'feeds', read: reader((value) => listOf(value, 200, 200), M.invalidList(200, 200)) },
  apps: { key: 'apps', read: reader((value) => listOf(value, 200, 200), M.invalidList(200, 200)) },
};

/**
 * Reads one data row (`line`: its line in the file) by the plan: the user it gives, or every refused cell. A row
 * needs an externalId or an e-mail (an existing user is then found by it).
 */
export function readImportRow(cells: readonly string[], plan: ImportPlan, line: number): { user: ImportedUser } | { errors: ImportError[] } {
  const user: ImportedUser = {};
  let errors: ImportError[] | undefined;
  for (const { index, header, field } of plan) {
    const cell = (cells[index] ?? '').trim();
    if (!cell) continue;
    const reader = READERS[field];
    const result = reader.read(cell);
    if ('error' in result) (errors ??= []).push({ line, column: header, message: result.error });
    else (user as Record<string, unknown>)[reader.key] = result.value;
  }
  if (!errors && user.externalId === undefined && user.email === undefined) {
    const key = plan.find((entry) => entry.field === 'externalId') ?? plan.find((entry) => entry.field === 'email')!;
    return { errors: [{ line, column: key.header, message: M.keyMissing }] };
  }
  return errors ? { errors } : { user };
}

/** A guess of the field a header fills ('E-mail' → email, 'Spécialité' → specialty), for the first mapping shown. */
export function guessField(header: string): ImportField | null {
  const folded = foldName(header).replace(/[^a-z0-9]/g, '');
  const guesses: Record<string, ImportField> = {
    externalid: 'externalId',
    id: 'externalId',
    identifiant: 'externalId',
    idexterne: 'externalId',
    identifiantexterne: 'externalId',
    email: 'email',
    mail: 'email',
    emails: 'email',
    adresseemail: 'email',
    adressemail: 'email',
    courriel: 'email',
    name: 'name',
    nom: 'name',
    profession: 'profession',
    specialty: 'specialty',
    specialite: 'specialty',
    title: 'title',
    titre: 'title',
    area: 'area',
    langue: 'area',
    country: 'country',
    pays: 'country',
    zipcode: 'zipcode',
    codepostal: 'zipcode',
    cp: 'zipcode',
    uga: 'uga',
    workplace: 'workplace',
    lieudexercice: 'workplace',
    os: 'os',
    roles: 'roles',
    feeds: 'feeds',
    apps: 'apps',
  };
  return guesses[folded] ?? null;
}

/** The separator of a file from its header line: ';' or ',', whichever it has more of outside quotes. */
export function detectSeparator(headerLine: string): ';' | ',' {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === ';') semicolons += 1;
    else if (!quoted && char === ',') commas += 1;
  }
  return semicolons >= commas && semicolons > 0 ? ';' : ',';
}

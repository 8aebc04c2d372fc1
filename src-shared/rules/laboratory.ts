/**
 * Laboratory projects ("Alphonse", audiences-projects-tools.md §2, §3, §5, §9): the panel file's columns, the
 * fields a tag's query may name, the tag types and levels, and the base64 wire form of a tag's query and params.
 * Free of imports: the renderer, main and the server use it.
 */

/** Spec §9: a new project's specialty. */
export const DEFAULT_LAB_SPECIALTY_ID = 26;
/** Spec §9: tag types and levels, in the spec's order. */
export const TAG_TYPES = ['Environnement', 'Efficacité', 'Bon Usage'] as const;
export type TagType = (typeof TAG_TYPES)[number];
export const TAG_LEVELS = ['UNDERSTAND', 'CONVINCE', 'SURPRISE'] as const;

/** Spec §5: the columns a panel file must hold (more CRIT_nn columns are allowed). */
export const PANEL_REQUIRED_COLUMNS = ['NAME', 'SURNAME', 'GENDER', 'CRIT_01'] as const;
/** A criterion column: CRIT_01, CRIT_02, … CRIT_99. */
export const CRIT_COLUMN = /^CRIT_(\d{2})$/;
/** Columns that match a panel member to an app user of the population (the first one present wins per row). */
export const PANEL_MATCH_COLUMNS = { externalId: ['EXTERNALID', 'EXTERNAL_ID'], email: ['EMAIL', 'E-MAIL', 'MAIL'] } as const;
/** Largest panel file (100,000 rows are about 6 MB; a million rows fit). */
export const PANEL_MAX_FILE_BYTES = 200 * 1024 * 1024;
export const PANEL_MAX_ROWS = 1_000_000;
export const PANEL_FORMATS = ['csv'] as const;

/** Spec §5 and §9: the add-account search starts at 3 characters, 200 ms after the last key. */
export const LAB_ACCOUNT_SEARCH_MIN_LENGTH = 3;
export const LAB_ACCOUNT_SEARCH_DEBOUNCE_MS = 200;
/** The tag modal's live count waits this long after the last key. */
export const TAG_COUNT_DEBOUNCE_MS = 300;

/** A header as the panel rules read it: trimmed, upper case. */
export const panelHeader = (header: string) =>
  header
    .replace(/^\uFEFF/, '')
    .trim()
    .toUpperCase();

/** Spec §5: the required columns missing from a header row, in the spec's order. */
export function missingPanelColumns(headers: readonly string[]): string[] {
  const present = new Set(headers.map(panelHeader));
  return PANEL_REQUIRED_COLUMNS.filter((column) => !present.has(column));
}

/** The criterion columns of a header row, as numbers (CRIT_03 → 3), in order. */
export function critNumbers(headers: readonly string[]): number[] {
  const numbers = headers.map((header) => CRIT_COLUMN.exec(panelHeader(header))?.[1]).filter((n): n is string => n !== undefined);
  return [...new Set(numbers.map(Number))].filter((n) => n >= 1).sort((a, b) => a - b);
}

export const critField = (n: number) => `CRIT_${String(n).padStart(2, '0')}`;

/** The panel's own fields in a tag query (the file's columns). */
export const PANEL_FIELDS = ['NAME', 'SURNAME', 'GENDER'] as const;
/** The matched app user's fields in a tag query (ids for profession, specialty and country). */
export const APP_USER_FIELDS = ['profession', 'specialty', 'title', 'area', 'country', 'zipcode', 'uga', 'workplace'] as const;

/** Every field a tag query of a project with these criterion columns may name. */
export function tagQueryFields(crits: readonly number[]): string[] {
  return [...PANEL_FIELDS, ...crits.map(critField), ...APP_USER_FIELDS];
}

/** A tag's named parameters: `:name` → value (a list for `in`). */
export type TagParams = Record<string, string | number | (string | number)[]>;

/** UTF-8 text as base64 (spec §3: a tag's query and params are stored base64-encoded). */
export function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** base64 back to UTF-8 text; undefined when it is not base64 of UTF-8. */
export function fromBase64(encoded: string): string | undefined {
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const isParamValue = (value: unknown): value is string | number => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** A tag's params from their JSON text (an object of strings, numbers or lists of them); undefined when not. */
export function parseTagParams(text: string): TagParams | undefined {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const params: TagParams = {};
  for (const [name, item] of Object.entries(value)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
    if (Array.isArray(item) ? !item.every(isParamValue) : !isParamValue(item)) return undefined;
    params[name] = item as TagParams[string];
  }
  return params;
}

/** A tag not named yet, as the Stats chart and table show it. */
export const UNNAMED_TAG = 'Tag sans nom';

/**
 * Users per tag for the Stats chart (spec §2 'chart of users per tag'): one bar per tag, named by the tag, in the
 * series of its level (its colour); a tag's bar is null in the other levels' series, so each tag has one bar.
 */
export function tagStats(tags: readonly { name: string; type: string; level: string; usersCount: number }[]) {
  return {
    labels: tags.map((tag) => tag.name.trim() || UNNAMED_TAG),
    series: TAG_LEVELS.map((level) => tags.map((tag) => (tag.level === level ? tag.usersCount : null))),
  };
}

/**
 * The projects list (audiences-projects-tools.md §2 Projects list, §5, §6, §9): date-range filters, the default CSM
 * filter, page sizes and the create form's required fields. Pure, so the screen and the unit tests share them.
 */
import { estimateImporters, projectWriters } from '../access-rules';
import { isAllowed } from '../roles';
import { ESTIMATE_ID_PATTERN, MAX_PROJECT_LINES, PROJECT_FIRST_PAGE_SIZE, PROJECT_PAGE_SIZE } from './projects';

const SECONDS_PER_DAY = 86_400;

/** Autocomplete of the search box and the text filters starts from this many characters (spec §5). */
export const PROJECT_SEARCH_MIN_CHARACTERS = 2;
/** Spec §9: next page within 800 px of the bottom, scroll debounce 180 ms. */
export const PROJECT_LIST_LOAD_MARGIN_PX = 800;
export const PROJECT_LIST_SCROLL_DEBOUNCE_MS = 180;
/** Missing fields of the create form stay highlighted this long (spec §5). */
export const MISSING_FIELD_HIGHLIGHT_MS = 3_000;

export const DATE_RANGE_MESSAGES = {
  bothRequired: 'Les deux dates sont requises',
  fromAfterTo: 'La date de début ne peut pas dépasser la date de fin',
} as const;

/** A calendar day `YYYY-MM-DD` (a date input's value) as epoch seconds at 00:00 UTC; null when not a real day. */
export function dayToEpochSeconds(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const millis = Date.UTC(year, month - 1, date);
  const check = new Date(millis);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  return millis / 1000;
}

/** Epoch seconds as the `YYYY-MM-DD` of its UTC day (a date input's value). */
export function epochSecondsToDay(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export type DateRangeCheck = { ok: true; range: { from: number; to: number } } | { ok: false; error: string };

/**
 * A date-range filter (spec §5): both days are required and "from" cannot exceed "to". The range covers the
 * whole "to" day, so a target starting on that day matches.
 */
export function checkDateRange(fromDay: string, toDay: string): DateRangeCheck {
  const from = dayToEpochSeconds(fromDay);
  const to = dayToEpochSeconds(toDay);
  if (from === null || to === null) return { ok: false, error: DATE_RANGE_MESSAGES.bothRequired };
  if (from > to) return { ok: false, error: DATE_RANGE_MESSAGES.fromAfterTo };
  return { ok: true, range: { from, to: to + SECONDS_PER_DAY - 1 } };
}

/** Spec §6: the list's CSM filter starts on the current user when they are among the CSMs, else on none. */
export function defaultCsmFilter(userId: number | null | undefined, csms: readonly { id: number }[]): number[] | undefined {
  return userId != null && csms.some((csm) => csm.id === userId) ? [userId] : undefined;
}

/** Spec §9: the screen's first page holds 8 projects; every later load (next page or reset) 25. */
export function projectPageSize(firstLoadOfScreen: boolean): number {
  return firstLoadOfScreen ? PROJECT_FIRST_PAGE_SIZE : PROJECT_PAGE_SIZE;
}

/** Another page only when the last one was full (spec §9). */
export function hasMoreProjects(lastPageLength: number, lastPageLimit: number): boolean {
  return lastPageLength >= lastPageLimit;
}

export interface NewProjectForm {
  name: string;
  clientName: string;
  lines: string;
  actor: string;
  keyAccount: number | null;
}
export interface EstimateImportForm {
  estimateId: string;
  name: string;
  actor: string;
  keyAccount: number | null;
}

/** The fields left empty (spec §5: name, client, number of lines, actor and CSM are required; 1 to MAX_PROJECT_LINES lines). */
/** A new project's number of lines: a whole number from 1 to MAX_PROJECT_LINES. */
export const isProjectLineCount = (lines: string) => /^\d{1,4}$/.test(lines.trim()) && Number(lines) >= 1 && Number(lines) <= MAX_PROJECT_LINES;

export function missingProjectFields(form: NewProjectForm): (keyof NewProjectForm)[] {
  const missing: (keyof NewProjectForm)[] = [];
  if (!form.name.trim()) missing.push('name');
  if (!form.clientName.trim()) missing.push('clientName');
  if (!isProjectLineCount(form.lines)) missing.push('lines');
  if (!form.actor) missing.push('actor');
  if (form.keyAccount == null) missing.push('keyAccount');
  return missing;
}

/** The import form's empty fields (spec §5: estimate id, project name, actor and CSM). */
export function missingImportFields(form: EstimateImportForm): (keyof EstimateImportForm)[] {
  const missing: (keyof EstimateImportForm)[] = [];
  if (!isEstimateId(form.estimateId)) missing.push('estimateId');
  if (!form.name.trim()) missing.push('name');
  if (!form.actor) missing.push('actor');
  if (form.keyAccount == null) missing.push('keyAccount');
  return missing;
}

/** The import's Create button stays disabled without a quote id DEV-… (spec §5). */
export function isEstimateId(text: string): boolean {
  return ESTIMATE_ID_PATTERN.test(text.trim());
}

/** Spec §6: project writes (and so 'Nouveau projet') are for CSM and CSM_LEAD (ADMIN passes); SALES reads only. */
export function canWriteProjects(roles: readonly string[]): boolean {
  return isAllowed(projectWriters, roles);
}

/** The quote file import button: for those estimates.importFile lets in (ADMIN). */
export function canImportEstimates(roles: readonly string[]): boolean {
  return isAllowed(estimateImporters, roles);
}

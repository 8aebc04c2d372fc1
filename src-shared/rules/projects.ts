/**
 * Projects and targets (audiences-projects-tools.md §3, §4, §5, §9): statuses, types and their links, the goal's
 * input and its two readings, action codes, and the date / delay / revenue rules applied to a target change. The
 * server applies the same rules as the grid, so a change saved by any client ends the same.
 */
import { PROJECT_MESSAGES } from '../messages/projects';
import { formatDay } from './dates';
import { releaseDateDiff, revenueDelayImpact, SECONDS_PER_DAY, DELAY_THRESHOLD_DAYS } from './campaigns';
import { stripAccents } from './fold';

// ---- statuses ---------------------------------------------------------------------------------------------------

/** Spec §4, in order; the first is the default of a new target. No order is enforced between them. */
export const TARGET_STATUSES = [
  '1. offline - préparation',
  '2. en ligne',
  '3. stats à sortir',
  '3.1 Urgent - Stats à sortir',
  '3.2 stats intermédiaires',
  '4. feedback à préparer',
  '5. feedback prêt',
  '6. feedback réalisé',
  '7. annulé',
] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];
export const DEFAULT_TARGET_STATUS: TargetStatus = '1. offline - préparation';
export const CANCELLED_STATUS: TargetStatus = '7. annulé';
export const INTERMEDIATE_STATS_STATUS: TargetStatus = '3.2 stats intermédiaires';
/** What a cancelled target shows instead of its advert id. */
export const CANCELLED_LABEL = 'ANNULE';
/** The /targets list's default status filter (spec §2). */
export const DEFAULT_TARGET_LIST_STATUSES: TargetStatus[] = [
  '2. en ligne',
  '3. stats à sortir',
  '3.1 Urgent - Stats à sortir',
  '3.2 stats intermédiaires',
];

/** Position of a status in the spec's order (0-based): the sort key, since collations disagree on "3. " vs "3.1". */
export function statusRank(status: string): number {
  const index = (TARGET_STATUSES as readonly string[]).indexOf(status);
  return index === -1 ? TARGET_STATUSES.length : index;
}

/** The colour class of a status: status1..status7, with status31 and status32 for the two sub-statuses. */
export function statusClass(status: string): string {
  const match = /^(\d)(?:\.(\d))?[. ]/.exec(status);
  return match ? `status${match[1]}${match[2] ?? ''}` : '';
}

/** The feedback menu item: only with an advert or tool id, and a status from "3. stats à sortir" to "6. feedback réalisé". */
export function hasFeedbackMenu(target: { advertId: number | null; toolId: number | null; status: string }): boolean {
  const rank = statusRank(target.status);
  return (target.advertId != null || target.toolId != null) && rank >= statusRank('3. stats à sortir') && rank <= statusRank('6. feedback réalisé');
}

/** Project statuses: draft by default (spec §3); the others are not shown by the spec. */
export const PROJECT_STATUSES = ['draft', 'active', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const DEFAULT_PROJECT_STATUS: ProjectStatus = 'draft';
/**
 * The project list's default status filter. The spec gives ["active"] (§3) but also makes every new project a draft
 * with no control to change it, so a created or imported project would never be listed: the default shows drafts
 * too, and the filter bar's "Statut projet" shows any status, archived included.
 */
export const DEFAULT_PROJECT_LIST_STATUSES: ProjectStatus[] = ['draft', 'active'];
/** The project statuses as the filter bar and its chips show them. */
export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = { draft: 'Brouillon', active: 'Actif', archived: 'Archivé' };

// ---- types and links --------------------------------------------------------------------------------------------

export const TARGET_TYPES = [
  'post',
  'video',
  'quiz',
  'search',
  'story',
  'story video',
  'contenu additionel',
  'notification',
  'mise en avant',
  'nl hebdo',
  'référencement',
  'sondage',
  'emailling dédié',
  'medacademy',
  'conseil associé',
  'datas',
  'flash notif',
] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

const TOOL_TYPES: readonly string[] = ['mise en avant', 'référencement'];
const ADVERT_TYPES: readonly string[] = [
  'post',
  'video',
  'quiz',
  'story',
  'story video',
  'search',
  'contenu additionel',
  'notification',
  'sondage',
  'conseil associé',
  'flash notif',
];

/** What a target of this type links to: an advert, a tool index, or nothing. */
export function typeLink(type: string | null | undefined): 'advert' | 'tool' | null {
  if (!type) return null;
  if (TOOL_TYPES.includes(type)) return 'tool';
  if (ADVERT_TYPES.includes(type)) return 'advert';
  return null;
}

/** The advert type an action of `targetType` needs when `advertType` is not it (typed ids follow advertSearchType). */
export function advertTypeMismatch(targetType: string | null | undefined, advertType: string | null): string | null {
  if (!targetType || typeLink(targetType) !== 'advert') return null;
  const wanted = advertSearchType(targetType);
  return advertType === wanted ? null : wanted;
}

/** The advert type searched when attaching an advert to a target of this type ('Associer une publicité'). */
export function advertSearchType(type: string): string {
  switch (type) {
    case 'contenu additionel':
    case 'conseil associé':
      return 'search';
    case 'notification':
    case 'story video':
      return 'story';
    case 'sondage':
      return 'quiz';
    case 'flash notif':
      return 'notification';
    default:
      return type;
  }
}

/** Types in list order: "post" first, then the spec's order. */
export function compareTypes(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'post') return -1;
  if (b === 'post') return 1;
  return a.localeCompare(b, 'fr');
}

/** Actors (spec §9), "Laboratoire" first in the pickers. */
export const ACTORS = ['Laboratoire', 'Banques et assurances', 'DM', 'Santé animale', 'Start-up'] as const;

// ---- goal -------------------------------------------------------------------------------------------------------

export interface Goal {
  views: number;
  days: number;
  shipments: number;
}
export const EMPTY_GOAL: Goal = { views: 0, days: 0, shipments: 0 };
/** Goal input: 30 days a month; display: 30.4167 (spec §9). */
export const INPUT_DAYS_PER_MONTH = 30;
export const DISPLAY_DAYS_PER_MONTH = 30.4167;
/** What a bare number may mean, offered by the goal input. */
export const GOAL_UNIT_CHOICES = ['vues', 'jours', 'mois', 'envois'] as const;
export const NO_GOAL_TEXT = '--';

/**
 * The goal typed in a cell (spec §5): digits alone are views; a suffix j/jr/jour = days, m/mois/month = months
 * (×30 days), v/vue/view = views, e/envois/shipment = shipments (plural and case tolerated). Unrecognised text
 * gives a goal with no value; a bare "--" is not submitted (undefined).
 */
export function parseGoalInput(text: string): Goal | undefined {
  const trimmed = text.trim();
  if (trimmed === NO_GOAL_TEXT) return undefined;
  const read = readGoalNumber(trimmed);
  if (!read) return { ...EMPTY_GOAL };
  const { value, unit } = read;
  if (unit === 'months') return { ...EMPTY_GOAL, days: Math.round(value * INPUT_DAYS_PER_MONTH) };
  if (!Number.isInteger(value)) return { ...EMPTY_GOAL };
  if (unit === 'views') return { ...EMPTY_GOAL, views: value };
  if (unit === 'days') return { ...EMPTY_GOAL, days: value };
  return { ...EMPTY_GOAL, shipments: value };
}

const GOAL_UNITS: Record<string, 'views' | 'days' | 'months' | 'shipments'> = {
  ...Object.fromEntries(['', 'v', 'vue', 'vues', 'view', 'views'].map((unit) => [unit, 'views' as const])),
  ...Object.fromEntries(['j', 'jr', 'jrs', 'jour', 'jours'].map((unit) => [unit, 'days' as const])),
  ...Object.fromEntries(['m', 'mois', 'month', 'months'].map((unit) => [unit, 'months' as const])),
  ...Object.fromEntries(['e', 'envoi', 'envois', 'shipment', 'shipments'].map((unit) => [unit, 'shipments' as const])),
};

/**
 * The number and unit of a goal as typed or as the grid shows it ('12 500 vues', '1.5 mois', '1,5 mois', '15j'):
 * thousands separated by spaces (also non-breaking), a decimal comma or point; undefined when not a goal.
 */
export function readGoalNumber(text: string): { value: number; unit: 'views' | 'days' | 'months' | 'shipments' } | undefined {
  const match = /^(\d{1,3}(?:[\s\u00a0\u202f]\d{3})+|\d+)(?:[.,](\d+))?\s*([a-zA-Zéè]*)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = GOAL_UNITS[match[3].toLowerCase()];
  const value = Number(`${match[1].replace(/[\s\u00a0\u202f]/g, '')}${match[2] ? `.${match[2]}` : ''}`);
  if (!unit || !Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) return undefined;
  return { value, unit };
}

/** Keeps only the first non-zero of views, days, shipments: a goal has one value at most. */
export function normalizeGoal(goal: Partial<Goal> | null | undefined): Goal {
  const views = goal?.views ?? 0;
  const days = goal?.days ?? 0;
  const shipments = goal?.shipments ?? 0;
  if (views) return { views, days: 0, shipments: 0 };
  if (days) return { views: 0, days, shipments: 0 };
  return { views: 0, days: 0, shipments };
}

/**
 * Numbers with space thousands separators (spec §5): 12 500; a decimal comma, as French staff write them and as
 * every other number of the app (fr-FR) reads: 12,5.
 */
export function formatNumber(value: number): string {
  const [whole, decimals] = String(Math.abs(value)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${value < 0 ? '-' : ''}${grouped}${decimals ? `,${decimals}` : ''}`;
}

/** Amounts with two decimals and " €" (spec §5), one French convention everywhere: 12 500,50 €. */
export function formatAmount(value: number | null | undefined): string {
  if (value == null) return '';
  const [whole, decimals] = Math.abs(value).toFixed(2).split('.');
  return `${value < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')},${decimals} €`;
}

/** The grid's reading (spec §3): "{n} vues", "{n} envois", "{n} jours" under 30 days, else half-months "mois"; "--". */
export function formatGoal(goal: Partial<Goal> | null | undefined): string {
  const { views, days, shipments } = normalizeGoal(goal);
  if (views) return `${formatNumber(views)} vues`;
  if (shipments) return `${formatNumber(shipments)} envois`;
  if (days) {
    if (days < 30) return `${days} jours`;
    const months = Math.round((days / DISPLAY_DAYS_PER_MONTH) * 2) / 2;
    return `${months} mois`;
  }
  return NO_GOAL_TEXT;
}

// ---- action codes -----------------------------------------------------------------------------------------------

/** Letters and digits of a name, accents dropped: what an action code is made of. */
function codeLetters(text: string): string {
  return stripAccents(text).replace(/[^A-Za-z0-9]/g, '');
}

/**
 * The project's action code stem (spec §4 Project creation): first 3 letters of the client + first 4 of the
 * project name + two-digit year + "-1.", uppercased. Generated rows append their line number (…-1.1, …-1.2).
 */
export function actionCodeStem(clientName: string, projectName: string, year: number): string {
  const yy = String(year % 100).padStart(2, '0');
  return `${codeLetters(clientName).slice(0, 3)}${codeLetters(projectName).slice(0, 4)}${yy}-1.`.toUpperCase();
}

/** The action codes of the lines generated with a new project: stem + 1..n. */
export function generatedActionCodes(clientName: string, projectName: string, year: number, lines: number): string[] {
  const stem = actionCodeStem(clientName, projectName, year);
  return Array.from({ length: lines }, (_, index) => `${stem}${index + 1}`);
}

/**
 * The code of a target added alone (spec: ".A1"): stem + "A1", or the first "A{n}" not yet used in the project,
 * so that codes stay unique per project. (The original app wrote the year as a literal "21"; the year is real here.)
 */
export function singleTargetActionCode(clientName: string, projectName: string, year: number, existing: Iterable<string>): string {
  const stem = actionCodeStem(clientName, projectName, year);
  const taken = new Set(existing);
  for (let n = 1; ; n += 1) {
    const code = `${stem}A${n}`;
    if (!taken.has(code)) return code;
  }
}

// ---- date, delay and revenue rules -----------------------------------------------------------------------------

/** Default campaign length: end = start + 90 days (7,776,000 s) unless the type is notification. */
export const DEFAULT_DURATION_SECONDS = 90 * SECONDS_PER_DAY;
/** A target with only a start date lasts about one month on the timeline (2,629,743 s). */
export const START_ONLY_DURATION_SECONDS = 2_629_743;

/** The fields the date, delay and revenue rules read and write. */
export interface TimingFields {
  type: string | null;
  status: string;
  startDate: number | null;
  endDate: number | null;
  initialQuotationDate: number | null;
  revenue: number | null;
  releaseDateDiff: number | null;
  delayReason: string | null;
  revenueDelayImpact: number | null;
}

/**
 * A target's fields after a change (spec §4 "Date and delay rules", "Target status"): a new start date fills an
 * empty end date with start + 90 days (not for notifications); a change of start, end, initial quotation date or
 * revenue recomputes releaseDateDiff and, with a revenue, revenueDelayImpact; cancelling clears releaseDateDiff,
 * delayReason and revenueDelayImpact, and leaving the cancelled status computes them again. `needsDelayReason`: this
 * change moved a date, the delay is over 15 days and no reason is set (the grid then opens 'Raison du retard').
 */
export function applyTargetChange<T extends TimingFields>(previous: T, changes: Partial<T>): { next: T; needsDelayReason: boolean } {
  const next = { ...previous, ...changes };
  if ('startDate' in changes && next.startDate != null && next.type !== 'notification' && next.endDate == null) {
    next.endDate = next.startDate + DEFAULT_DURATION_SECONDS;
  }
  if (next.status === CANCELLED_STATUS) {
    if ('status' in changes && previous.status !== CANCELLED_STATUS) {
      next.releaseDateDiff = null;
      next.delayReason = null;
      next.revenueDelayImpact = null;
    }
    return { next, needsDelayReason: false };
  }
  // Leaving '7. annulé' gives back the delay and its impact, which the cancel cleared.
  const uncancelled = previous.status === CANCELLED_STATUS && 'status' in changes;
  const timingChanged = uncancelled || ['startDate', 'endDate', 'initialQuotationDate', 'revenue'].some((key) => key in changes);
  if (timingChanged && next.initialQuotationDate != null) {
    next.releaseDateDiff = releaseDateDiff(next.initialQuotationDate, next.startDate);
    if (next.revenue != null) {
      const impact = revenueDelayImpact({ revenue: next.revenue, delayDays: next.releaseDateDiff, startDate: next.startDate, endDate: next.endDate });
      next.revenueDelayImpact = impact == null ? null : Math.round(impact * 100) / 100;
    }
  }
  // Asked only when this change moves a date: a comment or a status edit on a late action does not ask again.
  const datesChanged = (['startDate', 'endDate', 'initialQuotationDate'] as const).some((key) => key in changes && changes[key] !== previous[key]);
  const needsDelayReason = datesChanged && next.releaseDateDiff != null && next.releaseDateDiff > DELAY_THRESHOLD_DAYS && next.delayReason == null;
  return { next, needsDelayReason };
}

/**
 * What a change of a target may not do (docs/projects.md, The grid), checked by the grid before saving and by the server:
 * an end before the start, a negative revenue. Dates are only compared when the change touches one of them.
 */
export function targetChangeError(
  previous: Pick<TimingFields, 'startDate' | 'endDate'>,
  changes: { startDate?: number | null; endDate?: number | null; revenue?: number | null },
): { field: 'startDate' | 'endDate' | 'revenue'; message: string } | undefined {
  if (changes.revenue != null && changes.revenue < 0) return { field: 'revenue', message: PROJECT_MESSAGES.negativeRevenue };
  if (!('startDate' in changes) && !('endDate' in changes)) return undefined;
  const start = changes.startDate !== undefined ? changes.startDate : previous.startDate;
  const end = changes.endDate !== undefined ? changes.endDate : previous.endDate;
  if (start == null || end == null || end >= start) return undefined;
  if ('endDate' in changes) return { field: 'endDate', message: PROJECT_MESSAGES.endBeforeStart(formatDay(start)) };
  return { field: 'startDate', message: PROJECT_MESSAGES.startAfterEnd(formatDay(end)) };
}

// ---- new advert from a target -----------------------------------------------------------------------------------

/**
 * The local-storage key where the target of an advert created from it waits (spec: "the target id is kept in local
 * storage first"): the projects page writes it, the advert editor opened on project-… reads it and sends it with
 * the first save.
 */
export const NEW_ADVERT_TARGET_KEY = 'targetId';

/** Where the renderer goes to create an advert from a target: /adverts/edit/project-{CLIENT - project name - action code}. */
export function newAdvertPath(target: { clientName: string; projectName: string; actionCode: string | null }): string {
  return `/adverts/edit/project-${encodeURIComponent(`${target.clientName.toUpperCase()} - ${target.projectName} - ${target.actionCode ?? ''}`)}`;
}

// ---- estimates --------------------------------------------------------------------------------------------------

/** A quote number of the invoicing tool: DEV-… (spec §5, the import form's Create needs it). */
export const ESTIMATE_ID_PATTERN = /^DEV-[A-Za-z0-9][A-Za-z0-9_-]{0,60}$/;

// ---- limits -----------------------------------------------------------------------------------------------------

/** The longest text of each typed text field of a target: the contract's limits, checked at the cell first. */
export const TARGET_TEXT_MAX = { actionCode: 60, populationCategory: 200, populationSample: 200, comment: 2000 } as const;
/** The largest amount (CA) in euros, either sign: the contract's limit, checked at the cell first. */
export const TARGET_AMOUNT_MAX = 1e11;

/** Spec §9: the project list's first page is 8, then 25; the targets list pages by 25; exports stop at 1,000,000. */
export const PROJECT_FIRST_PAGE_SIZE = 8;
export const PROJECT_PAGE_SIZE = 25;
export const TARGET_PAGE_SIZE = 25;
export const TARGET_EXPORT_MAX_ROWS = 1_000_000;
/** Lines of a project created at once (the create form's number of lines). */
export const MAX_PROJECT_LINES = 200;
/** The longest project name or client name (the contract's limit, said at the header's field before any call). */
export const PROJECT_HEADER_MAX = 200;
/** Targets changed by one batch call (a paste from a spreadsheet, its undo). */
export const MAX_TARGET_BATCH = 1000;
/**
 * The invoicing tool's quote export accepted by POST /estimates/import, in characters. A line of the export is
 * about 90 characters ('DEV-2026-0042;Laboratoires Sanofa;Post sponsorisé cardio;2;4 500,00;12/01/2026'), so 5
 * million is some 55,000 quote lines: the whole history of the sales team (a few hundred quotes a year, a dozen
 * lines each) many times over. The limit was 20 million, which bought nothing but a longer import.
 */
export const ESTIMATE_FILE_MAX_CHARS = 5_000_000;

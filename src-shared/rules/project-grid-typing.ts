import { tz } from '@date-fns/tz';
import { isValid, parse } from 'date-fns';
import { PROJECT_MESSAGES } from '../messages/projects';
import { DELAY_REASONS, NO_DELAY_REASON_LABEL } from './campaigns';
import { foldForSearch } from './fold';
import { gridColumn, type CellChanges, type GridColumnKey, type GridTarget } from './project-grid';
import {
  ACTORS,
  CANCELLED_LABEL,
  formatGoal,
  NO_GOAL_TEXT,
  parseGoalInput,
  readGoalNumber,
  TARGET_AMOUNT_MAX,
  TARGET_STATUSES,
  targetChangeError,
  TARGET_TEXT_MAX,
  TARGET_TYPES,
  typeLink,
} from './projects';

/**
 * Typing a cell of the project editor's target grid (audiences-projects-tools.md §5; docs/projects.md, The grid):
 * the French dates, amounts and whole numbers a cell understands, and the change a typed text makes.
 */

const SPACES = /[\s\u00a0\u202f]/g;
/** Digits grouped by three with spaces (also non-breaking and narrow non-breaking ones, as fr-FR writes them), or not grouped. */
const WHOLE = /^(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)$/;

/** Day, month and year (2 or 4 digits) separated by '/', '.' or '-', as typed or pasted from a spreadsheet. */
const FRENCH_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UTC = tz('UTC');
/** date-fns reads a two-digit year as the one within 50 years of its reference date: from 2050, 00–99 are 2000–2099. */
const TWO_DIGIT_YEARS_PIVOT = Date.UTC(2050, 0, 1);

/** Why a date text is not a date; undefined when it is one (see parseDate). */
function dateError(text: string): string | undefined {
  const trimmed = text.trim();
  const french = FRENCH_DATE.exec(trimmed);
  const iso = ISO_DATE.exec(trimmed);
  if (!french && !iso) return PROJECT_MESSAGES.cellDateExpected;
  const year = Number(french ? french[3] : iso![1]);
  if ((french && french[3].length === 4 && (year < 1970 || year > 2099)) || (iso && (year < 1970 || year > 2099)))
    return PROJECT_MESSAGES.cellDateOutOfRange;
  return parseDate(trimmed) == null ? PROJECT_MESSAGES.cellDateInvalid(trimmed) : undefined;
}

/** Epoch seconds (midnight UTC) of DD/MM/yyyy (also D/M/yy, DD-MM-yyyy and yyyy-MM-dd); null when not a date. */
export function parseDate(text: string): number | null {
  const trimmed = text.trim();
  const french = FRENCH_DATE.exec(trimmed);
  const day = french
    ? parse(`${french[1]}/${french[2]}/${french[3]}`, french[3].length === 2 ? 'd/M/yy' : 'd/M/yyyy', TWO_DIGIT_YEARS_PIVOT, { in: UTC })
    : ISO_DATE.test(trimmed)
      ? parse(trimmed, 'yyyy-MM-dd', TWO_DIGIT_YEARS_PIVOT, { in: UTC })
      : null;
  if (!day || !isValid(day) || day.getFullYear() < 1970 || day.getFullYear() > 2099) return null;
  return day.getTime() / 1000;
}

/**
 * "12 500,00 €" (as the grid shows it), "12 500.50 €", "12500.5", "-1 200,5" → two decimals: spaces (also
 * non-breaking) between thousands, a decimal comma or point, an optional "€" or "EUR"; null when not an amount.
 */
export function parseAmount(text: string): number | null {
  const match = /^(-)?\s*(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)(?:[.,](\d+))?\s*(?:€|eur|euros?)?$/i.exec(text.trim());
  if (!match) return null;
  const value = Number(`${match[2].replace(SPACES, '')}${match[3] ? `.${match[3]}` : ''}`);
  if (!Number.isFinite(value)) return null;
  const rounded = Math.round(value * 100) / 100;
  return match[1] && rounded !== 0 ? -rounded : rounded;
}

/** "12 500" (as the grid shows it, also with non-breaking spaces) → 12500; null when not a whole number. */
export function parseWholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed)) return null;
  const value = Number(trimmed.replace(SPACES, ''));
  return value <= 2_147_483_647 ? value : null;
}

const fold = (text: string) => foldForSearch(text).trim();

function pick<T extends string>(options: readonly T[], text: string): T | undefined {
  return options.find((option) => fold(option) === fold(text));
}

/**
 * What a text typed into a cell does (spec §5, docs/projects.md, The grid): `changes` (undefined when it changes nothing:
 * "--" in a goal cell, "ANNULE" in a link cell), or `error`, the French message shown at the cell when the column
 * does not understand it or the change breaks a rule of the target (an end before the start, a negative revenue).
 * Every text the grid shows reads back to its value. An empty cell clears the field (null).
 */
export function readCell(target: GridTarget, key: GridColumnKey, text: string): { changes?: CellChanges; error?: string } {
  const read = readCellValue(target, key, text);
  const broken = read.changes && targetChangeError(target, read.changes);
  return broken ? { error: broken.message } : read;
}

/** readCell without the rules between fields (a pasted row is checked once its cells are merged). */
export function readCellValue(target: GridTarget, key: GridColumnKey, text: string): { changes?: CellChanges; error?: string } {
  const column = gridColumn(key);
  if (!column || column.readOnly) return {};
  const trimmed = text.trim();
  const empty = trimmed === '';
  switch (column.kind) {
    case 'text': {
      const value = trimmed.replace(/[\t\r\n]+/g, ' ');
      // An action names its line in the quote and in every list: it cannot be emptied.
      if (key === 'actionCode' && empty) return { error: PROJECT_MESSAGES.actionCodeRequired };
      const max = TARGET_TEXT_MAX[key as keyof typeof TARGET_TEXT_MAX];
      if (max !== undefined && value.length > max) return { error: PROJECT_MESSAGES.cellTooLong(max) };
      return { changes: { [key]: empty ? null : value } as CellChanges };
    }
    case 'number': {
      if (empty) return { changes: { [key]: null } as CellChanges };
      const value = parseWholeNumber(trimmed);
      return value == null ? { error: PROJECT_MESSAGES.cellWholeNumberExpected } : { changes: { [key]: value } as CellChanges };
    }
    case 'amount': {
      if (empty) return { changes: { [key]: null } as CellChanges };
      const value = parseAmount(trimmed);
      if (value == null) return { error: PROJECT_MESSAGES.cellAmountExpected };
      if (Math.abs(value) > TARGET_AMOUNT_MAX) return { error: PROJECT_MESSAGES.cellAmountTooLarge(TARGET_AMOUNT_MAX) };
      return { changes: { [key]: value } as CellChanges };
    }
    case 'date': {
      if (empty) return { changes: { [key]: null } as CellChanges };
      const value = parseDate(trimmed);
      return value == null ? { error: dateError(trimmed) ?? PROJECT_MESSAGES.cellDateExpected } : { changes: { [key]: value } as CellChanges };
    }
    case 'goal': {
      if (trimmed === NO_GOAL_TEXT) return {};
      // The text the cell shows reads back to the goal it shows ('1.5 mois' is 46 days as well as 45).
      if (fold(trimmed).replace(SPACES, '') === fold(formatGoal(target.goal)).replace(SPACES, '')) return { changes: { goal: target.goal } };
      const read = readGoalNumber(trimmed);
      if (read && read.unit !== 'months' && !Number.isInteger(read.value)) return { error: PROJECT_MESSAGES.cellGoalWholeNumber };
      // Unrecognised text gives a goal with no value (spec §5).
      const goal = parseGoalInput(empty ? '0' : trimmed);
      return goal ? { changes: { goal } } : {};
    }
    case 'status': {
      const status = pick(TARGET_STATUSES, trimmed);
      return status ? { changes: { status } } : { error: PROJECT_MESSAGES.cellChoiceExpected(TARGET_STATUSES.join(', ')) };
    }
    case 'type': {
      if (empty) return { changes: { type: null } };
      const type = pick(TARGET_TYPES, trimmed);
      return type ? { changes: { type } } : { error: PROJECT_MESSAGES.cellChoiceExpected(TARGET_TYPES.join(', ')) };
    }
    case 'actor': {
      if (empty) return { changes: { actor: null } };
      const actor = pick(ACTORS, trimmed);
      return actor ? { changes: { actor } } : { error: PROJECT_MESSAGES.cellChoiceExpected(ACTORS.join(', ')) };
    }
    case 'delayReason': {
      if (empty || fold(trimmed) === fold(NO_DELAY_REASON_LABEL)) return { changes: { delayReason: null } };
      const reason = DELAY_REASONS.find((candidate) => fold(candidate.label) === fold(trimmed) || candidate.key === trimmed);
      return reason
        ? { changes: { delayReason: reason.key } }
        : { error: PROJECT_MESSAGES.cellChoiceExpected([NO_DELAY_REASON_LABEL, ...DELAY_REASONS.map((r) => r.label)].join(', ')) };
    }
    case 'link': {
      if (trimmed === CANCELLED_LABEL) return {};
      const field = typeLink(target.type) === 'tool' ? 'toolId' : 'advertId';
      if (empty) return { changes: { [field]: null } };
      const id = parseWholeNumber(trimmed);
      return id == null || id < 1 ? { error: PROJECT_MESSAGES.cellIdExpected } : { changes: { [field]: id } };
    }
  }
}

/**
 * The change a text typed or pasted into a cell makes (spec §5): undefined when it changes nothing or is not
 * understood ("--" in a goal cell is not submitted; "ANNULE" in a link cell is the cancelled label, not an id).
 * An empty cell clears the field (null).
 */
export function parseCell(target: GridTarget, key: GridColumnKey, text: string): CellChanges | undefined {
  return readCell(target, key, text).changes;
}

/** Keeps of `changes` what differs from the target (a cell typed back to its value saves nothing). */
export function effectiveChanges(target: GridTarget, changes: CellChanges): CellChanges | undefined {
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    const current = target[field as keyof GridTarget];
    if (JSON.stringify(current) !== JSON.stringify(value)) kept[field] = value;
  }
  return Object.keys(kept).length ? (kept as CellChanges) : undefined;
}

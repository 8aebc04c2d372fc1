/**
 * The project editor's target grid (audiences-projects-tools.md §4 "Cell editing", §5, §9; docs/projects.md): its
 * columns, how a cell reads and is typed, how a block pasted from a spreadsheet (tab-separated) lands on the
 * cells it covers, and the undo / redo stack of edits and pastes.
 */
import { tz } from '@date-fns/tz';
import { isValid, parse } from 'date-fns';
import Papa from 'papaparse';
import { PROJECT_MESSAGES } from '../messages/projects';
import { DELAY_REASONS, NO_DELAY_REASON_LABEL, type DelayReason } from './campaigns';
import { formatDay } from './dates';
import {
  ACTORS,
  CANCELLED_LABEL,
  CANCELLED_STATUS,
  formatAmount,
  formatGoal,
  formatNumber,
  NO_GOAL_TEXT,
  parseGoalInput,
  readGoalNumber,
  TARGET_AMOUNT_MAX,
  TARGET_STATUSES,
  targetChangeError,
  TARGET_TEXT_MAX,
  TARGET_TYPES,
  typeLink,
  type Goal,
} from './projects';
import { foldForSearch } from './fold';

/** How a column's cells read and are typed. */
export type CellKind = 'text' | 'number' | 'amount' | 'date' | 'goal' | 'status' | 'type' | 'link' | 'delayReason' | 'actor';

export interface GridColumn {
  key: GridColumnKey;
  label: string;
  kind: CellKind;
  /** Shown, copied, never typed or pasted into (computed by the server). */
  readOnly?: boolean;
}

export const GRID_COLUMNS = [
  { key: 'actionCode', label: 'Code action', kind: 'text' },
  { key: 'status', label: 'Statut', kind: 'status' },
  { key: 'type', label: 'Type', kind: 'type' },
  { key: 'link', label: 'Pub / outil', kind: 'link' },
  { key: 'populationCategory', label: 'Spé', kind: 'text' },
  { key: 'populationSample', label: 'Ciblage', kind: 'text' },
  { key: 'populationSize', label: 'Population', kind: 'number' },
  { key: 'goal', label: 'Objectif', kind: 'goal' },
  { key: 'startDate', label: 'Début', kind: 'date' },
  { key: 'endDate', label: 'Fin', kind: 'date' },
  { key: 'checkDate', label: 'Deadline sortie KPIs', kind: 'date' },
  { key: 'quotationSignedMonth', label: 'Mois signature devis', kind: 'date' },
  { key: 'initialQuotationDate', label: 'Date devis initiale', kind: 'date' },
  { key: 'revenue', label: 'CA', kind: 'amount' },
  { key: 'releaseDateDiff', label: 'Écart (jours)', kind: 'number', readOnly: true },
  { key: 'delayReason', label: 'Raison du retard', kind: 'delayReason' },
  { key: 'revenueDelayImpact', label: 'Impact CA', kind: 'amount', readOnly: true },
  { key: 'actor', label: 'Acteur', kind: 'actor' },
  { key: 'comment', label: 'Commentaire', kind: 'text' },
] as const satisfies readonly { key: string; label: string; kind: CellKind; readOnly?: boolean }[];
export type GridColumnKey = (typeof GRID_COLUMNS)[number]['key'] | 'projectName';

/** The fields of a target the grid reads. */
export interface GridTarget {
  id: number;
  projectName: string;
  actionCode: string | null;
  status: string;
  type: string | null;
  advertId: number | null;
  toolId: number | null;
  populationCategory: string | null;
  populationSample: string | null;
  populationSize: number | null;
  goal: Goal;
  startDate: number | null;
  endDate: number | null;
  checkDate: number | null;
  quotationSignedMonth: number | null;
  initialQuotationDate: number | null;
  revenue: number | null;
  releaseDateDiff: number | null;
  delayReason: string | null;
  revenueDelayImpact: number | null;
  actor: string | null;
  comment: string | null;
}

/** The writable fields (PUT /target/{id}/properties), as the grid sends them. */
export interface CellChanges {
  actionCode?: string | null;
  status?: (typeof TARGET_STATUSES)[number];
  type?: (typeof TARGET_TYPES)[number] | null;
  advertId?: number | null;
  toolId?: number | null;
  populationCategory?: string | null;
  populationSample?: string | null;
  populationSize?: number | null;
  goal?: Goal;
  startDate?: number | null;
  endDate?: number | null;
  checkDate?: number | null;
  quotationSignedMonth?: number | null;
  initialQuotationDate?: number | null;
  revenue?: number | null;
  delayReason?: DelayReason | null;
  actor?: (typeof ACTORS)[number] | null;
  comment?: string | null;
}
const WRITABLE_FIELDS = [
  'actionCode',
  'status',
  'type',
  'advertId',
  'toolId',
  'populationCategory',
  'populationSample',
  'populationSize',
  'goal',
  'startDate',
  'endDate',
  'checkDate',
  'quotationSignedMonth',
  'initialQuotationDate',
  'revenue',
  'delayReason',
  'actor',
  'comment',
] as const satisfies readonly (keyof CellChanges)[];

export function gridColumn(key: GridColumnKey): GridColumn | undefined {
  return (GRID_COLUMNS as readonly GridColumn[]).find((column) => column.key === key);
}

export function delayReasonLabel(key: string | null): string {
  if (key == null) return '';
  return DELAY_REASONS.find((reason) => reason.key === key)?.label ?? key;
}

// ---- reading a cell ----------------------------------------------------------------------------------------------

/** A cell as the grid shows it and copies it: dates DD/MM/yyyy, amounts "12 500,00 €", numbers "12 500", goal "3 mois". */
export function formatCell(target: GridTarget, key: GridColumnKey): string {
  switch (key) {
    case 'projectName':
      return target.projectName;
    case 'link':
      if (target.status === CANCELLED_STATUS) return CANCELLED_LABEL;
      return String((typeLink(target.type) === 'tool' ? target.toolId : target.advertId) ?? target.advertId ?? target.toolId ?? '');
    case 'goal':
      return formatGoal(target.goal);
    case 'startDate':
    case 'endDate':
    case 'checkDate':
    case 'quotationSignedMonth':
    case 'initialQuotationDate':
      return formatDay(target[key]);
    case 'revenue':
    case 'revenueDelayImpact':
      return formatAmount(target[key]);
    case 'populationSize':
    case 'releaseDateDiff':
      return target[key] == null ? '' : formatNumber(target[key]);
    case 'delayReason':
      return delayReasonLabel(target.delayReason);
    default: {
      const value = target[key];
      return value == null ? '' : String(value);
    }
  }
}

// ---- typing a cell -----------------------------------------------------------------------------------------------

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
function readCellValue(target: GridTarget, key: GridColumnKey, text: string): { changes?: CellChanges; error?: string } {
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

// ---- copy and paste ----------------------------------------------------------------------------------------------

/**
 * Whether a copied cell may be pasted into another (spec §4 "Cell editing"): a cell copied in the grid goes into a
 * cell of the same column; a project name never goes into a text cell. Text from elsewhere (source unknown) may go
 * anywhere that understands it.
 */
export function canPasteInto(source: GridColumnKey | null, target: GridColumnKey): boolean {
  const column = gridColumn(target);
  if (!column || column.readOnly) return false;
  if (source === 'projectName' && column.kind === 'text') return false;
  return source === null || source === target;
}

/** Rows and cells of tab-separated text as spreadsheets copy it (CRLF or LF rows, quoted cells with tabs or line breaks). */
export function parseTsv(text: string): string[][] {
  if (text === '') return [];
  const rows = Papa.parse<string[]>(text, { delimiter: '\t', quoteChar: '"' }).data;
  // A copied block ends with a line break, which ends its last row rather than starting an empty one.
  const last = rows.at(-1);
  if (/[\r\n]$/.test(text) && last?.length === 1 && last[0] === '') rows.pop();
  return rows;
}

export interface PastedCell {
  rowIndex: number;
  column: GridColumnKey;
  text: string;
}

/**
 * Where a pasted block lands: its top-left cell on the anchor, one grid row per block row and one visible column
 * per block column, cut at the grid's edges. Read-only columns are covered (the block keeps its shape) but not
 * written.
 */
export function mapPasteBlock(
  block: string[][],
  anchor: { rowIndex: number; column: GridColumnKey },
  rowCount: number,
  columns: readonly GridColumnKey[],
): PastedCell[] {
  const firstColumn = columns.indexOf(anchor.column);
  if (firstColumn === -1) return [];
  const cells: PastedCell[] = [];
  block.forEach((values, r) => {
    const rowIndex = anchor.rowIndex + r;
    if (rowIndex >= rowCount) return;
    values.forEach((text, c) => {
      const column = columns[firstColumn + c];
      if (!column || gridColumn(column)?.readOnly) return;
      cells.push({ rowIndex, column, text });
    });
  });
  return cells;
}

/** A pasted cell the grid did not take, with the French message it shows at the cell (as a typed one would). */
export interface RefusedCell extends PastedCell {
  error: string;
}

/**
 * The changes of a paste, one entry per target touched (cells of a row merged), only what differs; `refused`: the
 * cells whose text the column does not understand, or whose row would break a rule (an end before the start, a
 * negative CA), each with its message, so nothing pasted is dropped without a word.
 */
export function pasteChanges(
  targets: readonly GridTarget[],
  cells: readonly PastedCell[],
): { items: { id: number; changes: CellChanges }[]; refused: RefusedCell[] } {
  const byRow = new Map<number, CellChanges>();
  const pasted = new Map<number, Map<GridColumnKey, PastedCell>>();
  const refused: RefusedCell[] = [];
  for (const cell of cells) {
    const target = targets[cell.rowIndex];
    if (!target) continue;
    const read = readCellValue(target, cell.column, cell.text);
    if (!read.changes) {
      // "--" in a goal cell and "ANNULE" in a link cell change nothing and are no mistake.
      if (read.error) refused.push({ ...cell, error: read.error });
      continue;
    }
    byRow.set(cell.rowIndex, { ...byRow.get(cell.rowIndex), ...read.changes });
    pasted.set(cell.rowIndex, (pasted.get(cell.rowIndex) ?? new Map<GridColumnKey, PastedCell>()).set(cell.column, cell));
  }
  const items: { id: number; changes: CellChanges }[] = [];
  for (const [rowIndex, changes] of [...byRow.entries()].sort(([a], [b]) => a - b)) {
    // A row whose merged cells break a rule loses those cells, each marked with the rule's message.
    for (let broken = targetChangeError(targets[rowIndex], changes); broken; broken = targetChangeError(targets[rowIndex], changes)) {
      const start = changes.startDate !== undefined ? changes.startDate : targets[rowIndex].startDate;
      const end = changes.endDate !== undefined ? changes.endDate : targets[rowIndex].endDate;
      const dropped: [GridColumnKey, string][] =
        broken.field === 'revenue'
          ? [['revenue', broken.message]]
          : [
              ['startDate', PROJECT_MESSAGES.startAfterEnd(formatDay(end))],
              ['endDate', PROJECT_MESSAGES.endBeforeStart(formatDay(start))],
            ];
      for (const [column, error] of dropped) {
        delete changes[column as keyof CellChanges];
        const cell = pasted.get(rowIndex)?.get(column);
        if (cell) refused.push({ ...cell, error });
      }
    }
    const kept = effectiveChanges(targets[rowIndex], changes);
    if (kept) items.push({ id: targets[rowIndex].id, changes: kept });
  }
  return { items, refused };
}

// ---- undo and redo -----------------------------------------------------------------------------------------------

/** The writable fields that differ between two versions of a target, with their values in `from`. */
export function writableDiff(from: GridTarget, to: GridTarget): CellChanges | undefined {
  const diff: Record<string, unknown> = {};
  for (const field of WRITABLE_FIELDS) {
    if (JSON.stringify(from[field]) !== JSON.stringify(to[field])) diff[field] = from[field];
  }
  return Object.keys(diff).length ? (diff as CellChanges) : undefined;
}

/** One edit or paste as saved: what to send to undo it and to redo it (targets by id). */
export interface GridEdit {
  undo: { id: number; changes: CellChanges }[];
  redo: { id: number; changes: CellChanges }[];
}

/**
 * The edit that took the targets from `before` to `after` (the server's answers, its own rules included: an end
 * date it filled is undone too). Undefined when nothing changed.
 */
export function gridEditOf(before: readonly GridTarget[], after: readonly GridTarget[]): GridEdit | undefined {
  const previous = new Map(before.map((target) => [target.id, target]));
  const edit: GridEdit = { undo: [], redo: [] };
  for (const saved of after) {
    const old = previous.get(saved.id);
    if (!old) continue;
    const undo = writableDiff(old, saved);
    const redo = writableDiff(saved, old);
    if (undo && redo) {
      edit.undo.push({ id: saved.id, changes: undo });
      edit.redo.push({ id: saved.id, changes: redo });
    }
  }
  return edit.undo.length ? edit : undefined;
}

export interface UndoStack<T> {
  past: readonly T[];
  future: readonly T[];
}
/** Edits kept for undo. */
export const UNDO_LIMIT = 100;
export const emptyUndoStack = <T>(): UndoStack<T> => ({ past: [], future: [] });

/** A new edit: undoable, and the redo list starts over. */
export function pushEdit<T>(stack: UndoStack<T>, edit: T, limit = UNDO_LIMIT): UndoStack<T> {
  return { past: [...stack.past, edit].slice(-limit), future: [] };
}

/** The edit to undo and the stack once it is undone; undefined when there is none. */
export function takeUndo<T>(stack: UndoStack<T>): { edit: T; stack: UndoStack<T> } | undefined {
  const edit = stack.past.at(-1);
  if (edit === undefined) return undefined;
  return { edit, stack: { past: stack.past.slice(0, -1), future: [edit, ...stack.future] } };
}

/** The edit to redo and the stack once it is redone; undefined when there is none. */
export function takeRedo<T>(stack: UndoStack<T>): { edit: T; stack: UndoStack<T> } | undefined {
  const edit = stack.future[0];
  if (edit === undefined) return undefined;
  return { edit, stack: { past: [...stack.past, edit], future: stack.future.slice(1) } };
}

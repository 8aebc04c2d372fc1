/**
 * The project editor's target grid (audiences-projects-tools.md §4 "Cell editing", §5, §9; docs/projects.md): its
 * columns, how a cell reads, and the undo / redo stack of edits and pastes. Typing a cell is in project-grid-typing.ts,
 * pasting a block in project-grid-paste.ts.
 */
import { DELAY_REASONS, type DelayReason } from './campaigns';
import { formatDay } from './dates';
import {
  ACTORS,
  CANCELLED_LABEL,
  CANCELLED_STATUS,
  formatAmount,
  formatGoal,
  formatNumber,
  TARGET_STATUSES,
  TARGET_TYPES,
  typeLink,
  type Goal,
} from './projects';

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

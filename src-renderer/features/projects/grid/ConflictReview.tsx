import { useAtomValue, useSetAtom } from 'jotai';
import { useLayoutEffect, useRef } from 'react';
import type { CellConflict, Target } from '@shared/contract/projects/targets';
import { CONFLICT_MESSAGES as C, conflictTime } from '@shared/messages/conflicts';
import { PROJECT_MESSAGES as M } from '@shared/messages/projects';
import { formatCell, GRID_COLUMNS, type GridColumn, type GridColumnKey } from '@shared/rules/project-grid';
import { displayValue } from '../../../ui/ConflictPanel';
import { conflictedCellsAtom, editedTargetsAtom, keptCells, takeTheirCellsAtom } from '../edit-atoms';
import type { CellChanges } from '@shared/rules/project-grid';

/** One marked cell as the review lists it: where it is, in words, and the two values as the grid writes them. */
interface ReviewEntry {
  cellId: string;
  row: number;
  column: number;
  name: string;
  theirs: string;
  mine: string;
  by: string;
}

const COLUMNS = GRID_COLUMNS as readonly GridColumn[];

/** A value as its cell would show it (a date as JJ/MM/AAAA, a reason by its label), else as the conflict table reads it. */
function cellText(target: Target, column: GridColumn | undefined, conflict: CellConflict, value: unknown): string {
  if (!column) return displayValue(value);
  const text = formatCell({ ...target, [conflict.field]: value } as Target, column.key);
  return text === '' ? C.emptyValue : text;
}

/** The marked cells in the grid's order (row, then column), named by their row and their column's French label. */
function reviewEntries(targets: readonly Target[], conflicts: ReadonlyMap<string, CellConflict>): ReviewEntry[] {
  const entries: ReviewEntry[] = [];
  for (const [cellId, conflict] of conflicts) {
    const [id, key] = cellId.split(':');
    const row = targets.findIndex((target) => target.id === Number(id));
    if (row < 0) continue;
    const target = targets[row];
    const column = COLUMNS.findIndex((candidate) => candidate.key === (key as GridColumnKey));
    // Every field the grid writes shows in a column; the key account, written elsewhere, keeps its spec name.
    const label = COLUMNS[column]?.label ?? 'Key account';
    entries.push({
      cellId,
      row,
      column,
      name: `${M.gridConflictRow(row, target.actionCode)} — ${label}`,
      theirs: cellText(target, COLUMNS[column], conflict, conflict.theirs),
      mine: cellText(target, COLUMNS[column], conflict, conflict.yours),
      by: M.gridConflictBy(conflict.updatedBy, conflictTime(new Date(conflict.updatedAt))),
    });
  }
  return entries.sort((a, b) => a.row - b.row || a.column - b.column);
}

/**
 * The review of the grid's cells somebody else changed meanwhile (docs/architecture.md, "Versions and conflicts"):
 * beside the grid, never over its cells; each cell with its row and column, theirs and yours, who and when, and
 * the choice « Garder la mienne » (sent again, based on their value) or « Prendre la leur » (the mark goes), one
 * cell at a time or all at once. The cell's name takes the focus to it in the grid.
 */
export function ConflictReview(props: {
  onKeepMine(items: { id: number; changes: CellChanges }[]): Promise<unknown>;
  onShowCell(row: number, column: number): void;
}) {
  const conflicts = useAtomValue(conflictedCellsAtom);
  const targets = useAtomValue(editedTargetsAtom);
  const takeTheirs = useSetAtom(takeTheirCellsAtom);
  const list = useRef<HTMLUListElement>(null);
  /** The place in the list of the cell just decided: the focus goes on to the cell now there, never to the page. */
  const decided = useRef<{ index: number; cellIds: string[]; cell: { row: number; column: number } } | null>(null);
  const entries = reviewEntries(targets, conflicts);

  useLayoutEffect(() => {
    const last = decided.current;
    // « Garder la mienne » waits for the server: the focus moves once the cells are no longer marked.
    if (!last || last.cellIds.some((cellId) => conflicts.has(cellId))) return;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('li .grid-conflict-keep');
    if (buttons?.length) buttons[Math.min(last.index, buttons.length - 1)]?.focus();
    else props.onShowCell(last.cell.row, last.cell.column);
    decided.current = null;
  });

  if (!entries.length) return null;
  const choose = (chosen: ReviewEntry[], keep: boolean) => {
    const ids = chosen.map((entry) => entry.cellId);
    decided.current = { index: entries.indexOf(chosen[0]), cellIds: ids, cell: { row: chosen[0].row, column: chosen[0].column } };
    if (keep) void props.onKeepMine(keptCells(conflicts, ids));
    else takeTheirs(ids);
  };

  return (
    <section className="conflict-panel grid-conflict-review" aria-labelledby="grid-conflicts-title" data-testid="grid-conflicts">
      <h2 id="grid-conflicts-title">{M.gridConflictsTitle(entries.length)}</h2>
      <p className="conflict-hint">{M.gridConflictsHint}</p>
      {entries.length > 1 && (
        <div className="conflict-actions grid-conflict-all">
          <button type="button" onClick={() => choose(entries, true)} data-testid="grid-conflicts-keep-all">
            {C.keepAllMine}
          </button>
          <button type="button" onClick={() => choose(entries, false)} data-testid="grid-conflicts-take-all">
            {C.takeAllTheirs}
          </button>
        </div>
      )}
      <ul className="grid-conflict-list" ref={list}>
        {entries.map((entry) => (
          <li key={entry.cellId} data-testid={`grid-conflict-${entry.row}-${COLUMNS[entry.column]?.key ?? 'keyAccount'}`}>
            <h3>
              <button
                type="button"
                className="link"
                title={M.gridConflictShowCell(entry.name)}
                onClick={() => props.onShowCell(entry.row, entry.column)}
              >
                {entry.name}
              </button>
            </h3>
            <p className="grid-conflict-by">{entry.by}</p>
            <dl>
              <dt>{C.theirValue}</dt>
              <dd data-testid="conflict-theirs">{entry.theirs}</dd>
              <dt>{C.yourValue}</dt>
              <dd data-testid="conflict-mine">{entry.mine}</dd>
            </dl>
            <div className="conflict-actions">
              {/* Named with their cell: a list of « Garder la mienne » says which one to a screen reader. */}
              <button type="button" className="grid-conflict-keep" aria-label={`${C.keepMine} — ${entry.name}`} onClick={() => choose([entry], true)}>
                {C.keepMine}
              </button>
              <button type="button" aria-label={`${C.takeTheirs} — ${entry.name}`} onClick={() => choose([entry], false)}>
                {C.takeTheirs}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

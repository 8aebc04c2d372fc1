import { atom, useAtomValue } from 'jotai';
import type { Target } from '@shared/contract/projects/targets';
import type { CellChanges, GridColumnKey } from '@shared/rules/project-grid';
import { effectiveChanges, readCell } from '@shared/rules/project-grid-typing';
import { LocalDraftOffer } from '../../../ui/DraftOffer';
import { editedProjectAtom } from '../edit-atoms';
import type { InvalidCell } from './GridCell';

/**
 * A grid cell typed in and not yet left (docs/projects.md, "Target grid"): kept as the grid's local draft
 * (lib/local-drafts.ts) while it differs from the cell, so a tab closed or a crash before Enter, Tab or leaving
 * the field does not lose it: the project reopened offers it back, and resuming it saves it into its cell.
 */
export interface TypedCell {
  targetId: number;
  column: GridColumnKey | '';
  text: string;
}

/** No cell being typed: what the draft is compared with (equal: no draft kept). */
const NO_CELL: TypedCell = { targetId: 0, column: '', text: '' };

export const typedCellAtom = atom<TypedCell | null>(null);
typedCellAtom.debugLabel = 'projects.grid.typedCell';

/** Sets the cell being typed in, or clears it (`text` null) when it is this cell that was left or restored. */
export const typingCellAtom = atom(null, (get, set, cell: { targetId: number; column: GridColumnKey; text: string | null }) => {
  const current = get(typedCellAtom);
  if (cell.text !== null) return set(typedCellAtom, { targetId: cell.targetId, column: cell.column, text: cell.text });
  if (current && current.targetId === cell.targetId && current.column === cell.column) set(typedCellAtom, null);
});
typingCellAtom.debugLabel = 'projects.grid.typingCell';

/** The offer of a cell typed and not left when the project was last open; `onResume` saves it into its cell. */
export function TypedCellDraft(props: { onResume: (cell: TypedCell) => void }) {
  const project = useAtomValue(editedProjectAtom);
  const typed = useAtomValue(typedCellAtom);
  return (
    <div data-testid="grid-draft">
      <LocalDraftOffer<TypedCell>
        recordKey={project ? `project-grid:${project.id}` : null}
        values={project ? (typed ?? NO_CELL) : null}
        pristine={project ? NO_CELL : null}
        version={null}
        onResume={(cell) => cell.column && props.onResume(cell)}
      />
    </div>
  );
}

/**
 * A resumed typed cell, read as if just typed: refused, it waits in its cell with the reason; else it is saved.
 * A row deleted since takes nothing.
 */
export function resumeTypedCell(
  targets: readonly Target[],
  cell: TypedCell,
  markInvalid: (cellId: string, entry: InvalidCell) => void,
  save: (items: { id: number; changes: CellChanges }[], texts: ReadonlyMap<string, string>) => void,
): void {
  const target = targets.find((row) => row.id === cell.targetId);
  if (!target || !cell.column) return;
  const cellId = `${target.id}:${cell.column}`;
  const read = readCell(target, cell.column, cell.text);
  if (read.error) return markInvalid(cellId, { text: cell.text, error: read.error });
  const changes = read.changes && effectiveChanges(target, read.changes);
  if (changes) save([{ id: target.id, changes }], new Map([[cellId, cell.text]]));
}

import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { CellConflict, Target } from '@shared/contract/projects/targets';
import { PROJECT_MESSAGES, PROJECT_NOTICES } from '@shared/messages/projects';
import { formatCell, GRID_COLUMNS, type CellChanges, type GridColumn, type GridColumnKey } from '@shared/rules/project-grid';
import { canPasteInto, mapPasteBlock, parseTsv, pasteChanges } from '@shared/rules/project-grid-paste';
import { effectiveChanges, readCell } from '@shared/rules/project-grid-typing';
import { CANCELLED_STATUS, INTERMEDIATE_STATS_STATUS, statusClass, TARGET_STATUSES } from '@shared/rules/projects';
import { useConfirm } from '../../../lib/modal';
import { raiseNoticeAtom } from '../../../lib/notices';
import { useLatest } from '../../../lib/render-state';
import {
  addTargetAtom,
  canEditProjectAtom,
  editedTargetsAtom,
  conflictedCellsAtom,
  flashedCellsAtom,
  redoGridAtom,
  saveGridChangesAtom,
  undoGridAtom,
  type SavedTarget,
} from '../edit-atoms';
import { ConflictReview } from './ConflictReview';
import { Cell, showsAdvertLink, type InvalidCell } from './GridCell';
import { AdvertSearchDialog, DelayReasonDialog, FeedbackDateDialog } from './GridDialogs';
import { useGridKeyboard, type GridPosition } from './grid-keyboard';
import { RowActions } from './RowActions';
import { resumeTypedCell, TypedCellDraft } from './typed-cell';

const COLUMN_KEYS: GridColumnKey[] = GRID_COLUMNS.map((column) => column.key);

type Dialog = { kind: 'delay'; target: Target } | { kind: 'feedback'; target: Target } | { kind: 'advert'; target: Target } | null;

/** What the grid shows and may do, read by the document's listeners as it is when they fire. */
interface GridNow {
  hovered: { rowIndex: number; column: GridColumnKey } | null;
  targets: Target[];
  canEdit: boolean;
}

/**
 * The grid's document shortcuts (spec §4 "Cell editing"): Ctrl/Cmd+C copies the hovered cell (else the active one
 * of the keyboard), Ctrl/Cmd+V pastes into it (a block fills the cells it covers, saved in one call; a value the column does not understand stays in
 * the cell with its message), Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z undo and redo.
 */
function useGridShortcuts(
  state: RefObject<GridNow>,
  saveRef: RefObject<(items: { id: number; changes: CellChanges }[], texts?: ReadonlyMap<string, string>) => Promise<void>>,
  markInvalidRef: RefObject<(cellId: string, entry: InvalidCell | null) => void>,
) {
  const undo = useSetAtom(undoGridAtom);
  const redo = useSetAtom(redoGridAtom);
  const notify = useSetAtom(raiseNoticeAtom);
  /** The last cell copied in the grid: a paste of the same text comes from that column. */
  const lastCopy = useRef<{ column: GridColumnKey; text: string } | null>(null);

  useEffect(() => {
    const typing = () => {
      const active = document.activeElement;
      return active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement;
    };
    /** The cell the shortcuts work on: the hovered one, else the grid's active cell when it has the focus. */
    const pointed = (): GridNow['hovered'] => {
      if (state.current.hovered) return state.current.hovered;
      const [row, column] = (document.activeElement?.closest('[data-cell]')?.getAttribute('data-cell') ?? '').split(':').map(Number);
      const key = COLUMN_KEYS[column!];
      return key && Number.isInteger(row) ? { rowIndex: row!, column: key } : null;
    };
    /** Set by Ctrl/Cmd+C or V; cleared when the browser's copy or paste event came, else the clipboard API is used. */
    const pending = { copy: false, paste: false };
    const hoveredText = () => {
      const { targets: rows } = state.current;
      const cell = pointed();
      if (!cell || !rows[cell.rowIndex]) return undefined;
      const active = document.activeElement;
      // A selection inside a field being typed in copies as usual.
      if (active instanceof HTMLInputElement && active.selectionStart !== active.selectionEnd) return undefined;
      return { column: cell.column, text: formatCell(rows[cell.rowIndex], cell.column) };
    };
    const copied = (copy: { column: GridColumnKey; text: string }) => {
      lastCopy.current = copy;
      notify(PROJECT_NOTICES.cellCopied);
    };
    const onCopy = (event: ClipboardEvent) => {
      pending.copy = false;
      const copy = hoveredText();
      if (!copy) return;
      event.clipboardData?.setData('text/plain', copy.text);
      event.preventDefault();
      copied(copy);
    };
    const onPaste = (event: ClipboardEvent) => {
      pending.paste = false;
      if (pasteText(event.clipboardData?.getData('text/plain') ?? '')) event.preventDefault();
    };
    /** Pastes into the hovered cell; answers whether the grid took the text. */
    const pasteText = (text: string): boolean => {
      const { targets: rows, canEdit: writer } = state.current;
      const cell = pointed();
      if (!cell || !writer || !rows[cell.rowIndex]) return false;
      const block = parseTsv(text);
      const isBlock = block.length > 1 || (block[0]?.length ?? 0) > 1;
      // One value typed into a field being edited: the field takes it as usual.
      if (!isBlock && typing()) return false;
      if (isBlock) {
        const cells = mapPasteBlock(block, cell, rows.length, COLUMN_KEYS);
        const { items, refused } = pasteChanges(rows, cells);
        const texts = new Map(cells.map((pasted) => [`${rows[pasted.rowIndex].id}:${pasted.column}`, pasted.text]));
        // Each pasted cell shows what became of it: taken (a mark it had goes), or kept with its message.
        const marks = new Map<string, InvalidCell | null>([...texts.keys()].map((cellId) => [cellId, null]));
        for (const wrong of refused) marks.set(`${rows[wrong.rowIndex].id}:${wrong.column}`, { text: wrong.text, error: wrong.error });
        for (const [cellId, entry] of marks) markInvalidRef.current(cellId, entry);
        void saveRef.current(items, texts);
        return true;
      }
      const source = lastCopy.current && lastCopy.current.text === text ? lastCopy.current.column : null;
      if (!canPasteInto(source, cell.column)) return true;
      const target = rows[cell.rowIndex];
      const read = readCell(target, cell.column, text);
      // A pasted value the column does not understand stays in the cell with its message, as a typed one.
      markInvalidRef.current(`${target.id}:${cell.column}`, read.error ? { text, error: read.error } : null);
      const changes = read.changes && effectiveChanges(target, read.changes);
      if (changes) void saveRef.current([{ id: target.id, changes }], new Map([[`${target.id}:${cell.column}`, text]]));
      return true;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      // Where the browser fires no copy or paste event (nothing selected, nothing editable), the clipboard API does it.
      if ((key === 'c' || key === 'v') && !typing() && pointed()) {
        const kind = key === 'c' ? 'copy' : 'paste';
        pending[kind] = true;
        setTimeout(() => {
          if (!pending[kind]) return;
          pending[kind] = false;
          if (kind === 'paste') return void navigator.clipboard?.readText().then(pasteText, () => undefined);
          const copy = hoveredText();
          if (copy)
            void navigator.clipboard?.writeText(copy.text).then(
              () => copied(copy),
              () => undefined,
            );
        }, 0);
        return;
      }
      if (key !== 'z' || typing() || !state.current.canEdit) return;
      event.preventDefault();
      void (event.shiftKey ? redo() : undo());
    };
    document.addEventListener('copy', onCopy);
    document.addEventListener('paste', onPaste);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('paste', onPaste);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [notify, undo, redo, state, saveRef, markInvalidRef]);
}

/**
 * The target grid (spec §4 "Cell editing"): a cell becomes editable on hover (an advert link stays a link, edited
 * through its edit button, a double-click or F2); a value the column does not understand stays in the cell with
 * a French message under it until corrected (docs/projects.md, The grid); Ctrl/Cmd+C copies the hovered cell,
 * Ctrl/Cmd+V pastes into it (a block from a spreadsheet fills the cells it covers, saved in one call); changed
 * cells flash; Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z undo and redo every edit and paste. Read-only for SALES.
 * The keyboard moves as in a spreadsheet (grid-keyboard.ts): arrows, Tab and Shift+Tab move the active cell,
 * Enter or F2 edits it, Enter saves and goes down, Escape gives the value back.
 */
export function TargetGrid() {
  const targets = useAtomValue(editedTargetsAtom);
  const canEdit = useAtomValue(canEditProjectAtom);
  const flashed = useAtomValue(flashedCellsAtom);
  const conflicted = useAtomValue(conflictedCellsAtom);
  const save = useSetAtom(saveGridChangesAtom);
  const addTarget = useSetAtom(addTargetAtom);
  const confirm = useConfirm();
  const [hovered, setHovered] = useState<{ rowIndex: number; column: GridColumnKey } | null>(null);
  /** The cell whose field is being typed in: it stays a field when the pointer moves on, until it is left. */
  const [typingIn, setTypingIn] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [invalid, setInvalid] = useState<ReadonlyMap<string, InvalidCell>>(new Map());
  const markInvalid = (cellId: string, entry: InvalidCell | null) =>
    setInvalid((current) => {
      if (!entry && !current.has(cellId)) return current;
      const next = new Map(current);
      if (entry) next.set(cellId, entry);
      else next.delete(cellId);
      return next;
    });
  const state = useLatest({ hovered, targets, canEdit });
  const invalidRef = useLatest(invalid);

  /**
   * Saves and, when the delay is now over 15 days without a reason, asks for it ('Raison du retard'). `texts`: what
   * the user typed or pasted per cell; a cell the server refuses keeps that text with the reason, as a typed one.
   */
  const saveAndAsk = async (items: { id: number; changes: CellChanges }[], texts?: ReadonlyMap<string, string>) => {
    const saved = await save({
      items,
      cells: texts && new Set(texts.keys()),
      onRefused: (refused) => {
        // A batch is saved whole or not at all: the other cells of the paste keep their text and say so.
        for (const [cellId, text] of texts ?? [])
          if (cellId !== refused.cellId && !invalidRef.current.has(cellId)) markInvalid(cellId, { text, error: PROJECT_MESSAGES.pasteNotSaved });
        markInvalid(refused.cellId, { text: texts?.get(refused.cellId) ?? '', error: refused.error });
      },
    });
    const late = saved?.find((target: SavedTarget) => target.needsDelayReason);
    if (late) setDialog({ kind: 'delay', target: late });
  };
  const saveRef = useLatest(saveAndAsk);
  const markInvalidRef = useLatest(markInvalid);

  useGridShortcuts(state, saveRef, markInvalidRef);

  const wrapper = useRef<HTMLDivElement>(null);
  const keyboard = useGridKeyboard({
    wrapper,
    rows: targets.length,
    columns: GRID_COLUMNS.length,
    startEditing: ({ row, column: index }) => {
      const column = GRID_COLUMNS[index] as GridColumn;
      const target = targets[row];
      if (!target || !canEdit || column.readOnly) return false;
      setTypingIn(`${target.id}:${column.key}`);
      return true;
    },
  });

  return (
    <div className="target-grid-area">
      <TypedCellDraft onResume={(cell) => resumeTypedCell(targets, cell, markInvalid, (items, texts) => void saveAndAsk(items, texts))} />
      <div className="target-grid-wrapper" ref={wrapper} onMouseLeave={() => setHovered(null)}>
        <table className="target-grid" data-testid="target-grid">
          <GridHeader />
          <tbody>
            {targets.map((target, rowIndex) => (
              <tr key={target.id} data-testid={`target-row-${rowIndex}`} className={target.status === CANCELLED_STATUS ? 'cancelled' : undefined}>
                {(GRID_COLUMNS as readonly GridColumn[]).map((column, columnIndex) => {
                  const isHovered = hovered?.rowIndex === rowIndex && hovered.column === column.key;
                  const cellId = `${target.id}:${column.key}`;
                  const writable = canEdit && !column.readOnly;
                  const anchored = showsAdvertLink(target, column);
                  const editLink = () => writable && anchored && setTypingIn(cellId);
                  const position: GridPosition = { row: rowIndex, column: columnIndex };
                  const field = (element: EventTarget) => element instanceof HTMLInputElement || element instanceof HTMLSelectElement;
                  return (
                    <td
                      key={column.key}
                      className={[
                        `cell-${column.kind}`,
                        column.key === 'status' ? statusClass(target.status) : '',
                        flashed.has(`${target.id}:${column.key}`) ? 'flash' : '',
                        conflicted.has(cellId) ? 'cell-conflict' : '',
                        isHovered ? 'hovered' : '',
                      ].join(' ')}
                      title={conflictTitle(conflicted.get(cellId))}
                      data-testid={`cell-${rowIndex}-${column.key}`}
                      data-cell={`${rowIndex}:${columnIndex}`}
                      tabIndex={keyboard.tabIndex(position)}
                      onMouseEnter={() => setHovered({ rowIndex, column: column.key })}
                      onFocus={(event) => {
                        keyboard.onCellFocus(position);
                        if (field(event.target)) setTypingIn(cellId);
                      }}
                      onBlur={(event) => field(event.target) && setTypingIn((current) => (current === cellId ? null : current))}
                      onDoubleClick={editLink}
                      onKeyDown={(event) => keyboard.onCellKeyDown(event, position)}
                    >
                      <Cell
                        target={target}
                        column={column}
                        editing={writable && ((isHovered && !anchored) || typingIn === cellId || invalid.has(cellId))}
                        writable={writable}
                        invalid={invalid.get(cellId)}
                        onInvalid={(entry) => markInvalid(cellId, entry)}
                        onEditLink={editLink}
                        onSave={(changes, text) =>
                          void saveAndAsk([{ id: target.id, changes }], text === undefined ? undefined : new Map([[cellId, text]]))
                        }
                        onStatus={(status) => void chooseStatus(target, status)}
                        onLeave={(move) => keyboard.leave(position, move)}
                      />
                    </td>
                  );
                })}
                <td className="cell-actions" data-actions={rowIndex} onKeyDown={(event) => keyboard.onActionsKeyDown(event, rowIndex)}>
                  <RowActions target={target} rowIndex={rowIndex} canEdit={canEdit} onAttach={() => setDialog({ kind: 'advert', target })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {canEdit && (
          <button type="button" onClick={() => void addTarget()} data-testid="target-add">
            Ajouter une action
          </button>
        )}
        <RowDialog
          dialog={dialog}
          onClose={() => setDialog(null)}
          onDelayReason={(target, delayReason) => void save({ items: [{ id: target.id, changes: { delayReason } }] })}
          onSave={(target, changes) => void saveAndAsk([{ id: target.id, changes }])}
        />
      </div>
      <ConflictReview onKeepMine={saveAndAsk} onShowCell={(row, column) => keyboard.focusCell({ row, column })} />
    </div>
  );

  /** Spec §4 "Target status": cancelling asks first; "3.2 stats intermédiaires" asks the date first; others at once. */
  async function chooseStatus(target: Target, status: string) {
    if (status === target.status) return;
    if (status === INTERMEDIATE_STATS_STATUS) return setDialog({ kind: 'feedback', target });
    if (status === CANCELLED_STATUS && !(await confirm(PROJECT_MESSAGES.confirmCancelAction))) return;
    await saveAndAsk([{ id: target.id, changes: { status: status as (typeof TARGET_STATUSES)[number] } }]);
  }
}

/** The dialog a row opened: the delay's reason, the intermediate feedback's date, the advert to attach. */
function RowDialog(props: {
  dialog: Dialog;
  onClose(): void;
  onDelayReason(target: Target, delayReason: CellChanges['delayReason']): void;
  onSave(target: Target, changes: CellChanges): void;
}) {
  const { dialog, onClose } = props;
  if (dialog?.kind === 'delay')
    return (
      <DelayReasonDialog
        onCancel={onClose}
        onConfirm={(delayReason) => {
          onClose();
          props.onDelayReason(dialog.target, delayReason);
        }}
      />
    );
  if (dialog?.kind === 'feedback')
    return (
      <FeedbackDateDialog
        initial={dialog.target.checkDate}
        onCancel={onClose}
        onConfirm={(checkDate) => {
          onClose();
          props.onSave(dialog.target, { status: INTERMEDIATE_STATS_STATUS, checkDate });
        }}
      />
    );
  if (dialog?.kind === 'advert')
    return (
      <AdvertSearchDialog
        type={dialog.target.type ?? 'post'}
        onCancel={onClose}
        onChoose={(advertId) => {
          onClose();
          props.onSave(dialog.target, { advertId });
        }}
      />
    );
  return null;
}

function GridHeader() {
  return (
    <thead>
      <tr>
        {GRID_COLUMNS.map((column) => (
          <th key={column.key} scope="col">
            {column.label}
          </th>
        ))}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

/** Their value and yours, on a cell somebody else changed meanwhile (docs/architecture.md, "Versions and conflicts"). */
function conflictTitle(conflict: CellConflict | undefined): string | undefined {
  if (!conflict) return undefined;
  const text = (value: unknown) =>
    value == null || value === '' ? CONFLICT_MESSAGES.emptyValue : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `${CONFLICT_MESSAGES.theirValue} : ${text(conflict.theirs)} — ${CONFLICT_MESSAGES.yourValue} : ${text(conflict.yours)}`;
}

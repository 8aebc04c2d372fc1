import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { CellConflict, Target } from '@shared/contract/projects';
import { PROJECT_MESSAGES, PROJECT_NOTICES } from '@shared/messages/projects';
import {
  canPasteInto,
  effectiveChanges,
  formatCell,
  GRID_COLUMNS,
  mapPasteBlock,
  parseTsv,
  readCell,
  pasteChanges,
  type CellChanges,
  type GridColumn,
  type GridColumnKey,
} from '@shared/rules/project-grid';
import {
  ACTORS,
  CANCELLED_STATUS,
  compareTypes,
  GOAL_UNIT_CHOICES,
  hasFeedbackMenu,
  INTERMEDIATE_STATS_STATUS,
  statusClass,
  TARGET_STATUSES,
  TARGET_TYPES,
  typeLink,
} from '@shared/rules/projects';
import { useConfirm } from '../../../lib/modal';
import { raiseNoticeAtom } from '../../../lib/notices';
import { useAdjustOnChange, useLatest } from '../../../lib/render-state';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import {
  addTargetAtom,
  canEditProjectAtom,
  deleteTargetAtom,
  detachTargetAtom,
  duplicateTargetAtom,
  editedTargetsAtom,
  conflictedCellsAtom,
  flashedCellsAtom,
  newAdvertPathAtom,
  redoGridAtom,
  saveGridChangesAtom,
  undoGridAtom,
  type SavedTarget,
} from '../edit-atoms';
import { AdvertSearchDialog, DelayReasonDialog, FeedbackDateDialog } from './GridDialogs';
import { TargetInventoryCheck } from '../../inventory';

const COLUMN_KEYS: GridColumnKey[] = GRID_COLUMNS.map((column) => column.key);
const SORTED_TYPES = [...TARGET_TYPES].sort(compareTypes);

/** A value typed into a cell that the grid refused: kept in the cell with what is wrong until corrected. */
interface InvalidCell {
  text: string;
  error: string;
}

/** Whether a cell shows a link (an attached advert) that must stay clickable: it is edited through its edit button. */
const showsAdvertLink = (target: Target, column: GridColumn) =>
  column.key === 'link' && target.status !== CANCELLED_STATUS && target.advertId != null && typeLink(target.type) !== 'tool';

type Dialog = { kind: 'delay'; target: Target } | { kind: 'feedback'; target: Target } | { kind: 'advert'; target: Target } | null;

/** What the grid shows and may do, read by the document's listeners as it is when they fire. */
interface GridNow {
  hovered: { rowIndex: number; column: GridColumnKey } | null;
  targets: Target[];
  canEdit: boolean;
}

/**
 * The grid's document shortcuts (spec §4 "Cell editing"): Ctrl/Cmd+C copies the hovered cell, Ctrl/Cmd+V pastes
 * into it (a block fills the cells it covers, saved in one call; a value the column does not understand stays in
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
    /** Set by Ctrl/Cmd+C or V; cleared when the browser's copy or paste event came, else the clipboard API is used. */
    const pending = { copy: false, paste: false };
    const hoveredText = () => {
      const { hovered: cell, targets: rows } = state.current;
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
      const { hovered: cell, targets: rows, canEdit: writer } = state.current;
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
      if ((key === 'c' || key === 'v') && !typing() && state.current.hovered) {
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

  return (
    <div className="target-grid-wrapper" onMouseLeave={() => setHovered(null)}>
      <table className="target-grid" data-testid="target-grid">
        <GridHeader />
        <tbody>
          {targets.map((target, rowIndex) => (
            <tr key={target.id} data-testid={`target-row-${rowIndex}`} className={target.status === CANCELLED_STATUS ? 'cancelled' : undefined}>
              {(GRID_COLUMNS as readonly GridColumn[]).map((column) => {
                const isHovered = hovered?.rowIndex === rowIndex && hovered.column === column.key;
                const cellId = `${target.id}:${column.key}`;
                const writable = canEdit && !column.readOnly;
                const anchored = showsAdvertLink(target, column);
                const editLink = () => writable && anchored && setTypingIn(cellId);
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
                    onMouseEnter={() => setHovered({ rowIndex, column: column.key })}
                    onFocus={(event) => event.target instanceof HTMLInputElement && setTypingIn(cellId)}
                    onBlur={(event) => event.target instanceof HTMLInputElement && setTypingIn((current) => (current === cellId ? null : current))}
                    onDoubleClick={editLink}
                    onKeyDown={(event) => event.key === 'F2' && editLink()}
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
                    />
                  </td>
                );
              })}
              <td className="cell-actions">
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
      {dialog?.kind === 'delay' && (
        <DelayReasonDialog
          onCancel={() => setDialog(null)}
          onConfirm={(delayReason) => {
            setDialog(null);
            void save({ items: [{ id: dialog.target.id, changes: { delayReason } }] });
          }}
        />
      )}
      {dialog?.kind === 'feedback' && (
        <FeedbackDateDialog
          initial={dialog.target.checkDate}
          onCancel={() => setDialog(null)}
          onConfirm={(checkDate) => {
            setDialog(null);
            void saveAndAsk([{ id: dialog.target.id, changes: { status: INTERMEDIATE_STATS_STATUS, checkDate } }]);
          }}
        />
      )}
      {dialog?.kind === 'advert' && (
        <AdvertSearchDialog
          type={dialog.target.type ?? 'post'}
          onCancel={() => setDialog(null)}
          onChoose={(advertId) => {
            setDialog(null);
            void saveAndAsk([{ id: dialog.target.id, changes: { advertId } }]);
          }}
        />
      )}
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

/** One cell: its text, or while hovered (writers) the field that edits it; an advert link stays a link beside its edit button. */
function Cell(props: {
  target: Target;
  column: GridColumn;
  editing: boolean;
  writable: boolean;
  invalid: InvalidCell | undefined;
  onInvalid(entry: InvalidCell | null): void;
  onEditLink(): void;
  /** `text`: what was typed, kept at the cell if the server refuses it. */
  onSave(changes: CellChanges, text?: string): void;
  onStatus(status: string): void;
}) {
  const { target, column } = props;
  const text = formatCell(target, column.key);
  if (!props.editing) {
    if (showsAdvertLink(target, column)) {
      return (
        <span className="cell-link">
          <a
            href={`/adverts/edit/${target.advertId}`}
            target="_blank"
            rel="noreferrer"
            onClick={(event) => openInNewTab(event, `/adverts/edit/${target.advertId}`)}
          >
            {text}
          </a>
          {props.writable && (
            <button
              type="button"
              className="cell-edit"
              aria-label={PROJECT_MESSAGES.cellEditLink}
              title={PROJECT_MESSAGES.cellEditLink}
              data-testid="edit-link-button"
              onClick={props.onEditLink}
            />
          )}
        </span>
      );
    }
    if (column.key === 'link' && target.status === CANCELLED_STATUS) return <small className="cancelled-label">{text}</small>;
    return <span className="cell-text">{text}</span>;
  }
  const selectProps = { 'aria-label': column.label, 'data-testid': `edit-${column.key}` };
  switch (column.kind) {
    case 'status':
      return (
        <select {...selectProps} value={target.status} onChange={(event) => props.onStatus(event.target.value)}>
          {TARGET_STATUSES.map((status) => (
            <option key={status} value={status} className={statusClass(status)}>
              {status}
            </option>
          ))}
        </select>
      );
    case 'type':
      return (
        <select
          {...selectProps}
          value={target.type ?? ''}
          onChange={(event) => props.onSave({ type: (event.target.value || null) as CellChanges['type'] })}
        >
          <option value="" />
          {SORTED_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      );
    case 'actor':
      return (
        <select
          {...selectProps}
          value={target.actor ?? ''}
          onChange={(event) => props.onSave({ actor: (event.target.value || null) as CellChanges['actor'] })}
        >
          <option value="" />
          {ACTORS.map((actor) => (
            <option key={actor} value={actor}>
              {actor}
            </option>
          ))}
        </select>
      );
    default:
      return (
        <TextCell
          target={target}
          column={column}
          text={text}
          invalid={props.invalid}
          autoFocus={showsAdvertLink(target, column)}
          onInvalid={props.onInvalid}
          onSave={props.onSave}
        />
      );
  }
}

/**
 * A typed cell: Enter or leaving the field saves what changed, Escape restores. A value the column does not
 * understand (or that breaks a rule: an end before the start, a negative CA) stays, with its message under the
 * cell, until corrected. Goal: digits offer vues, jours, mois, envois.
 */
function TextCell(props: {
  target: Target;
  column: GridColumn;
  text: string;
  invalid: InvalidCell | undefined;
  autoFocus: boolean;
  onInvalid(entry: InvalidCell | null): void;
  onSave(changes: CellChanges, text: string): void;
}) {
  const [draft, setDraft] = useState(props.invalid?.text ?? props.text);
  const done = useRef(false);
  // A new value from the grid replaces the text shown, unless the cell holds a refused text being corrected.
  useAdjustOnChange(props.text, () => {
    if (!props.invalid) setDraft(props.text);
  });
  // A refused text put there from elsewhere (a paste on the open field, the server's answer) shows as it came.
  useAdjustOnChange(props.invalid, () => {
    if (props.invalid) setDraft(props.invalid.text);
  });
  const commit = () => {
    if (done.current) return;
    if (draft === props.text) return props.onInvalid(null);
    done.current = true;
    const read = readCell(props.target, props.column.key, draft);
    if (read.error) return props.onInvalid({ text: draft, error: read.error });
    props.onInvalid(null);
    const changes = read.changes && effectiveChanges(props.target, read.changes);
    if (changes) props.onSave(changes, draft);
    else setDraft(props.text);
  };
  const listId = `goal-units-${props.target.id}`;
  const errorId = `cell-error-${props.target.id}-${props.column.key}`;
  const digits = props.column.kind === 'goal' && /^\d+$/.test(draft.trim());
  return (
    <>
      <input
        value={draft}
        aria-label={props.column.label}
        aria-invalid={props.invalid ? true : undefined}
        aria-describedby={props.invalid ? errorId : undefined}
        autoFocus={props.autoFocus}
        data-testid={`edit-${props.column.key}`}
        list={digits ? listId : undefined}
        placeholder={props.column.kind === 'date' ? 'JJ/MM/AAAA' : undefined}
        onFocus={() => (done.current = false)}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            commit();
            event.currentTarget.blur();
          }
          if (event.key === 'Escape') {
            setDraft(props.text);
            props.onInvalid(null);
            done.current = true;
            event.currentTarget.blur();
          }
        }}
        onBlur={commit}
      />
      {props.invalid && (
        <span className="cell-error" id={errorId} role="alert" data-testid={`cell-error-${props.column.key}`}>
          {props.invalid.error}
        </span>
      )}
      {digits && (
        <datalist id={listId}>
          {GOAL_UNIT_CHOICES.map((unit) => (
            <option key={unit} value={`${draft.trim()} ${unit}`} />
          ))}
        </datalist>
      )}
    </>
  );
}

function openInNewTab(event: { preventDefault(): void }, path: string) {
  event.preventDefault();
  window.open(path, '_blank', 'noopener');
}

/** A row's actions: attach, create or detach its advert, feedback, duplicate, delete. */
function RowActions(props: { target: Target; rowIndex: number; canEdit: boolean; onAttach(): void }) {
  const { target } = props;
  const duplicate = useSetAtom(duplicateTargetAtom);
  const remove = useSetAtom(deleteTargetAtom);
  const detach = useSetAtom(detachTargetAtom);
  const newAdvertPath = useSetAtom(newAdvertPathAtom);
  const link = typeLink(target.type);
  const linked = target.advertId != null || target.toolId != null;
  return (
    <span className="row-actions">
      {target.goal.views > 0 && <TargetInventoryCheck targetId={target.id} testId={`target-inventory-${props.rowIndex}`} />}
      {hasFeedbackMenu(target) && target.advertId != null && (
        <button
          type="button"
          className="link"
          onClick={(event) => openInNewTab(event, `/adverts/edit/${target.advertId}`)}
          data-testid={`target-feedback-${props.rowIndex}`}
        >
          Feedback
        </button>
      )}
      {props.canEdit && link === 'advert' && !linked && (
        <>
          <button type="button" className="link" onClick={props.onAttach} data-testid={`target-attach-${props.rowIndex}`}>
            {PROJECT_MESSAGES.searchAdvertTitle}
          </button>
          <button
            type="button"
            className="link"
            data-testid={`target-new-advert-${props.rowIndex}`}
            onClick={async () => {
              const path = await newAdvertPath(target.id);
              if (path) window.open(path, '_blank', 'noopener');
            }}
          >
            Créer une publicité
          </button>
        </>
      )}
      {props.canEdit && linked && (
        <ConfirmButton message="Détacher de l'action ?" onConfirm={() => void detach(target.id)} testId={`target-detach-${props.rowIndex}`}>
          Détacher
        </ConfirmButton>
      )}
      {props.canEdit && (
        <>
          <button
            type="button"
            className="link"
            onClick={() => void duplicate({ id: target.id, position: target.position + 1 })}
            data-testid={`target-duplicate-${props.rowIndex}`}
          >
            Dupliquer
          </button>
          <ConfirmButton
            message="Supprimer l'action ?"
            onConfirm={() => void remove(target.id)}
            testId={`target-delete-${props.rowIndex}`}
            className="link danger"
          >
            Supprimer
          </ConfirmButton>
        </>
      )}
    </span>
  );
}

/** Their value and yours, on a cell somebody else changed meanwhile (docs/architecture.md, "Versions and conflicts"). */
function conflictTitle(conflict: CellConflict | undefined): string | undefined {
  if (!conflict) return undefined;
  const text = (value: unknown) =>
    value == null || value === '' ? CONFLICT_MESSAGES.emptyValue : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `${CONFLICT_MESSAGES.theirValue} : ${text(conflict.theirs)} — ${CONFLICT_MESSAGES.yourValue} : ${text(conflict.yours)}`;
}

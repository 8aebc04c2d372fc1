import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { Target } from '@shared/contract/projects';
import { PROJECT_MESSAGES, PROJECT_NOTICES } from '@shared/messages/projects';
import {
  canPasteInto,
  effectiveChanges,
  formatCell,
  GRID_COLUMNS,
  mapPasteBlock,
  parseCell,
  parseTsv,
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
import { ConfirmButton } from '../../../ui/ConfirmButton';
import {
  addTargetAtom,
  canEditProjectAtom,
  deleteTargetAtom,
  detachTargetAtom,
  duplicateTargetAtom,
  editedTargetsAtom,
  flashedCellsAtom,
  newAdvertPathAtom,
  redoGridAtom,
  saveGridChangesAtom,
  undoGridAtom,
  type SavedTarget,
} from '../edit-atoms';
import { AdvertSearchDialog, DelayReasonDialog, FeedbackDateDialog } from './GridDialogs';

const COLUMN_KEYS: GridColumnKey[] = GRID_COLUMNS.map((column) => column.key);
const SORTED_TYPES = [...TARGET_TYPES].sort(compareTypes);

type Dialog = { kind: 'delay'; target: Target } | { kind: 'feedback'; target: Target } | { kind: 'advert'; target: Target } | null;

/**
 * The target grid (spec §4 "Cell editing"): a cell becomes editable on hover; Ctrl/Cmd+C copies the hovered cell,
 * Ctrl/Cmd+V pastes into it (a block from a spreadsheet fills the cells it covers, saved in one call); changed
 * cells flash; Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z undo and redo every edit and paste. Read-only for SALES.
 */
export function TargetGrid() {
  const targets = useAtomValue(editedTargetsAtom);
  const canEdit = useAtomValue(canEditProjectAtom);
  const flashed = useAtomValue(flashedCellsAtom);
  const save = useSetAtom(saveGridChangesAtom);
  const undo = useSetAtom(undoGridAtom);
  const redo = useSetAtom(redoGridAtom);
  const addTarget = useSetAtom(addTargetAtom);
  const notify = useSetAtom(raiseNoticeAtom);
  const confirm = useConfirm();
  const [hovered, setHovered] = useState<{ rowIndex: number; column: GridColumnKey } | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  /** The last cell copied in the grid: a paste of the same text comes from that column. */
  const lastCopy = useRef<{ column: GridColumnKey; text: string } | null>(null);
  const state = useRef({ hovered, targets, canEdit });
  state.current = { hovered, targets, canEdit };

  /** Saves and, when the delay is now over 15 days without a reason, asks for it ('Raison du retard'). */
  const saveAndAsk = async (items: { id: number; changes: CellChanges }[]) => {
    const saved = await save({ items });
    const late = saved?.find((target: SavedTarget) => target.needsDelayReason);
    if (late) setDialog({ kind: 'delay', target: late });
  };
  const saveRef = useRef(saveAndAsk);
  saveRef.current = saveAndAsk;

  useEffect(() => {
    const typing = () => {
      const active = document.activeElement;
      return active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement;
    };
    const onCopy = (event: ClipboardEvent) => {
      const { hovered: cell, targets: rows } = state.current;
      if (!cell || !rows[cell.rowIndex]) return;
      const active = document.activeElement;
      // A selection inside a field being typed in copies as usual.
      if (active instanceof HTMLInputElement && active.selectionStart !== active.selectionEnd) return;
      const text = formatCell(rows[cell.rowIndex], cell.column);
      event.clipboardData?.setData('text/plain', text);
      event.preventDefault();
      lastCopy.current = { column: cell.column, text };
      notify(PROJECT_NOTICES.cellCopied);
    };
    const onPaste = (event: ClipboardEvent) => {
      const { hovered: cell, targets: rows, canEdit: writer } = state.current;
      if (!cell || !writer || !rows[cell.rowIndex]) return;
      const text = event.clipboardData?.getData('text/plain') ?? '';
      const block = parseTsv(text);
      const isBlock = block.length > 1 || (block[0]?.length ?? 0) > 1;
      // One value typed into a field being edited: the field takes it as usual.
      if (!isBlock && typing()) return;
      event.preventDefault();
      if (isBlock) {
        const { items } = pasteChanges(rows, mapPasteBlock(block, cell, rows.length, COLUMN_KEYS));
        void saveRef.current(items);
        return;
      }
      const source = lastCopy.current && lastCopy.current.text === text ? lastCopy.current.column : null;
      if (!canPasteInto(source, cell.column)) return;
      const target = rows[cell.rowIndex];
      const parsed = parseCell(target, cell.column, text);
      const changes = parsed && effectiveChanges(target, parsed);
      if (changes) void saveRef.current([{ id: target.id, changes }]);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z' || typing() || !state.current.canEdit) return;
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
  }, [notify, undo, redo]);

  return (
    <div className="target-grid-wrapper" onMouseLeave={() => setHovered(null)}>
      <table className="target-grid" data-testid="target-grid" aria-readonly={!canEdit}>
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
        <tbody>
          {targets.map((target, rowIndex) => (
            <tr key={target.id} data-testid={`target-row-${rowIndex}`} className={target.status === CANCELLED_STATUS ? 'cancelled' : undefined}>
              {(GRID_COLUMNS as readonly GridColumn[]).map((column) => {
                const isHovered = hovered?.rowIndex === rowIndex && hovered.column === column.key;
                return (
                  <td
                    key={column.key}
                    className={[
                      `cell-${column.kind}`,
                      column.key === 'status' ? statusClass(target.status) : '',
                      flashed.has(`${target.id}:${column.key}`) ? 'flash' : '',
                      isHovered ? 'hovered' : '',
                    ].join(' ')}
                    data-testid={`cell-${rowIndex}-${column.key}`}
                    onMouseEnter={() => setHovered({ rowIndex, column: column.key })}
                  >
                    <Cell
                      target={target}
                      column={column}
                      editing={isHovered && canEdit && !column.readOnly}
                      onSave={(changes) => void saveAndAsk([{ id: target.id, changes }])}
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

/** One cell: its text, or while hovered (writers) the field that edits it. */
function Cell(props: { target: Target; column: GridColumn; editing: boolean; onSave(changes: CellChanges): void; onStatus(status: string): void }) {
  const { target, column } = props;
  const text = formatCell(target, column.key);
  if (!props.editing) {
    if (column.key === 'link' && target.status !== CANCELLED_STATUS && target.advertId != null && typeLink(target.type) !== 'tool') {
      return (
        <a href={`/adverts/edit/${target.advertId}`} target="_blank" rel="noreferrer" onClick={(event) => openInNewTab(event, `/adverts/edit/${target.advertId}`)}>
          {text}
        </a>
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
        <select {...selectProps} value={target.type ?? ''} onChange={(event) => props.onSave({ type: (event.target.value || null) as CellChanges['type'] })}>
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
        <select {...selectProps} value={target.actor ?? ''} onChange={(event) => props.onSave({ actor: (event.target.value || null) as CellChanges['actor'] })}>
          <option value="" />
          {ACTORS.map((actor) => (
            <option key={actor} value={actor}>
              {actor}
            </option>
          ))}
        </select>
      );
    default:
      return <TextCell target={target} column={column} text={text} onSave={props.onSave} />;
  }
}

/** A typed cell: Enter or leaving the field saves what changed, Escape restores. Goal: digits offer vues, jours, mois, envois. */
function TextCell(props: { target: Target; column: GridColumn; text: string; onSave(changes: CellChanges): void }) {
  const [draft, setDraft] = useState(props.text);
  const done = useRef(false);
  useEffect(() => setDraft(props.text), [props.text]);
  const commit = () => {
    if (done.current || draft === props.text) return;
    done.current = true;
    const parsed = parseCell(props.target, props.column.key, draft);
    const changes = parsed && effectiveChanges(props.target, parsed);
    if (changes) props.onSave(changes);
    else setDraft(props.text);
  };
  const listId = `goal-units-${props.target.id}`;
  const digits = props.column.kind === 'goal' && /^\d+$/.test(draft.trim());
  return (
    <>
      <input
        value={draft}
        aria-label={props.column.label}
        data-testid={`edit-${props.column.key}`}
        list={digits ? listId : undefined}
        placeholder={props.column.kind === 'date' ? 'JJ/MM/AAAA' : undefined}
        onFocus={() => (done.current = false)}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
          if (event.key === 'Escape') setDraft(props.text);
        }}
        onBlur={commit}
      />
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
      {hasFeedbackMenu(target) && target.advertId != null && (
        <button type="button" className="link" onClick={(event) => openInNewTab(event, `/adverts/edit/${target.advertId}`)} data-testid={`target-feedback-${props.rowIndex}`}>
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
          <button type="button" className="link" onClick={() => void duplicate({ id: target.id, position: target.position + 1 })} data-testid={`target-duplicate-${props.rowIndex}`}>
            Dupliquer
          </button>
          <ConfirmButton message="Supprimer l'action ?" onConfirm={() => void remove(target.id)} testId={`target-delete-${props.rowIndex}`} className="link danger">
            Supprimer
          </ConfirmButton>
        </>
      )}
    </span>
  );
}

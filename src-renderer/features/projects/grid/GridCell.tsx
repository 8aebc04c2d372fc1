import { useSetAtom } from 'jotai';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Target } from '@shared/contract/projects/targets';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { formatCell, type CellChanges, type GridColumn } from '@shared/rules/project-grid';
import { effectiveChanges, readCell } from '@shared/rules/project-grid-typing';
import {
  ACTORS,
  CANCELLED_STATUS,
  compareTypes,
  GOAL_UNIT_CHOICES,
  statusClass,
  TARGET_STATUSES,
  TARGET_TYPES,
  typeLink,
} from '@shared/rules/projects';
import { useAdjustOnChange } from '../../../lib/render-state';
import type { LeaveMove } from './grid-keyboard';
import { openInNewTab } from './RowActions';
import { typingCellAtom } from './typed-cell';

const SORTED_TYPES = [...TARGET_TYPES].sort(compareTypes);

/** A value typed into a cell that the grid refused: kept in the cell with what is wrong until corrected. */
export interface InvalidCell {
  text: string;
  error: string;
}

/** Whether a cell shows a link (an attached advert) that must stay clickable: it is edited through its edit button. */
export const showsAdvertLink = (target: Target, column: GridColumn) =>
  column.key === 'link' && target.status !== CANCELLED_STATUS && target.advertId != null && typeLink(target.type) !== 'tool';

/** Where the keys of a field leave it: Enter down, Tab and Shift+Tab on, Escape back to its cell. */
const leaveMove = (event: KeyboardEvent): LeaveMove | null =>
  event.key === 'Enter' ? 'down' : event.key === 'Tab' ? (event.shiftKey ? 'previous' : 'next') : event.key === 'Escape' ? 'stay' : null;

interface CellProps {
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
  /** A field left by its keys: answers whether the grid took the focus (false: Tab leaves the grid). */
  onLeave(move: LeaveMove): boolean;
}

/**
 * One cell: its text, or while edited (hovered by a writer, opened from the keyboard) the field that edits it. The
 * text stays in place, hidden, under the field laid over it: the column keeps its width whatever the pointer does.
 */
export function Cell(props: CellProps) {
  const view = <CellView {...props} />;
  if (!props.editing) return view;
  return (
    <>
      <span className="cell-sizer">{view}</span>
      <CellEditor {...props} />
    </>
  );
}

/** What a cell shows when not edited: its text, or an advert's link beside its edit button. */
function CellView(props: CellProps) {
  const { target, column } = props;
  const text = formatCell(target, column.key);
  if (showsAdvertLink(target, column)) {
    return (
      <span className="cell-advert">
        <a
          href={`/adverts/edit/${target.advertId}`}
          target="_blank"
          rel="noreferrer"
          tabIndex={-1}
          onClick={(event) => openInNewTab(event, `/adverts/edit/${target.advertId}`)}
        >
          {text}
        </a>
        {props.writable && (
          <button
            type="button"
            className="cell-edit"
            tabIndex={-1}
            aria-label={PROJECT_MESSAGES.cellEditLink}
            title={PROJECT_MESSAGES.cellEditLink}
            data-testid="edit-link-button"
            onClick={props.onEditLink}
          />
        )}
      </span>
    );
  }
  if (column.key === 'link' && target.status === CANCELLED_STATUS) return <small className="cancelled-label cell-value">{text}</small>;
  return <span className="cell-value">{text}</span>;
}

function CellEditor(props: CellProps) {
  const { target, column } = props;
  const selectProps = {
    'aria-label': column.label,
    'data-testid': `edit-${column.key}`,
    onKeyDown: (event: KeyboardEvent<HTMLSelectElement>) => {
      const move = leaveMove(event);
      if (move && props.onLeave(move)) event.preventDefault();
    },
  };
  const options = (values: readonly string[], empty: boolean): ReactNode => (
    <>
      {empty && <option value="" />}
      {values.map((value) => (
        <option key={value} value={value} className={column.kind === 'status' ? statusClass(value) : undefined}>
          {value}
        </option>
      ))}
    </>
  );
  switch (column.kind) {
    case 'status':
      return (
        <span className="cell-editor">
          <select {...selectProps} value={target.status} onChange={(event) => props.onStatus(event.target.value)}>
            {options(TARGET_STATUSES, false)}
          </select>
        </span>
      );
    case 'type':
      return (
        <span className="cell-editor">
          <select
            {...selectProps}
            value={target.type ?? ''}
            onChange={(event) => props.onSave({ type: (event.target.value || null) as CellChanges['type'] })}
          >
            {options(SORTED_TYPES, true)}
          </select>
        </span>
      );
    case 'actor':
      return (
        <span className="cell-editor">
          <select
            {...selectProps}
            value={target.actor ?? ''}
            onChange={(event) => props.onSave({ actor: (event.target.value || null) as CellChanges['actor'] })}
          >
            {options(ACTORS, true)}
          </select>
        </span>
      );
    default:
      return (
        <TextCell
          target={target}
          column={column}
          text={formatCell(target, column.key)}
          invalid={props.invalid}
          autoFocus={showsAdvertLink(target, column)}
          onInvalid={props.onInvalid}
          onSave={props.onSave}
          onLeave={props.onLeave}
        />
      );
  }
}

/**
 * A typed cell: Enter (then down a row), Tab or leaving the field saves what changed, Escape restores. A value the
 * column does not understand (or that breaks a rule: an end before the start, a negative CA) stays, with its message
 * under the cell, until corrected: the keys keep the focus in the field meanwhile. Goal: digits offer vues, jours,
 * mois, envois.
 */
function TextCell(props: {
  target: Target;
  column: GridColumn;
  text: string;
  invalid: InvalidCell | undefined;
  autoFocus: boolean;
  onInvalid(entry: InvalidCell | null): void;
  onSave(changes: CellChanges, text: string): void;
  onLeave(move: LeaveMove): boolean;
}) {
  const [draft, setDraft] = useState(props.invalid?.text ?? props.text);
  const done = useRef(false);
  // What is typed and not yet left is the grid's local draft (typed-cell.tsx): a closed tab does not lose it.
  const setTyping = useSetAtom(typingCellAtom);
  const typing = (text: string | null) => setTyping({ targetId: props.target.id, column: props.column.key, text });
  // A new value from the grid replaces the text shown, unless the cell holds a refused text being corrected.
  useAdjustOnChange(props.text, () => {
    if (!props.invalid) setDraft(props.text);
  });
  // A refused text put there from elsewhere (a paste on the open field, the server's answer) shows as it came.
  useAdjustOnChange(props.invalid, () => {
    if (props.invalid) setDraft(props.invalid.text);
  });
  /** Saves what changed; false when the text is refused (it stays, with its message). */
  const commit = (): boolean => {
    if (done.current) return true;
    if (draft === props.text) return (props.onInvalid(null), typing(null), true);
    done.current = true;
    const read = readCell(props.target, props.column.key, draft);
    if (read.error) return (props.onInvalid({ text: draft, error: read.error }), false);
    props.onInvalid(null);
    typing(null);
    const changes = read.changes && effectiveChanges(props.target, read.changes);
    if (changes) props.onSave(changes, draft);
    else setDraft(props.text);
    return true;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = leaveMove(event);
    if (!move) return;
    if (move === 'stay') {
      setDraft(props.text);
      props.onInvalid(null);
      typing(null);
      done.current = true;
      if (!props.onLeave('stay')) event.currentTarget.blur();
      return;
    }
    if (!commit()) {
      // Refused: the focus stays in the field, to correct it.
      done.current = false;
      event.preventDefault();
      return;
    }
    if (props.onLeave(move)) event.preventDefault();
    else if (move === 'down') event.currentTarget.blur();
  };
  const listId = `goal-units-${props.target.id}`;
  const errorId = `cell-error-${props.target.id}-${props.column.key}`;
  const digits = props.column.kind === 'goal' && /^\d+$/.test(draft.trim());
  return (
    <>
      <span className="cell-editor">
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
          onChange={(event) => {
            setDraft(event.target.value);
            typing(event.target.value === props.text ? null : event.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={commit}
        />
      </span>
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

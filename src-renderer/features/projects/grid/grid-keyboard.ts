import { useEffect, useState, type KeyboardEvent, type RefObject } from 'react';

/** A cell of the grid: its row and the index of its column. */
export interface GridPosition {
  row: number;
  column: number;
}

/** Where a key takes the active cell: the four arrows, Tab (next) and Shift+Tab (previous). */
export type GridMove = 'up' | 'down' | 'left' | 'right' | 'next' | 'previous';

/** How a field being edited is left: Enter (down), Tab, Shift+Tab, or Escape (stays on its cell). */
export type LeaveMove = 'down' | 'next' | 'previous' | 'stay';

const ARROWS: Record<string, GridMove> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

/**
 * The cell a move leads to, as in a spreadsheet: the arrows stop at the edges; Tab and Shift+Tab go on to the next
 * or previous row, and leave the grid (null) past its last or before its first cell.
 */
export function gridMove(from: GridPosition, move: GridMove, size: { rows: number; columns: number }): GridPosition | null {
  const clamp = (value: number, count: number) => Math.max(0, Math.min(count - 1, value));
  switch (move) {
    case 'up':
    case 'down':
      return { row: clamp(from.row + (move === 'down' ? 1 : -1), size.rows), column: from.column };
    case 'left':
    case 'right':
      return { row: from.row, column: clamp(from.column + (move === 'right' ? 1 : -1), size.columns) };
    case 'next':
    case 'previous': {
      const index = from.row * size.columns + from.column + (move === 'next' ? 1 : -1);
      if (index < 0 || index >= size.rows * size.columns) return null;
      return { row: Math.floor(index / size.columns), column: index % size.columns };
    }
  }
}

/**
 * Scrolls the grid's box so that a focused cell is whole in sight: the browser brings it into the box, but the
 * sticky header, first column and row actions may still lie over it.
 */
function revealCell(box: HTMLElement, cell: HTMLElement) {
  const row = cell.parentElement;
  const first = row?.firstElementChild;
  const last = row?.lastElementChild;
  const header = box.querySelector('thead');
  if (!row || !first || !last) return;
  const frame = box.getBoundingClientRect();
  const rect = cell.getBoundingClientRect();
  const left = frame.left + box.clientLeft + (cell === first ? 0 : first.getBoundingClientRect().width);
  const right = frame.left + box.clientLeft + box.clientWidth - (cell === last ? 0 : last.getBoundingClientRect().width);
  const top = frame.top + box.clientTop + (header?.getBoundingClientRect().height ?? 0);
  const bottom = frame.top + box.clientTop + box.clientHeight;
  if (rect.left < left) box.scrollLeft -= left - rect.left;
  else if (rect.right > right) box.scrollLeft += Math.min(rect.right - right, rect.left - left);
  if (rect.top < top) box.scrollTop -= top - rect.top;
  else if (rect.bottom > bottom) box.scrollTop += Math.min(rect.bottom - bottom, rect.top - top);
}

/**
 * The grid's keyboard (WAI-ARIA grid pattern, one tab stop): the active cell is focused and moves with the arrows,
 * Home and End (the row's first and last cells), Tab and Shift+Tab (through the row's action buttons at its end); Enter or F2 starts editing it; a field left with
 * Enter goes down a row, with Tab to the next cell, with Escape back to its cell.
 */
export function useGridKeyboard(options: {
  wrapper: RefObject<HTMLElement | null>;
  rows: number;
  columns: number;
  /** Opens the cell's field (a writable cell); its field is then focused. */
  startEditing(position: GridPosition): boolean;
}) {
  const { wrapper, rows, columns } = options;
  const [active, setActive] = useState<GridPosition>({ row: 0, column: 0 });
  const [editRequest, setEditRequest] = useState<{ position: GridPosition } | null>(null);
  const current = { row: Math.max(0, Math.min(active.row, rows - 1)), column: active.column };

  const cellElement = (position: GridPosition) => wrapper.current?.querySelector<HTMLElement>(`[data-cell="${position.row}:${position.column}"]`);
  const actionButtons = (row: number) => [...(wrapper.current?.querySelectorAll<HTMLElement>(`[data-actions="${row}"] button`) ?? [])];
  const focusCell = (position: GridPosition) => {
    const element = cellElement(position);
    if (!element) return false;
    element.focus();
    if (wrapper.current) revealCell(wrapper.current, element);
    return true;
  };
  /** Tab from a cell: on to the next (the row's actions after its last cell); false when it leaves the grid. */
  const tabFrom = (from: GridPosition, backwards: boolean): boolean => {
    if (!backwards && from.column === columns - 1) {
      const [first] = actionButtons(from.row);
      if (first) return (first.focus(), true);
    }
    if (backwards && from.column === 0 && from.row > 0) {
      const last = actionButtons(from.row - 1).at(-1);
      if (last) return (last.focus(), true);
    }
    const next = gridMove(from, backwards ? 'previous' : 'next', { rows, columns });
    return next ? focusCell(next) : false;
  };

  // The field of a cell opened from the keyboard takes the focus once it is there, the caret after its text.
  useEffect(() => {
    if (!editRequest) return;
    const field = cellElement(editRequest.position)?.querySelector<HTMLInputElement | HTMLSelectElement>('input, select');
    if (!field) return;
    field.focus();
    if (field instanceof HTMLInputElement) field.setSelectionRange(field.value.length, field.value.length);
    // cellElement reads the wrapper's element, not state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editRequest]);

  return {
    active: current,
    tabIndex: (position: GridPosition) => (position.row === current.row && position.column === current.column ? 0 : -1),
    onCellFocus: (position: GridPosition) => setActive(position),
    /** Focuses a cell and brings it into sight (the conflict review's « go to the cell »). */
    focusCell,
    /** Keys on the cell itself (a field inside it handles its own, then calls `leave`). */
    onCellKeyDown(event: KeyboardEvent<HTMLElement>, position: GridPosition) {
      const field =
        event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
      if (field || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'F2' || (event.key === 'Enter' && event.target === event.currentTarget)) {
        event.preventDefault();
        if (options.startEditing(position)) setEditRequest({ position });
        return;
      }
      if (event.target !== event.currentTarget) return;
      const arrow = ARROWS[event.key];
      if (event.key === 'Home' || event.key === 'End') {
        event.preventDefault();
        focusCell({ row: position.row, column: event.key === 'Home' ? 0 : columns - 1 });
      } else if (arrow) {
        event.preventDefault();
        focusCell(gridMove(position, arrow, { rows, columns }) ?? position);
      } else if (event.key === 'Tab' && tabFrom(position, event.shiftKey)) event.preventDefault();
    },
    /** Keys on a row's action buttons: Tab and Shift+Tab go through them, then on to the next row or back to the row. */
    onActionsKeyDown(event: KeyboardEvent<HTMLElement>, row: number) {
      const buttons = actionButtons(row);
      const index = buttons.indexOf(event.target as HTMLElement);
      if (index < 0) return;
      const backwards = event.shiftKey;
      if (event.key === 'Tab') {
        const sibling = buttons[index + (backwards ? -1 : 1)];
        if (sibling) sibling.focus();
        else if (backwards) focusCell({ row, column: columns - 1 });
        else if (row < rows - 1) focusCell({ row: row + 1, column: 0 });
        else return;
        event.preventDefault();
      }
    },
    /** A field left by its keys: where the focus goes next; false when it leaves the grid (Tab past the end). */
    leave(position: GridPosition, move: LeaveMove): boolean {
      if (move === 'stay') return focusCell(position);
      if (move === 'down') return focusCell(gridMove(position, 'down', { rows, columns }) ?? position);
      return tabFrom(position, move === 'previous');
    },
  };
}

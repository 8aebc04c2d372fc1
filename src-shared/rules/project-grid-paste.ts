import Papa from 'papaparse';
import { PROJECT_MESSAGES } from '../messages/projects';
import { formatDay } from './dates';
import { gridColumn, type CellChanges, type GridColumnKey, type GridTarget } from './project-grid';
import { effectiveChanges, readCellValue } from './project-grid-typing';
import { targetChangeError } from './projects';

/**
 * Copy and paste in the project editor's target grid (audiences-projects-tools.md §4 "Cell editing"; docs/projects.md):
 * how a block pasted from a spreadsheet (tab-separated) lands on the cells it covers.
 */

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

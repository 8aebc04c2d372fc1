import { describe, expect, it } from 'vitest';
import {
  canPasteInto,
  emptyUndoStack,
  formatCell,
  gridEditOf,
  mapPasteBlock,
  parseCell,
  parseDate,
  parseTsv,
  pasteChanges,
  pushEdit,
  takeRedo,
  takeUndo,
  type GridColumnKey,
  type GridTarget,
} from '@shared/rules/project-grid';

const target = (id: number, overrides: Partial<GridTarget> = {}): GridTarget => ({
  id,
  projectName: 'Cardio',
  actionCode: `CODE-${id}`,
  status: '1. offline - préparation',
  type: 'post',
  advertId: null,
  toolId: null,
  populationCategory: null,
  populationSample: null,
  populationSize: null,
  goal: { views: 0, days: 0, shipments: 0 },
  startDate: null,
  endDate: null,
  checkDate: null,
  quotationSignedMonth: null,
  initialQuotationDate: null,
  revenue: null,
  releaseDateDiff: null,
  delayReason: null,
  revenueDelayImpact: null,
  actor: null,
  comment: null,
  ...overrides,
});
const JAN_2 = Date.UTC(2026, 0, 2) / 1000;

describe('grid cells', () => {
  it('read as the spec shows them', () => {
    const row = target(1, { startDate: JAN_2, revenue: 12500.5, populationSize: 1234567, goal: { views: 0, days: 90, shipments: 0 }, advertId: 42 });
    expect(formatCell(row, 'startDate')).toBe('02/01/2026');
    expect(formatCell(row, 'revenue')).toBe('12 500.50 €');
    expect(formatCell(row, 'populationSize')).toBe('1 234 567');
    expect(formatCell(row, 'goal')).toBe('3 mois');
    expect(formatCell(row, 'link')).toBe('42');
    expect(formatCell({ ...row, status: '7. annulé' }, 'link')).toBe('ANNULE');
    expect(formatCell({ ...row, type: 'mise en avant', toolId: 7 }, 'link')).toBe('7');
    expect(formatCell({ ...row, delayReason: null }, 'delayReason')).toBe('');
  });

  it('parse what is typed or pasted, and refuse what the column does not understand', () => {
    const row = target(1);
    expect(parseDate('02/01/2026')).toBe(JAN_2);
    expect(parseDate('2026-01-02')).toBe(JAN_2);
    expect(parseDate('31/02/2026')).toBeNull();
    expect(parseCell(row, 'startDate', '02/01/2026')).toEqual({ startDate: JAN_2 });
    expect(parseCell(row, 'startDate', '')).toEqual({ startDate: null });
    expect(parseCell(row, 'startDate', 'demain')).toBeUndefined();
    expect(parseCell(row, 'revenue', '12 500,50 €')).toEqual({ revenue: 12500.5 });
    expect(parseCell(row, 'populationSize', '1 200')).toEqual({ populationSize: 1200 });
    expect(parseCell(row, 'populationSize', '12a')).toBeUndefined();
    expect(parseCell(row, 'goal', '3 mois')).toEqual({ goal: { views: 0, days: 90, shipments: 0 } });
    expect(parseCell(row, 'goal', '5000')).toEqual({ goal: { views: 5000, days: 0, shipments: 0 } });
    expect(parseCell(row, 'goal', '--')).toBeUndefined();
    expect(parseCell(row, 'status', '2. EN LIGNE')).toEqual({ status: '2. en ligne' });
    expect(parseCell(row, 'type', 'referencement')).toEqual({ type: 'référencement' });
    expect(parseCell(row, 'delayReason', 'Aucune')).toEqual({ delayReason: null });
    expect(parseCell(row, 'link', '42')).toEqual({ advertId: 42 });
    expect(parseCell({ ...row, type: 'mise en avant' }, 'link', '7')).toEqual({ toolId: 7 });
    expect(parseCell(row, 'link', 'ANNULE')).toBeUndefined();
    expect(parseCell(row, 'releaseDateDiff', '3')).toBeUndefined();
    expect(parseCell(row, 'comment', '  à relancer ')).toEqual({ comment: 'à relancer' });
  });

  it('paste into the same column only, and a project name never into a text cell', () => {
    expect(canPasteInto('comment', 'comment')).toBe(true);
    expect(canPasteInto('comment', 'populationSample')).toBe(false);
    expect(canPasteInto(null, 'populationSample')).toBe(true);
    expect(canPasteInto('projectName', 'comment')).toBe(false);
    expect(canPasteInto(null, 'revenueDelayImpact')).toBe(false);
  });
});

describe('pasting a block from a spreadsheet', () => {
  const columns: GridColumnKey[] = ['populationCategory', 'populationSample', 'populationSize', 'releaseDateDiff', 'comment'];

  it('reads tab-separated rows, CRLF, quoted cells and the trailing line break', () => {
    expect(parseTsv('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseTsv('"deux\nlignes"\t"avec ""guillemets"""\n')).toEqual([['deux\nlignes', 'avec "guillemets"']]);
    expect(parseTsv('seul')).toEqual([['seul']]);
  });

  it('fills the cells the block covers from the anchor, cut at the edges, skipping read-only columns', () => {
    const block = parseTsv('Cardio\tCardiologues\t1200\nDermato\tDermatologues\t800\nTrop\tloin\t1\n');
    const cells = mapPasteBlock(block, { rowIndex: 1, column: 'populationCategory' }, 3, columns);
    expect(cells).toEqual([
      { rowIndex: 1, column: 'populationCategory', text: 'Cardio' },
      { rowIndex: 1, column: 'populationSample', text: 'Cardiologues' },
      { rowIndex: 1, column: 'populationSize', text: '1200' },
      { rowIndex: 2, column: 'populationCategory', text: 'Dermato' },
      { rowIndex: 2, column: 'populationSample', text: 'Dermatologues' },
      { rowIndex: 2, column: 'populationSize', text: '800' },
    ]);
    const wide = mapPasteBlock([['1', '2', '3', '4']], { rowIndex: 0, column: 'populationSize' }, 3, columns);
    expect(wide.map((cell) => cell.column)).toEqual(['populationSize', 'comment']);
  });

  it("merges a row's cells into one change, keeps what differs, counts what is not understood", () => {
    const targets = [target(10), target(11, { populationSample: 'Dermatologues' })];
    const cells = mapPasteBlock(parseTsv('Cardio\tCardiologues\t1200\nDermato\tDermatologues\tbeaucoup'), { rowIndex: 0, column: 'populationCategory' }, 2, columns);
    expect(pasteChanges(targets, cells)).toEqual({
      items: [
        { id: 10, changes: { populationCategory: 'Cardio', populationSample: 'Cardiologues', populationSize: 1200 } },
        { id: 11, changes: { populationCategory: 'Dermato' } },
      ],
      rejected: 1,
    });
  });
});

describe('undo and redo', () => {
  it('undoes what the server saved, its own rules included, and redoes it', () => {
    const before = [target(1), target(2, { comment: 'avant' })];
    const after = [target(1, { startDate: JAN_2, endDate: JAN_2 + 90 * 86_400 }), target(2, { comment: 'après' })];
    const edit = gridEditOf(before, after)!;
    expect(edit.undo).toEqual([
      { id: 1, changes: { startDate: null, endDate: null } },
      { id: 2, changes: { comment: 'avant' } },
    ]);
    expect(edit.redo).toEqual([
      { id: 1, changes: { startDate: JAN_2, endDate: JAN_2 + 90 * 86_400 } },
      { id: 2, changes: { comment: 'après' } },
    ]);
    expect(gridEditOf(before, before)).toBeUndefined();
  });

  it('keeps a stack: undo moves an edit to redo, a new edit clears redo, the oldest drop past the limit', () => {
    let stack = pushEdit(pushEdit(emptyUndoStack<string>(), 'a'), 'b');
    const undone = takeUndo(stack)!;
    expect(undone.edit).toBe('b');
    stack = undone.stack;
    expect(stack).toEqual({ past: ['a'], future: ['b'] });
    const redone = takeRedo(stack)!;
    expect(redone.edit).toBe('b');
    expect(redone.stack).toEqual({ past: ['a', 'b'], future: [] });
    expect(pushEdit(stack, 'c')).toEqual({ past: ['a', 'c'], future: [] });
    expect(takeUndo(emptyUndoStack())).toBeUndefined();
    expect(takeRedo(emptyUndoStack())).toBeUndefined();
    expect(pushEdit({ past: ['a', 'b'], future: [] }, 'c', 2).past).toEqual(['b', 'c']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  emptyUndoStack,
  formatCell,
  gridEditOf,
  pushEdit,
  takeRedo,
  takeUndo,
  type GridColumnKey,
  type GridTarget,
} from '@shared/rules/project-grid';
import { canPasteInto, mapPasteBlock, parseTsv, pasteChanges } from '@shared/rules/project-grid-paste';
import { parseAmount, parseCell, parseDate, readCell } from '@shared/rules/project-grid-typing';

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
    expect(formatCell(row, 'revenue')).toBe('12 500,50 €');
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
    expect(parseDate(' 2.1.26 ')).toBe(JAN_2);
    expect(parseDate('2-1-99')).toBe(Date.UTC(2099, 0, 2) / 1000);
    expect(parseDate('29/02/2028')).toBe(Date.UTC(2028, 1, 29) / 1000);
    expect(parseDate('29/02/2026')).toBeNull();
    expect(parseDate('02/01/1969')).toBeNull();
    expect(parseDate('2026/01/02')).toBeNull();
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
    expect(parseTsv('')).toEqual([]);
    expect(parseTsv('a\t\n\nb\n')).toEqual([['a', ''], [''], ['b']]);
    expect(parseTsv('un\rdeux')).toEqual([['un'], ['deux']]);
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

  it("merges a row's cells into one change, keeps what differs, gives each cell not understood its message", () => {
    const targets = [target(10), target(11, { populationSample: 'Dermatologues' })];
    const cells = mapPasteBlock(
      parseTsv('Cardio\tCardiologues\t1200\nDermato\tDermatologues\tbeaucoup'),
      { rowIndex: 0, column: 'populationCategory' },
      2,
      columns,
    );
    expect(pasteChanges(targets, cells)).toEqual({
      items: [
        { id: 10, changes: { populationCategory: 'Cardio', populationSample: 'Cardiologues', populationSize: 1200 } },
        { id: 11, changes: { populationCategory: 'Dermato' } },
      ],
      refused: [{ rowIndex: 1, column: 'populationSize', text: 'beaucoup', error: 'Nombre entier attendu (ex. 12 500)' }],
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

describe('typed cells say what is wrong and read back what the grid shows', () => {
  const row = target(1, {
    startDate: JAN_2,
    endDate: Date.UTC(2026, 0, 31) / 1000,
    revenue: 1234567.5,
    populationSize: 12500,
    goal: { views: 0, days: 46, shipments: 0 },
    revenueDelayImpact: -1200.25,
  });

  it('reads back every format the grid displays', () => {
    for (const key of ['startDate', 'endDate', 'revenue', 'populationSize', 'goal'] as const) {
      expect(readCell(row, key, formatCell(row, key)), key).toEqual({ changes: { [key]: row[key] } });
    }
    expect(readCell(row, 'goal', '1.5 mois')).toEqual({ changes: { goal: row.goal } });
    expect(parseAmount(formatCell(row, 'revenueDelayImpact'))).toBe(-1200.25);
    for (const views of [12500, 1234567]) {
      const shown = target(2, { goal: { views, days: 0, shipments: 0 } });
      expect(readCell(target(3), 'goal', formatCell(shown, 'goal'))).toEqual({ changes: { goal: shown.goal } });
    }
    const shipments = target(2, { goal: { views: 0, days: 0, shipments: 3500 } });
    expect(readCell(target(3), 'goal', formatCell(shipments, 'goal'))).toEqual({ changes: { goal: shipments.goal } });
  });

  it('takes spaces, non-breaking spaces, a decimal comma or point', () => {
    const empty = target(1);
    for (const text of ['12 500', '12\u00a0500', '12\u202f500', '12500'])
      expect(parseCell(empty, 'populationSize', text), text).toEqual({ populationSize: 12500 });
    for (const text of ['12 500,50 €', '12\u00a0500.50\u00a0€', '12500.5', '12 500,5', '12500,50€'])
      expect(parseCell(empty, 'revenue', text), text).toEqual({ revenue: 12500.5 });
    expect(parseCell(empty, 'goal', '1,5 mois')).toEqual({ goal: { views: 0, days: 45, shipments: 0 } });
    expect(parseCell(empty, 'goal', '1.5 mois')).toEqual({ goal: { views: 0, days: 45, shipments: 0 } });
    expect(parseCell(empty, 'goal', '12\u00a0500 vues')).toEqual({ goal: { views: 12500, days: 0, shipments: 0 } });
    expect(parseCell(empty, 'startDate', '2/1/26')).toEqual({ startDate: JAN_2 });
  });

  it('says in French what is wrong instead of dropping the value', () => {
    const empty = target(1);
    expect(readCell(empty, 'populationSize', 'douze mille')).toEqual({ error: 'Nombre entier attendu (ex. 12 500)' });
    expect(readCell(empty, 'populationSize', '12 50')).toEqual({ error: 'Nombre entier attendu (ex. 12 500)' });
    expect(readCell(empty, 'startDate', '31/02/2026')).toEqual({ error: "La date 31/02/2026 n'existe pas" });
    expect(readCell(empty, 'startDate', 'hier')).toEqual({ error: 'Date attendue au format JJ/MM/AAAA (ex. 31/01/2026)' });
    expect(readCell(empty, 'startDate', '01/01/1900')).toEqual({ error: 'Date entre 1970 et 2099 attendue' });
    expect(readCell(empty, 'revenue', 'abc')).toEqual({ error: 'Montant attendu (ex. 12 500,50 €)' });
    expect(readCell(empty, 'goal', '1,5 vues').error).toMatch(/nombres entiers/);
    expect(readCell(empty, 'link', 'x').error).toMatch(/Numéro de publicité/);
  });

  it('refuses an end before the start and a negative CA', () => {
    expect(readCell(row, 'endDate', '01/01/2026')).toEqual({ error: 'La date de fin ne peut pas être avant la date de début (02/01/2026)' });
    expect(readCell(row, 'startDate', '01/02/2026')).toEqual({ error: 'La date de début ne peut pas être après la date de fin (31/01/2026)' });
    expect(readCell(row, 'endDate', '02/01/2026')).toEqual({ changes: { endDate: JAN_2 } });
    expect(readCell(row, 'revenue', '-5')).toEqual({ error: 'Le CA ne peut pas être négatif' });
    // A pasted row is checked once merged: a new start and end together are fine, an end before the start is not.
    const cells = [
      { rowIndex: 0, column: 'startDate' as const, text: '01/03/2026' },
      { rowIndex: 0, column: 'endDate' as const, text: '31/03/2026' },
    ];
    expect(pasteChanges([row], cells)).toEqual({
      items: [{ id: 1, changes: { startDate: Date.UTC(2026, 2, 1) / 1000, endDate: Date.UTC(2026, 2, 31) / 1000 } }],
      refused: [],
    });
    expect(pasteChanges([row], [{ rowIndex: 0, column: 'endDate', text: '01/01/2026' }])).toEqual({
      items: [],
      refused: [{ rowIndex: 0, column: 'endDate', text: '01/01/2026', error: 'La date de fin ne peut pas être avant la date de début (02/01/2026)' }],
    });
    // Both dates pasted the wrong way round: both cells keep their text and say why; the rest of the row is saved.
    const swapped = pasteChanges(
      [row],
      [
        { rowIndex: 0, column: 'startDate', text: '31/03/2026' },
        { rowIndex: 0, column: 'endDate', text: '01/03/2026' },
        { rowIndex: 0, column: 'revenue', text: 'douze mille' },
        { rowIndex: 0, column: 'comment', text: 'ok' },
      ],
    );
    expect(swapped.items).toEqual([{ id: 1, changes: { comment: 'ok' } }]);
    expect(swapped.refused.map((cell) => [cell.column, cell.text, cell.error])).toEqual([
      ['revenue', 'douze mille', 'Montant attendu (ex. 12 500,50 €)'],
      ['startDate', '31/03/2026', 'La date de début ne peut pas être après la date de fin (01/03/2026)'],
      ['endDate', '01/03/2026', 'La date de fin ne peut pas être avant la date de début (31/03/2026)'],
    ]);
  });

  it('refuses at the cell what the server would: texts over their limit, amounts over 100 000 000 000 €', () => {
    expect(readCell(row, 'comment', 'x'.repeat(2001))).toEqual({ error: '2\u202f000 caractères au plus' });
    expect(readCell(row, 'comment', 'x'.repeat(2000)).changes).toEqual({ comment: 'x'.repeat(2000) });
    expect(readCell(row, 'actionCode', 'A'.repeat(61)).error).toMatch(/60 caractères au plus/);
    expect(readCell(row, 'actionCode', '  ')).toEqual({ error: 'Le code action est obligatoire' });
    expect(readCell(row, 'revenue', '100000000001').error).toMatch(/^Montant trop grand : 100.000.000.000 € au plus$/);
    expect(readCell(row, 'revenue', '100000000000').changes).toEqual({ revenue: 1e11 });
  });
});

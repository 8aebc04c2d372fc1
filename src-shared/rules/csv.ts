/**
 * The export-cell rule of every CSV file the product writes (OWASP "CSV injection"): a text cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return is read by Excel and LibreOffice as a formula (=HYPERLINK(...),
 * +cmd|'/C calc'!A0, @SUM(...)) and runs when a colleague opens the file. Such a cell is written with a `'` in
 * front (and quoted, as papaparse writes it), so the spreadsheet shows it as text. Numbers stay numbers: a
 * number-typed value is never touched, nor a text that is only a number (-5, +3, 12.50, -1,5), which no
 * spreadsheet runs.
 *
 * One character list, three readings of it: `needsFormulaEscape` / `escapeFormula` (the JS formatters),
 * `FORMULA_CELL` (papaparse's `escapeFormulae` option) and `FORMULA_CELL_PATTERN` (the same regular expression as
 * text, for PostgreSQL's `~`: the export formatted in SQL). Free of imports: screens, main and the server use it.
 */

/** The first characters that make a spreadsheet read a cell as a formula (OWASP). */
export const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'] as const;
/** What a neutralised cell starts with. */
export const FORMULA_ESCAPE_PREFIX = "'";

const TRIGGER_CODES = new Set<number>(FORMULA_TRIGGERS.map((trigger) => trigger.charCodeAt(0)));
/** A bracket expression of the triggers, '-' last (literal in both JS and PostgreSQL), tab and CR as themselves. */
const TRIGGER_CLASS = `[${FORMULA_TRIGGERS.filter((trigger) => trigger !== '-').join('')}${FORMULA_TRIGGERS.includes('-') ? '-' : ''}]`;
/** A text that is only a number (sign, digits, one decimal point or comma): left as it is. */
const PLAIN_NUMBER_PATTERN = '[+-]?[0-9]+(?:[.,][0-9]+)?$';
const PLAIN_NUMBER = new RegExp(`^${PLAIN_NUMBER_PATTERN}`);

/**
 * A cell to neutralise, as a regular expression's text that reads the same in JavaScript and in PostgreSQL (ARE:
 * negative lookahead, `$` at the end of the text only, `[0-9]`; tab and CR are the characters themselves).
 */
export const FORMULA_CELL_PATTERN = `^(?!${PLAIN_NUMBER_PATTERN})${TRIGGER_CLASS}`;
/**
 * FORMULA_CELL_PATTERN as a RegExp, for papaparse's `escapeFormulae` (a RegExp is taken as is; papaparse tests it
 * on text cells only, never on number, bigint or boolean values). Its own `true` means /^[=+\-@\t\r].*$/, which
 * misses a formula followed by a line break (`.` stops at it, `$` is the text's end: "=1+1\nx", "\r\n=1") and
 * prefixes texts that are plain numbers.
 */
export const FORMULA_CELL = new RegExp(FORMULA_CELL_PATTERN);
/** A cell starting with a trigger, number or not: the cheap first test of a whole row (PostgreSQL and JS). */
export const FORMULA_START_PATTERN = TRIGGER_CLASS;

/**
 * How every CSV file the product writes is laid out, for French Excel: a UTF-8 BOM first (so Excel reads the
 * accents), ';' between cells (',' is the decimal mark), CRLF after each record. The desktop's exports (src-main),
 * the inventory export and the targets export (formatted by the database, src-server) all write these.
 */
export const CSV_BOM = '\uFEFF';
export const CSV_DELIMITER = ';';
export const CSV_NEWLINE = '\r\n';
/** papaparse's `unparse` options for every CSV file written: the layout above and the export-cell rule. */
export const CSV_WRITE_OPTIONS = { delimiter: CSV_DELIMITER, newline: CSV_NEWLINE, escapeFormulae: FORMULA_CELL } as const;

/** Whether a text cell would run as a formula: it starts with a trigger and is not a plain number. */
export function needsFormulaEscape(text: string): boolean {
  return text.length > 0 && TRIGGER_CODES.has(text.charCodeAt(0)) && !PLAIN_NUMBER.test(text);
}

/** A text cell as an export writes it, before CSV quoting: `'` in front of a formula, else unchanged. */
export function escapeFormula(text: string): string {
  return needsFormulaEscape(text) ? FORMULA_ESCAPE_PREFIX + text : text;
}

const QUOTE_BYTE = 0x22;
const LINE_FEED_BYTE = 0x0a;

/**
 * Finds where the records of a CSV byte stream end (the line feed closing each record), chunk after chunk: a line
 * feed inside a quoted cell belongs to the cell. Quote parity is all it takes (an escaped quote "" toggles twice),
 * and the bytes " and \n never occur inside a UTF-8 sequence; a full parser (papaparse) would build every row's
 * cells only to count them.
 */
export class CsvRecordEnds {
  private inQuotes = false;

  /** Calls `recordEnd` with the index of each record-ending line feed of `chunk`, in order. */
  scan(chunk: Uint8Array, recordEnd: (index: number) => void): void {
    let quote = chunk.indexOf(QUOTE_BYTE);
    let lineFeed = chunk.indexOf(LINE_FEED_BYTE);
    for (;;) {
      if (this.inQuotes) {
        if (quote === -1) return;
        this.inQuotes = false;
        if (lineFeed !== -1 && lineFeed < quote) lineFeed = chunk.indexOf(LINE_FEED_BYTE, quote + 1);
        quote = chunk.indexOf(QUOTE_BYTE, quote + 1);
      } else if (lineFeed !== -1 && (quote === -1 || lineFeed < quote)) {
        recordEnd(lineFeed);
        lineFeed = chunk.indexOf(LINE_FEED_BYTE, lineFeed + 1);
      } else if (quote !== -1) {
        this.inQuotes = true;
        quote = chunk.indexOf(QUOTE_BYTE, quote + 1);
      } else return;
    }
  }
}

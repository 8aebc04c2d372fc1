// Types of the parser generated from filter-language.peggy (scripts/filter-parser.ts), as filter-language.ts uses it.

export interface FilterGrammarOptions {
  /** The allowed spelling of a field name, or undefined when it is not allowed. */
  findField(name: string): string | undefined;
  /** The message of an unknown field. */
  unknownField(name: string): string;
  /** The message of a quote that is never closed. */
  unclosedString: string;
}

export interface FilterGrammarExpectation {
  type: 'literal' | 'class' | 'any' | 'end' | 'other';
  text?: string;
  description?: string;
}

export class SyntaxError extends Error {
  expected: FilterGrammarExpectation[] | null;
  found: string | null;
  location: { start: { offset: number; line: number; column: number } };
}

export function parse(input: string, options: FilterGrammarOptions): unknown;

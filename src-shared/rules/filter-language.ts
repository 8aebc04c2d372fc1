/**
 * The filter language shared by the push page's security clause (docs/push.md) and the laboratory tags' queries
 * (docs/laboratory.md): `field = value`, `field != value`, `field in (v1, v2)`, `field not in (...)`, `and`, `or`, `not`,
 * parentheses; values are quoted texts ('...' or "...", a backslash escapes the next character, a doubled quote is
 * one quote), numbers or named parameters (`:name`). Keywords are case-insensitive; so are field names, answered in
 * the spelling of the allowed list. Precedence, tightest first: parentheses, comparisons, not, and, or.
 *
 * Parsed by a grammar compiled with peggy (filter-language.peggy, `npm run filter:generate`): a maintained PEG
 * parser generator whose grammar reads like the language's documentation, whose generated parser has no runtime
 * dependency (the renderer and the server run the same 20 kB module, without the eval the Content-Security-Policy
 * forbids) and reports the offset and the expected tokens of a mistake, from which the French message is made.
 * jsep was the other candidate: an expression parser for JavaScript's syntax, where `not in (...)`, SQL-style
 * quotes and keyword operators are plugins and patches rather than a grammar.
 *
 * The server turns a tree into SQL with every value bound as a parameter (src-server/db/filter-sql.ts); nothing of
 * the text is ever pasted into a query. Free of imports but the generated parser: screens, main and the server use it.
 */
import { parse, SyntaxError as GrammarSyntaxError, type FilterGrammarExpectation } from './filter-language.parser.js';

export type FilterValue = { kind: 'literal'; value: string | number } | { kind: 'param'; name: string };
export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; operand: FilterNode }
  | { kind: 'compare'; field: string; operator: '=' | '!='; value: FilterValue }
  | { kind: 'in'; field: string; negated: boolean; values: FilterValue[] };
export type FilterParseResult = { ok: true; node: FilterNode | null } | { ok: false; message: string; position: number };

/** Longest text parsed (characters); a longer one is refused before the parser sees it. */
export const FILTER_MAX_LENGTH = 20_000;
/** Deepest nesting of parentheses and `not` accepted. */
export const FILTER_MAX_DEPTH = 50;
/** Most values written in one `in (...)`: a longer list belongs in a parameter. */
export const FILTER_MAX_LIST_VALUES = 1_000;
/**
 * Most `:name`s written in one filter: each stands for a whole list, so a short text repeating one would make the
 * server bind that list again and again.
 */
export const FILTER_MAX_PARAM_USES = 100;
/**
 * Most comparisons in one filter: the laboratory counts a tag in memory with one pass over the panel a comparison
 * (a few milliseconds for a million members), so a chain of thousands would hold the server for seconds. Values
 * of one field belong in one `in (...)`.
 */
export const FILTER_MAX_COMPARISONS = 200;

/** A filter that cannot be evaluated (a missing or wrong parameter, a value a field refuses): its French message. */
export class FilterError extends Error {
  override name = 'FilterError';
}

function describeExpectation(expectation: FilterGrammarExpectation): string | undefined {
  if (expectation.type === 'literal') return `« ${expectation.text} »`;
  if (expectation.type === 'end') return 'la fin du texte';
  if (expectation.type === 'other') return expectation.description;
  return undefined; // character classes: the spaces between tokens, never worth naming
}

/** What stands at the mistake: the whole word or number when it is one, else the character. */
function describeFound(text: string, offset: number): string {
  if (offset >= text.length) return 'fin du texte inattendue';
  const word = /^[\p{L}\p{N}_.]+/u.exec(text.slice(offset, offset + 40))?.[0];
  return `« ${word ?? text[offset]} » inattendu`;
}

function syntaxMessage(text: string, error: GrammarSyntaxError, position: number): string {
  // Raised by the grammar's own checks (unknown field, unclosed quote): already in French.
  if (error.expected === null) return `Erreur à la position ${position} : ${error.message}`;
  const expected = [...new Set(error.expected.map(describeExpectation).filter((text) => text !== undefined))];
  const wanted = expected.length > 0 ? ` ; attendu : ${expected.join(', ')}` : '';
  return `Erreur à la position ${position} : ${describeFound(text, position - 1)}${wanted}.`;
}

/** Nesting depth of parentheses-free tree levels of `not` and of changes between `and` and `or`. */
function depth(node: FilterNode): number {
  let deepest = 0;
  const stack: { node: FilterNode; level: number }[] = [{ node, level: 1 }];
  while (stack.length > 0) {
    const { node: current, level } = stack.pop()!;
    deepest = Math.max(deepest, level);
    if (current.kind === 'not') stack.push({ node: current.operand, level: level + 1 });
    else if (current.kind === 'and' || current.kind === 'or') {
      // A chain of one operator (a or b or c) is one level, whatever its length.
      for (const side of [current.left, current.right]) {
        stack.push({ node: side, level: side.kind === current.kind ? level : level + 1 });
      }
    }
  }
  return deepest;
}

/** The first limit on lists and parameters the tree breaks, as its French message. */
function sizeMistake(node: FilterNode): string | undefined {
  let paramUses = 0;
  let comparisons = 0;
  const stack: FilterNode[] = [node];
  while (stack.length > 0) {
    const current: FilterNode = stack.pop()!;
    if (current.kind === 'not') stack.push(current.operand);
    else if (current.kind !== 'compare' && current.kind !== 'in') stack.push(current.left, current.right);
    else {
      comparisons += 1;
      if (comparisons > FILTER_MAX_COMPARISONS) {
        return `Le filtre compte trop de comparaisons (${FILTER_MAX_COMPARISONS} au plus) : regroupez les valeurs d'un champ dans in (...).`;
      }
      const values = current.kind === 'in' ? current.values : [current.value];
      paramUses += values.filter((value) => value.kind === 'param').length;
      if (paramUses > FILTER_MAX_PARAM_USES) return `Le filtre utilise trop de paramètres (${FILTER_MAX_PARAM_USES} au plus).`;
      if (values.length > FILTER_MAX_LIST_VALUES) {
        return `Une liste in (...) du filtre a trop de valeurs (${FILTER_MAX_LIST_VALUES} au plus) : passez-la en paramètre.`;
      }
    }
  }
  return undefined;
}

/** `fields`: the allowed field names (unknown field -> French error with its position). */
export function parseFilter(text: string, fields: readonly string[]): FilterParseResult {
  if (text.length > FILTER_MAX_LENGTH) {
    return {
      ok: false,
      message: `Le filtre est trop long (${FILTER_MAX_LENGTH} caractères au plus).`,
      position: FILTER_MAX_LENGTH + 1,
    };
  }
  const byLowerCase = new Map(fields.map((field) => [field.toLowerCase(), field]));
  try {
    const node = parse(text, {
      findField: (name) => byLowerCase.get(name.toLowerCase()),
      unknownField: (name) => `champ inconnu « ${name} »${fields.length > 0 ? ` ; champs possibles : ${fields.join(', ')}` : ''}.`,
      unclosedString: 'guillemet jamais fermé.',
    }) as FilterNode | null;
    if (node !== null && depth(node) > FILTER_MAX_DEPTH) {
      return { ok: false, message: `Le filtre est trop imbriqué (${FILTER_MAX_DEPTH} niveaux au plus).`, position: 1 };
    }
    const mistake = node === null ? undefined : sizeMistake(node);
    if (mistake !== undefined) return { ok: false, message: mistake, position: 1 };
    return { ok: true, node };
  } catch (error) {
    if (error instanceof GrammarSyntaxError) {
      const position = error.location.start.offset + 1;
      return { ok: false, message: syntaxMessage(text, error, position), position };
    }
    if (error instanceof RangeError) {
      // The parser's recursion ran out of stack: thousands of nested parentheses.
      return { ok: false, message: `Le filtre est trop imbriqué (${FILTER_MAX_DEPTH} niveaux au plus).`, position: 1 };
    }
    throw error;
  }
}

/** Names of the `:params` used, to check a tag's params (each once, in order of first use). */
export function filterParams(node: FilterNode | null): string[] {
  const names = new Set<string>();
  const stack = node === null ? [] : [node];
  const visit = (value: FilterValue) => {
    if (value.kind === 'param') names.add(value.name);
  };
  // Depth first, left to right, without recursion (a long `or` chain is a deep left spine).
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.kind === 'compare') visit(current.value);
    else if (current.kind === 'in') current.values.forEach(visit);
    else if (current.kind === 'not') stack.push(current.operand);
    else stack.push(current.right, current.left);
  }
  return [...names];
}

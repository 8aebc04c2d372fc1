import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FILTER_MAX_COMPARISONS,
  FILTER_MAX_DEPTH,
  FILTER_MAX_LENGTH,
  FILTER_MAX_LIST_VALUES,
  FILTER_MAX_PARAM_USES,
  filterParams,
  parseFilter,
  type FilterNode,
} from '@shared/rules/filter-language';
import { filterParserFile, filterParserSource } from '../../scripts/filter-parser';

const FIELDS = ['name', 'profession', 'os', 'area', 'CRIT_01'] as const;

function parsed(text: string): FilterNode | null {
  const result = parseFilter(text, FIELDS);
  if (!result.ok) throw new Error(`${JSON.stringify(text)}: ${result.message}`);
  return result.node;
}

function failure(text: string): { message: string; position: number } {
  const result = parseFilter(text, FIELDS);
  if (result.ok) throw new Error(`${JSON.stringify(text)} parsed`);
  return { message: result.message, position: result.position };
}

const eq = (field: string, value: string | number): FilterNode => ({
  kind: 'compare',
  field,
  operator: '=',
  value: { kind: 'literal', value },
});

describe('filter language: valid expressions', () => {
  it('reads comparisons, lists, texts, numbers and parameters', () => {
    expect(parsed("name = 'Dupont'")).toEqual(eq('name', 'Dupont'));
    expect(parsed('profession != 12')).toEqual({
      kind: 'compare',
      field: 'profession',
      operator: '!=',
      value: { kind: 'literal', value: 12 },
    });
    expect(parsed(`os in ('ios', "android", :other, -1.5)`)).toEqual({
      kind: 'in',
      field: 'os',
      negated: false,
      values: [
        { kind: 'literal', value: 'ios' },
        { kind: 'literal', value: 'android' },
        { kind: 'param', name: 'other' },
        { kind: 'literal', value: -1.5 },
      ],
    });
    expect(parsed('area not in (1,2)')).toEqual({
      kind: 'in',
      field: 'area',
      negated: true,
      values: [
        { kind: 'literal', value: 1 },
        { kind: 'literal', value: 2 },
      ],
    });
  });

  it('is blank-tolerant: no text is no filter, spaces and line breaks anywhere between tokens', () => {
    expect(parseFilter('', FIELDS)).toEqual({ ok: true, node: null });
    expect(parseFilter(' \n\t ', FIELDS)).toEqual({ ok: true, node: null });
    expect(parsed("\n name='a'\n")).toEqual(eq('name', 'a'));
    expect(parsed('os in(1)')).toEqual(parsed('os  in  ( 1 )'));
  });

  it('takes keywords in any case and answers field names in the allowed spelling', () => {
    expect(parsed("NAME = 'a' AND Not crit_01 NOT IN ('x') Or os = 1")).toEqual(parsed("name = 'a' and not CRIT_01 not in ('x') or os = 1"));
    expect(parsed("crit_01 = 'a'")).toEqual(eq('CRIT_01', 'a'));
  });

  it('reads escaped quotes: backslash, doubled quote, the other quote', () => {
    expect(parsed(String.raw`name = 'l\'eau'`)).toEqual(eq('name', "l'eau"));
    expect(parsed("name = 'l''eau'")).toEqual(eq('name', "l'eau"));
    expect(parsed(`name = "l'eau"`)).toEqual(eq('name', "l'eau"));
    expect(parsed(String.raw`name = "a\"b\\c"`)).toEqual(eq('name', 'a"b\\c'));
    expect(parsed("name = ''")).toEqual(eq('name', ''));
  });

  it('lists the parameters used, each once, in order of first use', () => {
    expect(filterParams(parsed('os = :b and (area in (:a, 1, :b) or not name = :c)'))).toEqual(['b', 'a', 'c']);
    expect(filterParams(null)).toEqual([]);
  });
});

describe('filter language: precedence not > and > or, parentheses first', () => {
  const a = eq('name', 'a');
  const b = eq('os', 'b');
  const c = eq('area', 'c');

  it('binds and tighter than or, on either side', () => {
    expect(parsed("name = 'a' or os = 'b' and area = 'c'")).toEqual({
      kind: 'or',
      left: a,
      right: { kind: 'and', left: b, right: c },
    });
    expect(parsed("name = 'a' and os = 'b' or area = 'c'")).toEqual({
      kind: 'or',
      left: { kind: 'and', left: a, right: b },
      right: c,
    });
  });

  it('binds not tighter than and', () => {
    expect(parsed("not name = 'a' and os = 'b'")).toEqual({ kind: 'and', left: { kind: 'not', operand: a }, right: b });
    expect(parsed("not (name = 'a' and os = 'b')")).toEqual({ kind: 'not', operand: { kind: 'and', left: a, right: b } });
    expect(parsed("not not name = 'a'")).toEqual({ kind: 'not', operand: { kind: 'not', operand: a } });
  });

  it('groups a chain from the left and lets parentheses override', () => {
    expect(parsed("name = 'a' or os = 'b' or area = 'c'")).toEqual({
      kind: 'or',
      left: { kind: 'or', left: a, right: b },
      right: c,
    });
    expect(parsed("(name = 'a' or os = 'b') and area = 'c'")).toEqual({
      kind: 'and',
      left: { kind: 'or', left: a, right: b },
      right: c,
    });
  });
});

describe('filter language: mistakes, in French, with their position (1-based)', () => {
  it.each([
    ["name = 'a' and", 15, 'Erreur à la position 15 : fin du texte inattendue ; attendu : « not », « ( », un nom de champ.'],
    ["name == 'a'", 7, "Erreur à la position 7 : « = » inattendu ; attendu : une valeur ('texte', nombre ou :paramètre)."],
    ['name = Dupont', 8, "Erreur à la position 8 : « Dupont » inattendu ; attendu : une valeur ('texte', nombre ou :paramètre)."],
    ["(name = 'a'", 12, 'Erreur à la position 12 : fin du texte inattendue ; attendu : « and », « or », « ) ».'],
    ["name = 'a')", 11, 'Erreur à la position 11 : « ) » inattendu ; attendu : « and », « or », la fin du texte.'],
    ['os in ()', 8, "Erreur à la position 8 : « ) » inattendu ; attendu : une valeur ('texte', nombre ou :paramètre)."],
    ["name 'a'", 6, "Erreur à la position 6 : « ' » inattendu ; attendu : un opérateur (=, !=, in, not in)."],
    ["name = 'Dupont", 8, 'Erreur à la position 8 : guillemet jamais fermé.'],
    ["name = 'a' && os = 1", 12, 'Erreur à la position 12 : « & » inattendu ; attendu : « and », « or », la fin du texte.'],
  ])('%j', (text, position, message) => {
    expect(failure(text)).toEqual({ position, message });
  });

  it('names an unknown field where it stands and lists the allowed ones', () => {
    expect(failure("name = 'a' or  specialty = 3")).toEqual({
      position: 16,
      message: 'Erreur à la position 16 : champ inconnu « specialty » ; champs possibles : name, profession, os, area, CRIT_01.',
    });
    // A keyword is no field name, but a name that starts like one is an ordinary (here unknown) field.
    expect(failure('notes = 1').message).toContain('champ inconnu « notes »');
    expect(failure('and = 1').position).toBe(1);
  });

  it('refuses texts too long or too deeply nested, without running out of stack', () => {
    expect(failure('x'.repeat(FILTER_MAX_LENGTH + 1))).toEqual({
      position: FILTER_MAX_LENGTH + 1,
      message: `Le filtre est trop long (${FILTER_MAX_LENGTH} caractères au plus).`,
    });
    const nested = `${'('.repeat(FILTER_MAX_DEPTH + 1)}name = 1${')'.repeat(FILTER_MAX_DEPTH + 1)}`;
    expect(parseFilter(nested, FIELDS).ok).toBe(true); // parentheses alone add no level
    expect(failure(`${'not '.repeat(FILTER_MAX_DEPTH + 1)}name = 1`).message).toBe(
      `Le filtre est trop imbriqué (${FILTER_MAX_DEPTH} niveaux au plus).`,
    );
    const deep = `${'('.repeat(3000)}name = 1${')'.repeat(3000)}`;
    expect(failure(deep.replace('name = 1', 'not name = 1 and (os = 1 or (area = 2 and '.repeat(60) + 'name = 1' + '))'.repeat(60))).position).toBe(
      1,
    );
    // A long chain of one operator is one level.
    expect(parseFilter(Array.from({ length: FILTER_MAX_COMPARISONS }, (_, index) => `name = ${index}`).join(' or '), FIELDS).ok).toBe(true);
  });

  it('refuses a list of too many values and too many parameters: a short text naming one list parameter again and again', () => {
    const list = (count: number, value: string) => `CRIT_01 in (${Array.from({ length: count }, () => value).join(', ')})`;
    expect(parseFilter(list(FILTER_MAX_LIST_VALUES, '1'), FIELDS).ok).toBe(true);
    expect(failure(list(FILTER_MAX_LIST_VALUES + 1, '1'))).toEqual({
      position: 1,
      message: `Une liste in (...) du filtre a trop de valeurs (${FILTER_MAX_LIST_VALUES} au plus) : passez-la en paramètre.`,
    });
    expect(parseFilter(list(FILTER_MAX_PARAM_USES, ':x'), FIELDS).ok).toBe(true);
    const tooMany = { position: 1, message: `Le filtre utilise trop de paramètres (${FILTER_MAX_PARAM_USES} au plus).` };
    // The audit's body: 2,000 uses of one list parameter in 8 KB.
    expect(failure(list(2000, ':x'))).toEqual(tooMany);
    expect(failure(Array.from({ length: FILTER_MAX_PARAM_USES + 1 }, () => 'os = :x').join(' or '))).toEqual(tooMany);
  });

  it('refuses too many comparisons: each is a pass over a panel when a tag is counted', () => {
    const chain = (count: number) => Array.from({ length: count }, (_, index) => `(os = ${index} and not name = 'a')`).join(' or ');
    expect(parseFilter(chain(FILTER_MAX_COMPARISONS / 2), FIELDS).ok).toBe(true);
    expect(failure(chain(FILTER_MAX_COMPARISONS / 2 + 1))).toEqual({
      position: 1,
      message: `Le filtre compte trop de comparaisons (${FILTER_MAX_COMPARISONS} au plus) : regroupez les valeurs d'un champ dans in (...).`,
    });
  });
});

describe('filter language: injection attempts stay values', () => {
  it.each([
    ["name = '; DROP TABLE users; --'", '; DROP TABLE users; --'],
    [String.raw`name = '\'; DROP TABLE users; --'`, "'; DROP TABLE users; --"],
    ["name = ''' or 1=1 --'", "' or 1=1 --"],
    [`name = "1) or (1=1"`, '1) or (1=1'],
    ["name = '$1'", '$1'],
    ["name = ':other'", ':other'],
  ])('%j', (text, value) => {
    expect(parsed(text)).toEqual(eq('name', value));
  });

  it('refuses SQL outside quotes at the position where it starts', () => {
    expect(failure("name = 'a'; DROP TABLE users; --").position).toBe(11);
    expect(failure("name = 'a' or 1=1").position).toBe(15);
    expect(failure("name = 'a' -- comment").position).toBe(12);
  });
});

describe('filter language: the committed parser', () => {
  it('is the current compile of filter-language.peggy (npm run filter:generate)', () => {
    expect(readFileSync(filterParserFile, 'utf8')).toBe(filterParserSource());
  });
});

import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_MAX_COMPARISONS, FilterError, parseFilter, type FilterNode, type FilterValue } from '@shared/rules/filter-language';
import type { DatabaseHandle } from '../../src-server/db/client';
import { FILTER_MAX_BOUND_VALUES, filterToSql, type FilterSqlOptions } from '../../src-server/db/filter-sql';
import { rows } from '../../src-server/db/rows';
import { freshDatabase } from '../helpers/database';

/**
 * The filter language evaluated in SQL (src-server/db/filter-sql.ts) on a small table, against the same filter
 * evaluated here in JavaScript, in a database of its own: PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
interface Person {
  id: number;
  name: string | null;
  profession: number | null;
  os: string | null;
}

const HOSTILE = "'; DROP TABLE filter_people; --";
const PEOPLE: Person[] = [
  { id: 1, name: 'Dupont', profession: 10, os: 'ios' },
  { id: 2, name: 'Martin', profession: 20, os: 'android' },
  { id: 3, name: "L'Huillier", profession: 10, os: null },
  { id: 4, name: null, profession: null, os: 'ios' },
  { id: 5, name: HOSTILE, profession: 30, os: 'android' },
  { id: 6, name: 'Zoé', profession: 20, os: 'ios' },
];
const FIELDS = ['name', 'profession', 'os'];
const PARAMS = { who: 'Martin', professions: [10, 30], none: [] as number[], os: 'ios' };

const COLUMNS: FilterSqlOptions['columns'] = {
  name: sql`p.name`,
  os: sql`p.os`,
  profession: {
    column: sql`p.profession`,
    coerce: (value, field) => {
      const number = Number(value);
      if (!Number.isInteger(number)) throw new FilterError(`Le champ « ${field} » attend un nombre entier, pas « ${value} ».`);
      return number;
    },
  },
};

/** The reading the SQL must agree with: two-valued, an empty (NULL) field matches no `=` and no `in`. */
function matches(node: FilterNode | null, person: Person): boolean {
  if (node === null) return true;
  const scalars = (value: FilterValue) =>
    value.kind === 'literal' ? [value.value] : ([] as (string | number)[]).concat(PARAMS[value.name as keyof typeof PARAMS]);
  const field = (name: string) => person[name as keyof Person];
  switch (node.kind) {
    case 'and':
      return matches(node.left, person) && matches(node.right, person);
    case 'or':
      return matches(node.left, person) || matches(node.right, person);
    case 'not':
      return !matches(node.operand, person);
    case 'compare': {
      const value = field(node.field);
      const equal = value !== null && String(value) === String(scalars(node.value)[0]);
      return node.operator === '=' ? equal : !equal;
    }
    case 'in': {
      const value = field(node.field);
      const found = value !== null && node.values.flatMap(scalars).some((item) => String(item) === String(value));
      return node.negated ? !found : found;
    }
  }
}

let database: DatabaseHandle;

async function select(node: FilterNode | null, params: FilterSqlOptions['params'] = PARAMS): Promise<number[]> {
  const found = await rows<{ id: number }>(
    database.db,
    sql`select p.id from filter_people p where ${filterToSql(node, { columns: COLUMNS, params })} order by p.id`,
  );
  return found.map((row) => Number(row.id));
}

function parsed(text: string): FilterNode | null {
  const result = parseFilter(text, FIELDS);
  if (!result.ok) throw new Error(result.message);
  return result.node;
}

beforeAll(async () => {
  database = await freshDatabase();
  await database.db.execute(sql`create table filter_people (id integer primary key, name text, profession integer, os text)`);
  for (const person of PEOPLE) {
    await database.db.execute(sql`insert into filter_people values (${person.id}, ${person.name}, ${person.profession}, ${person.os})`);
  }
});
afterAll(() => database?.close());

describe('filterToSql', () => {
  it.each([
    '',
    "name = 'Dupont'",
    "name != 'Dupont'",
    'profession = 10',
    "profession = '10'",
    'profession != 10',
    "os in ('ios', 'windows')",
    "os not in ('ios')",
    'not os = "ios"',
    'not (os = "ios" or profession = 10)',
    "profession in (10, 20) and not name in ('Zoé') or os = 'android'",
    "name = 'Dupont' or (os = 'ios' and not profession != 20)",
    'name = :who or profession in (:professions, 20)',
    'profession in (:none)',
    'profession not in (:none)',
    'not not os = :os',
    "name = 'L''Huillier'",
  ])('selects what the language means: %j', async (text) => {
    const node = parsed(text);
    const expected = PEOPLE.filter((person) => matches(node, person)).map((person) => person.id);
    expect(await select(node)).toEqual(expected);
  });

  it('binds every value: the hostile text is a value, found as one, and the table survives', async () => {
    const node = parsed(`name = "${HOSTILE}" or name in ('x'' or 1=1 --', :who)`);
    expect(await select(node)).toEqual([2, 5]);
    const query = new PgDialect().sqlToQuery(filterToSql(node, { columns: COLUMNS, params: PARAMS }));
    expect(query.sql).not.toContain('DROP');
    expect(query.sql).not.toContain('1=1');
    expect(query.params).toEqual([HOSTILE, ["x' or 1=1 --", 'Martin']]);
    expect(await rows(database.db, sql`select count(*)::int as n from filter_people`)).toEqual([{ n: PEOPLE.length }]);
  });

  it('refuses a missing parameter, a list where one value is expected and a value the field refuses, in French', () => {
    const build = (text: string, params: FilterSqlOptions['params']) => () => filterToSql(parsed(text), { columns: COLUMNS, params });
    expect(build('name = :absent', PARAMS)).toThrow(new FilterError('Paramètre « :absent » manquant.'));
    expect(build('profession in (:professions)', undefined)).toThrow(new FilterError('Paramètre « :professions » manquant.'));
    expect(build('profession = :professions', PARAMS)).toThrow(
      new FilterError('Le paramètre « :professions » est une liste : utilisez in (...) plutôt que = ou !=.'),
    );
    expect(build("profession = 'dix'", PARAMS)).toThrow(new FilterError('Le champ « profession » attend un nombre entier, pas « dix ».'));
    expect(build('name = 1', PARAMS)).not.toThrow();
    expect(() => filterToSql(parsed('name = 1'), { columns: { os: sql`p.os` } })).toThrow(new FilterError('Champ inconnu « name ».'));
  });

  it('binds a list once, as one array, however long, at each place it is named', async () => {
    const many = Array.from({ length: 5000 }, (_, index) => index + 100);
    const params = { ...PARAMS, many: [...many, 20] };
    const node = parsed('profession in (:many, 30, :many) or os not in (:many, "ios")');
    const query = new PgDialect().sqlToQuery(filterToSql(node, { columns: COLUMNS, params }));
    expect(query.sql).toBe('(p.profession = any($1) or (p.os is null or p.os <> all($2)))');
    expect(query.params).toEqual([
      [...many, 20, 30],
      [...many, 20, 'ios'],
    ]);
    expect(await select(node, params)).toEqual([2, 3, 5, 6]);
  });

  it('refuses, before writing any SQL, a filter binding too many values: the list parameter named again and again', () => {
    // Built by hand: the parser already refuses more than 100 uses of parameters.
    const node: FilterNode = { kind: 'in', field: 'os', negated: false, values: Array.from({ length: 2000 }, () => ({ kind: 'param', name: 'x' })) };
    const params = { x: Array.from({ length: 5000 }, (_, index) => `v${index}`) };
    const started = performance.now();
    expect(() => filterToSql(node, { columns: COLUMNS, params })).toThrow(
      new FilterError(`Le filtre compte trop de valeurs, listes des paramètres comprises (${FILTER_MAX_BOUND_VALUES} au plus).`),
    );
    expect(performance.now() - started).toBeLessThan(50);
    const fits = { x: Array.from({ length: FILTER_MAX_BOUND_VALUES / 2 }, (_, index) => `v${index}`) };
    expect(() => filterToSql({ ...node, values: node.values.slice(0, 2) }, { columns: COLUMNS, params: fits })).not.toThrow();
    expect(() => filterToSql({ ...node, values: node.values.slice(0, 3) }, { columns: COLUMNS, params: fits })).toThrow(FilterError);
  });

  it('writes a long chain of one operator without nesting', () => {
    const text = Array.from({ length: FILTER_MAX_COMPARISONS }, (_, index) => `profession = ${index}`).join(' or ');
    const query = new PgDialect().sqlToQuery(filterToSql(parsed(text), { columns: COLUMNS }));
    expect(query.params).toHaveLength(FILTER_MAX_COMPARISONS);
    expect(query.sql.startsWith('(p.profession = $1 or p.profession = $2 or ')).toBe(true);
  });
});

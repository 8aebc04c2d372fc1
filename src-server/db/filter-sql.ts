/**
 * A filter of the shared filter language (src-shared/rules/filter-language.ts) as an SQL condition. Every value of
 * the text, and every parameter, is a bound parameter of the query; the only SQL written here is the operators and
 * the column expressions the caller trusts (`columns`), never a piece of the filter's text.
 *
 * Two-valued, as the language reads: a row whose column is NULL (empty) matches neither `= v` nor `in (...)`, and so
 * matches `!= v`, `not in (...)` and `not (field = v)`; SQL's three-valued NULL would drop it from both sides.
 *
 * A list is one parameter, an array (`= any($1)`, `<> all($1)`), never one parameter a value: a list parameter
 * named many times would otherwise multiply into millions of bound values. What one filter binds in all is bounded
 * (FILTER_MAX_BOUND_VALUES) and checked before any SQL is built.
 */
import { SQL, sql } from 'drizzle-orm';
import { FilterError, type FilterNode, type FilterValue } from '../../src-shared/rules/filter-language';
import { excludes, visitFilter, type FilterCondition } from '../../src-shared/rules/filter-visit';

type Scalar = string | number;
type ParamValue = Scalar | Scalar[];

/** Most values one filter may bind, parameter lists counted at each place they are named. */
export const FILTER_MAX_BOUND_VALUES = 20_000;

/** A field's column and, optionally, the check or conversion of each of its values (throw a FilterError to refuse). */
export interface FilterColumn {
  column: SQL;
  coerce?: (value: Scalar, field: string) => unknown;
}

export interface FilterSqlOptions {
  /** Each allowed field: its trusted SQL expression (sql`u.profession_id`), or with a value coercion. */
  columns: Record<string, SQL | FilterColumn>;
  /** The values of the `:name`s; a list is allowed in `in (...)` only. */
  params?: Record<string, ParamValue>;
}

function columnOf(options: FilterSqlOptions, field: string): FilterColumn {
  const entry = Object.hasOwn(options.columns, field) ? options.columns[field] : undefined;
  if (entry === undefined) throw new FilterError(`Champ inconnu « ${field} ».`);
  return entry instanceof SQL ? { column: entry } : entry;
}

/** The scalar values one value of the text stands for (a list parameter gives several). */
function valuesOf(value: FilterValue, options: FilterSqlOptions, allowList: boolean): Scalar[] {
  if (value.kind === 'literal') return [value.value];
  const params = options.params ?? {};
  if (!Object.hasOwn(params, value.name)) throw new FilterError(`Paramètre « :${value.name} » manquant.`);
  const given = params[value.name];
  if (Array.isArray(given)) {
    if (!allowList) {
      throw new FilterError(`Le paramètre « :${value.name} » est une liste : utilisez in (...) plutôt que = ou !=.`);
    }
    return given;
  }
  return [given];
}

function coerced(column: FilterColumn, field: string, value: Scalar): unknown {
  return column.coerce ? column.coerce(value, field) : value;
}

function bind(column: FilterColumn, field: string, value: Scalar): SQL {
  return sql`${sql.param(coerced(column, field, value))}`;
}

/** The values the filter would bind, counted without building them (a list parameter at each of its places). */
function boundValues(node: FilterNode, options: FilterSqlOptions): number {
  const params = options.params ?? {};
  const sizeOf = (value: FilterValue) => {
    if (value.kind === 'literal' || !Object.hasOwn(params, value.name)) return 1;
    const given = params[value.name];
    return Array.isArray(given) ? given.length : 1;
  };
  return visitFilter<number>(node, {
    condition: (leaf) => (leaf.kind === 'compare' ? 1 : leaf.values.reduce((total, value) => total + sizeOf(value), 0)),
    combine: (operands) => {
      let total = 0;
      for (const count of operands) total += count;
      return total;
    },
  });
}

/** A comparison, or its negation when `negated` (NOT pushed down to the leaves). */
function conditionSql(node: FilterCondition, negated: boolean, options: FilterSqlOptions): SQL {
  const column = columnOf(options, node.field);
  const excluded = excludes(node, negated);
  if (node.kind === 'compare') {
    const [value] = valuesOf(node.value, options, false);
    return !excluded
      ? sql`${column.column} = ${bind(column, node.field, value)}`
      : sql`${column.column} is distinct from ${bind(column, node.field, value)}`;
  }
  const values = new Set<unknown>();
  for (const value of node.values) for (const scalar of valuesOf(value, options, true)) values.add(coerced(column, node.field, scalar));
  if (values.size === 0) return excluded ? sql`true` : sql`false`;
  const list = sql.param([...values]);
  return excluded ? sql`(${column.column} is null or ${column.column} <> all(${list}))` : sql`${column.column} = any(${list})`;
}

/**
 * NOT is pushed down to the comparisons (filter-visit.ts), so the condition written has no NOT above a comparison: a
 * NULL column then reads as "no match" everywhere, and a plain `column = value` or `column in (...)` stays usable by
 * an index.
 */
function nodeSql(node: FilterNode, options: FilterSqlOptions): SQL {
  return visitFilter<SQL>(node, {
    condition: (leaf, negated) => conditionSql(leaf, negated, options),
    combine: (operands, conjunction) => sql`(${sql.join([...operands], conjunction ? sql` and ` : sql` or `)})`,
  });
}

/**
 * Every value bound as a parameter; `columns` maps each allowed field to a trusted SQL column expression, optionally
 * with a value coercion; `params` gives the values of `:name`s (missing param -> throws a FilterError with a French
 * message). null (no filter) -> sql`true`.
 */
export function filterToSql(node: FilterNode | null, options: FilterSqlOptions): SQL {
  if (node === null) return sql`true`;
  if (boundValues(node, options) > FILTER_MAX_BOUND_VALUES) {
    throw new FilterError(`Le filtre compte trop de valeurs, listes des paramètres comprises (${FILTER_MAX_BOUND_VALUES} au plus).`);
  }
  return nodeSql(node, options);
}

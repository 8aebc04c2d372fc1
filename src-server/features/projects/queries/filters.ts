import { sql, type SQL } from 'drizzle-orm';
import { foldForSearch } from '../../../db/schema';
import { param } from '../../../db/rows';

/** One value is an equality (the planner then walks a composite index in order); several, = ANY. */
export const inList = (column: SQL, values: unknown[] | undefined, cast: string) =>
  !values || !values.length
    ? undefined
    : values.length === 1
      ? sql`${column} = ${param(values[0])}::${sql.raw(cast.replace('[]', ''))}`
      : sql`${column} = ANY(${param(values)}::${sql.raw(cast)})`;
export const between = (column: SQL, range: { from: number; to: number } | undefined) =>
  range ? sql`${column} BETWEEN ${range.from} AND ${range.to}` : undefined;
export const withinNumbers = (column: SQL, range: { min: number; max: number } | undefined) =>
  range ? sql`${column} BETWEEN ${range.min} AND ${range.max}` : undefined;
export const and = (parts: (SQL | undefined)[]) => {
  const present = parts.filter((part): part is SQL => part !== undefined);
  return present.length ? sql.join(present, sql` AND `) : sql`TRUE`;
};
/** A term for LIKE, its wildcards kept as letters. */
export const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The LIKE pattern of a term folded as search keys are, by the same SQL expression (foldForSearch). */
export function foldedLikeTerm(term: string): SQL {
  return foldForSearch(sql`${likeTerm(term)}`);
}

import { sql, type SQL } from 'drizzle-orm';

/**
 * A PostgreSQL array literal of texts or numbers, to bind as one text parameter cast to the array type
 * (`${arrayLiteral(ids)}::int[]`): node-postgres escapes each element of an array parameter with two regular
 * expressions, a quarter of a second for a 50,000-event batch; this does it in a few milliseconds. No nulls.
 */
export function arrayLiteral(values: ArrayLike<string | number>): SQL {
  let literal = '{';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (index > 0) literal += ',';
    if (typeof value === 'number') literal += value;
    else literal += NEEDS_ESCAPE.test(value) ? `"${value.replace(ESCAPED, '\\$&')}"` : `"${value}"`;
  }
  return sql`${`${literal}}`}`;
}
const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

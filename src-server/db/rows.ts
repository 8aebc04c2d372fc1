import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';

/** A drizzle database or transaction: both run `execute`. */
export type Executor = Pick<Database, 'execute'>;

/** Rows of a raw statement (arrays are bound as one parameter with `param`: PGlite and node-postgres alike). */
export async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A value bound as one parameter, arrays included (`= ANY(${param(ids)}::int[])`). */
export const param = (value: unknown) => sql.param(value);

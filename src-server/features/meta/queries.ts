import { asc, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts, audiences } from '../../db/schema';

/** The accounts holding CSM, by name: the CSM picker of the forms. */
export function listCsmAccounts(db: Database) {
  return db
    .select({ id: accounts.id, name: accounts.name })
    .from(accounts)
    .where(sql`'CSM' = ANY(${accounts.roles})`)
    .orderBy(asc(sql`lower(${accounts.name})`), asc(accounts.id));
}

/** Every audience by name, for the pickers (GET /meta). */
export function listAudiences(db: Database) {
  return db
    .select({ id: audiences.id, name: audiences.name })
    .from(audiences)
    .orderBy(asc(sql`lower(${audiences.name})`), asc(audiences.id));
}

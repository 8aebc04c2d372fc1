import { and, asc, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@shared/roles';
import { accountColumns, type AccountFields } from '../../accounts/account';
import { emailIs } from '../../accounts/queries';
import type { Database } from '../../db/client';
import { accounts, foldForSearch } from '../../db/schema';
import { bumpVersion } from '../../db/versioning';

/** SQL of account administration. */

/** An Account's columns (accounts/account.ts) and what the versioning reads. */
const adminAccountColumns = {
  ...accountColumns,
  version: accounts.version,
  updatedAt: accounts.updatedAt,
  updatedBy: accounts.updatedBy,
};

export type AccountRow = AccountFields & {
  version: number;
  updatedAt: Date;
  updatedBy: number | null;
};

/** `%` and `_` typed by a user are letters, not wildcards (folding leaves `\`, `%` and `_` alone). */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Accounts whose name, nickname or e-mail contains `term`, whatever its accents and case ('Chloe' finds 'Chloé'). */
function matching(term: string | undefined): SQL | undefined {
  if (!term) return undefined;
  return sql`${accounts.searchKey} LIKE ${foldForSearch(sql`${likePattern(term)}`)}`;
}

/** One page of accounts by name (case-insensitive, then id), and the total matching `term`. */
export async function listAccounts(db: Database, page: { limit: number; skip: number; term?: string }) {
  const where = matching(page.term);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(adminAccountColumns)
      .from(accounts)
      .where(where)
      .orderBy(asc(sql`lower(${accounts.name})`), asc(accounts.id))
      .limit(page.limit)
      .offset(page.skip),
    db.select({ total: count() }).from(accounts).where(where),
  ]);
  return { rows: rows as AccountRow[], total };
}

export async function findAccount(db: Database, id: number): Promise<AccountRow | undefined> {
  const [row] = await db.select(adminAccountColumns).from(accounts).where(eq(accounts.id, id));
  return row;
}

/** Whether another account than `exceptId` already uses `email`, whatever its case. */
export async function emailTaken(db: Database, email: string, exceptId?: number): Promise<boolean> {
  const [taken] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(exceptId ? and(emailIs(email), ne(accounts.id, exceptId)) : emailIs(email));
  return Boolean(taken);
}

export async function insertAccount(
  db: Database,
  account: { name: string; nickname: string; email: string; roles: Role[]; passwordHash: string },
): Promise<AccountRow> {
  const [row] = await db.insert(accounts).values(account).returning(adminAccountColumns);
  return row;
}

/** The row of `id` at `version` (any version when absent): a write based on an older one changes nothing. */
const atVersion = (id: number, version: number | undefined) =>
  version === undefined ? eq(accounts.id, id) : and(eq(accounts.id, id), eq(accounts.version, version));

/**
 * Updates the account when it is still at `version` (docs/architecture.md, "Versions and conflicts"), bumping
 * its version in the name of `by`; undefined when it is not (stale) or gone.
 */
export async function updateAccount(
  db: Database,
  id: number,
  change: { fields: { name?: string; nickname?: string; email?: string; roles?: Role[] }; version?: number; by: number | null },
  now: Date,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ ...change.fields, updatedAt: now, ...bumpVersion(accounts, change.by) })
    .where(atVersion(id, change.version))
    .returning(adminAccountColumns);
  return row as AccountRow | undefined;
}

/** Deletes the account unless it holds ADMIN (checked in the statement itself); returns whether a row went. */
export async function deleteNonAdminAccount(db: Database, id: number, version?: number): Promise<boolean> {
  // Refresh tokens and reset links go with the row (ON DELETE CASCADE); access tokens die with the account lookup.
  const deleted = await db
    .delete(accounts)
    .where(and(atVersion(id, version), sql`NOT ('ADMIN' = ANY(${accounts.roles}))`))
    .returning({ id: accounts.id });
  return deleted.length > 0;
}

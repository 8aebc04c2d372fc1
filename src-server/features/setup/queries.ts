import { count, sql } from 'drizzle-orm';
import { accountColumns } from '../../accounts/account';
import type { Database } from '../../db/client';
import { accounts } from '../../db/schema';

export async function hasAnyAccount(db: Database): Promise<boolean> {
  const [{ total }] = await db.select({ total: count() }).from(accounts);
  return total > 0;
}

/** Lock key of the first-administrator creation: concurrent calls run one after the other. */
const SETUP_LOCK = 7201002;

/**
 * Creates the first account, holding ADMIN, only if no account exists: under a transaction-scoped advisory lock,
 * so that of two concurrent calls (or a call racing BACKOFFICE_ADMIN_* at start) exactly one creates it.
 * Returns null when an account already existed.
 */
export async function insertFirstAdmin(db: Database, fields: { name: string; email: string; passwordHash: string }) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`);
    const [{ total }] = await tx.select({ total: count() }).from(accounts);
    if (total > 0) return null;
    const [row] = await tx
      .insert(accounts)
      .values({
        name: fields.name,
        nickname: fields.name.split(' ')[0] ?? '',
        email: fields.email,
        passwordHash: fields.passwordHash,
        roles: ['ADMIN'],
      })
      .returning(accountColumns);
    return row;
  });
}

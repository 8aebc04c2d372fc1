import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, passwordResetTokens } from '../db/schema';

/**
 * SQL on accounts that more than one feature needs (the guard, sign-in, administration). A query used by one
 * feature only lives in that feature's queries.ts.
 */

/** E-mails are unique whatever their case (index accounts_email_lower_key). */
export const emailIs = (email: string) => sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`;

/** What the guard needs on every call: roles as they are now, and the cut-off of tokens issued before it. */
export async function findAccountForGuard(db: Database, accountId: number) {
  const [row] = await db
    .select({ id: accounts.id, roles: accounts.roles, tokensValidAfter: accounts.tokensValidAfter })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row;
}

export async function insertPasswordLink(db: Database, link: { tokenHash: string; accountId: number; expiresAt: Date }): Promise<void> {
  await db.insert(passwordResetTokens).values(link);
}

/** Whether a database error is a unique-constraint violation (23505), wherever drizzle wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

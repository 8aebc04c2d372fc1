import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, passwordResetTokens, refreshTokens } from '../db/schema';

/**
 * SQL on accounts that more than one feature needs (the guard, sign-in, administration). A query used by one
 * feature only lives in that feature's queries.ts.
 */

/** E-mails are unique whatever their case (index accounts_email_lower_key). */
export const emailIs = (email: string) => sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`;

/**
 * What the guard needs on every call, in one query: roles as they are now, the cut-off of tokens issued before it,
 * and whether the token's session (refresh family) was revoked (refresh-token reuse). Read from the database (kept
 * a few seconds by auth/account-cache.ts, told of each change), so a revocation made by any API instance holds on
 * all of them; the family lookup uses refresh_tokens_family_idx.
 */
export async function findAccountForGuard(db: Database, accountId: number, familyId: string | undefined) {
  const familyRevoked = familyId
    ? sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${familyId} and ${refreshTokens.revokedAt} is not null)`
    : sql<boolean>`false`;
  const [row] = await db
    .select({ id: accounts.id, roles: accounts.roles, tokensValidAfter: accounts.tokensValidAfter, familyRevoked })
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

/** Kills every password link of the account not used yet (they were mailed to an address it may no longer own). */
export async function revokePasswordLinks(db: Database, accountId: number, now: Date): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.accountId, accountId), isNull(passwordResetTokens.usedAt)));
}

/** Ends every session of the account: access tokens issued before `now` are refused, refresh tokens revoked. */
export async function endSessions(db: Database, accountId: number, now: Date): Promise<void> {
  await db.update(accounts).set({ tokensValidAfter: now }).where(eq(accounts.id, accountId));
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.accountId, accountId), isNull(refreshTokens.revokedAt)));
}

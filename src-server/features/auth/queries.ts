import { and, eq, gt, isNull } from 'drizzle-orm';
import { emailIs } from '../../accounts/queries';
import type { Database } from '../../db/client';
import { accounts, passwordResetTokens, refreshTokens } from '../../db/schema';

/** SQL of sign-in, refresh and password links. `db` may be a transaction. */

export async function findAccountByEmail(db: Database, email: string) {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, roles: accounts.roles, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(emailIs(email));
  return row;
}

export async function findAccountRoles(db: Database, accountId: number) {
  const [row] = await db.select({ id: accounts.id, roles: accounts.roles }).from(accounts).where(eq(accounts.id, accountId));
  return row;
}

export async function insertRefreshToken(db: Database, token: { id: string; accountId: number; familyId: string; expiresAt: Date }): Promise<void> {
  await db.insert(refreshTokens).values(token);
}

/** Marks a refresh token used if it is still fresh: of two concurrent uses of one token, exactly one gets a row. */
export async function claimRefreshToken(db: Database, jti: string, now: Date) {
  const [used] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.id, jti), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now)))
    .returning({ accountId: refreshTokens.accountId, familyId: refreshTokens.familyId, expiresAt: refreshTokens.expiresAt });
  return used;
}

export async function findRefreshToken(db: Database, jti: string) {
  const [row] = await db
    .select({
      accountId: refreshTokens.accountId,
      familyId: refreshTokens.familyId,
      usedAt: refreshTokens.usedAt,
      revokedAt: refreshTokens.revokedAt,
      expiresAt: refreshTokens.expiresAt,
    })
    .from(refreshTokens)
    .where(eq(refreshTokens.id, jti));
  return row;
}

export async function revokeRefreshFamily(db: Database, familyId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** The account of an unused, unexpired password link. */
export async function findLiveResetToken(db: Database, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ accountId: passwordResetTokens.accountId })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)));
  return row;
}

/**
 * Uses the link once and sets the password: every other link of the account dies with it, and every session
 * signed in before now ends. Returns the account's id, or null when another request used the link first.
 */
export async function setPasswordWithLink(db: Database, tokenHash: string, passwordHash: string, now: Date): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt)))
      .returning({ accountId: passwordResetTokens.accountId });
    if (!claimed) return null;
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.accountId, claimed.accountId), isNull(passwordResetTokens.usedAt)));
    await tx.update(accounts).set({ passwordHash, tokensValidAfter: now, updatedAt: now }).where(eq(accounts.id, claimed.accountId));
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.accountId, claimed.accountId), isNull(refreshTokens.revokedAt)));
    return claimed.accountId;
  });
}

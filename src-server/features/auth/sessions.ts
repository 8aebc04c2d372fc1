import { randomUUID } from 'node:crypto';
import type { Session } from '@shared/contract';
import { isRole } from '@shared/roles';
import type { TokenService } from '../../auth/tokens';
import type { Database } from '../../db/client';
import { insertRefreshToken } from './queries';

/**
 * Builds a Session (spec §3): a new refresh token of `familyId` stored in `db` (a transaction on refresh), and
 * an access token that never outlives the session's absolute end. Sign-in and refresh both go through here.
 */
export function createSessionIssuer(tokens: TokenService) {
  return async function issueSession(
    db: Database,
    account: { id: number; roles: string[] },
    familyId: string,
    sessionEndsAt: Date,
    refreshToken: { id: string; stored: boolean } = { id: randomUUID(), stored: false },
  ): Promise<Session> {
    // A refresh token already stored (the successor handed again within the rotation grace window) gets no new row.
    if (!refreshToken.stored) await insertRefreshToken(db, { id: refreshToken.id, accountId: account.id, familyId, expiresAt: sessionEndsAt });
    const access = await tokens.signAccess(account.id, familyId, sessionEndsAt);
    const refresh = await tokens.signRefresh(account.id, refreshToken.id, familyId, sessionEndsAt);
    return {
      accessToken: { value: access.value, expiresAt: access.expiresAt.toISOString() },
      refreshToken: { value: refresh, expiresAt: sessionEndsAt.toISOString() },
      userId: account.id,
      roles: account.roles.filter(isRole),
    };
  };
}

export type IssueSession = ReturnType<typeof createSessionIssuer>;

import { createHash, timingSafeEqual } from 'node:crypto';
import { MESSAGES } from '@shared/messages';
import { isAllowed, isRole, type Access, type Role } from '@shared/roles';
import type { ServerContext } from '../context';
import { HttpError } from '../errors';

/**
 * Checks the bearer token and the operation's role rule. Roles are read from the database, kept a few seconds
 * (auth/account-cache.ts), so a role removed or an account deleted takes effect at the next call, not when the
 * access token expires: each change tells the cache.
 */
export async function authorize(
  context: ServerContext,
  rule: Access,
  authorization: string | undefined,
): Promise<{ id: number; roles: Role[] } | null> {
  if (rule.kind === 'public') return null;
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization ?? '');
  if (!match) throw new HttpError(401, MESSAGES.authenticationRequired, { 'www-authenticate': 'Bearer' });
  const token = await context.tokens.verify(match[1], 'access');
  if (!token) throw new HttpError(401, MESSAGES.invalidToken, { 'www-authenticate': 'Bearer error="invalid_token"' });
  const row = await context.accountCache.get(token.accountId, token.familyId);
  const cutoff = row?.tokensValidAfter?.getTime() ?? 0;
  if (!row || token.issuedAt.getTime() < cutoff || row.familyRevoked) {
    throw new HttpError(401, MESSAGES.invalidToken, { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  const roles = row.roles.filter(isRole);
  if (!isAllowed(rule, roles)) throw new HttpError(403, MESSAGES.userNotAllowed);
  return { id: row.id, roles };
}

/**
 * Whether the bearer is the configured service token of that name. Both sides are hashed first so that the
 * comparison is constant-time whatever the lengths; an unset token accepts nothing.
 */
export function isServiceToken(context: ServerContext, name: 'ingest', authorization: string | undefined): boolean {
  const expected = name === 'ingest' ? context.config.ingestToken : undefined;
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  if (!expected || !match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(expected));
}

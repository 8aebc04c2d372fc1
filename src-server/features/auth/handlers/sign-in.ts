import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { MESSAGES } from '@shared/messages';
import { sendPasswordLink } from '../../../accounts/password-links';
import { hashPassword, passwordProblem, verifyPassword } from '../../../auth/passwords';
import { addressKey, reserveAttempt, type FailureLimiter, type SignInThrottle } from '../../../auth/rate-limit';
import { DEVICE_TOKEN_TTL_MS, REFRESH_REUSE_GRACE_MS, SESSION_TTL_MS, sha256, successorId } from '../../../auth/tokens';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import * as queries from '../queries';
import type { IssueSession } from '../sessions';

export type AuthHandlers = Pick<Handlers, 'auth.signIn' | 'auth.refresh' | 'auth.merge' | 'password.reset' | 'password.confirm'>;

/** What the auth module builds for its handlers; nothing else in the server uses these. */
export interface AuthServices {
  /** Sign-in limits and slow-down (policy in auth/rate-limit.ts). */
  signInThrottle: SignInThrottle;
  /** Counts reset mails per account, so that nobody can flood a colleague's mailbox. */
  resetMailLimiter: FailureLimiter;
  /** Counts reset requests per address (every request, whatever the account). */
  resetAddressLimiter: FailureLimiter;
  /** A hash to verify against when the account does not exist, so both answers take as long. */
  decoyPasswordHash: string;
  issueSession: IssueSession;
}

function tooMany(retryAfterMs: number, message: string = MESSAGES.tooManyAttempts): HttpError {
  return new HttpError(429, message, { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) });
}

export function authHandlers(context: ServerContext, services: AuthServices): AuthHandlers {
  const { db, clock } = context;
  const { signInThrottle, resetMailLimiter, resetAddressLimiter, issueSession } = services;
  return {
    'auth.signIn': async ({ body, request }) => {
      // Counted before the hash, uncounted on success: parallel guesses cannot all pass a check made before any failed.
      // A device token counts only for the username it was issued for.
      const deviceId = body.deviceToken ? (context.tokens.verifyDevice(body.deviceToken, body.username)?.id ?? null) : null;
      const attempt = signInThrottle.begin(body.username, request.ip, deviceId);
      if (attempt.refused) throw tooMany(attempt.retryAfterMs);
      // Whatever happens, the attempt is settled: an account past the threshold has one attempt in flight, and an
      // attempt never settled would hold it for good.
      let valid: boolean;
      let account: Awaited<ReturnType<typeof queries.findAccountByEmail>>;
      try {
        if (attempt.delayMs > 0) await setTimeout(attempt.delayMs);
        account = await queries.findAccountByEmail(db, body.username);
        // Verify against a decoy when the account does not exist: same work, same time, same answer. The queue
        // lane depends on the address only (see HashLane).
        valid = await context.passwordHashing.run(
          () => verifyPassword(body.password, account?.passwordHash ?? services.decoyPasswordHash),
          attempt.clean ? 'priority' : 'restricted',
        );
      } catch (error) {
        attempt.notChecked(error instanceof HttpError && error.statusCode === 503);
        throw error;
      }
      if (!account || !valid) {
        attempt.failed();
        throw new HttpError(401, MESSAGES.invalidCredentials);
      }
      attempt.succeeded();
      const now = clock.now().getTime();
      const session = await issueSession(db, account, randomUUID(), new Date(now + SESSION_TTL_MS));
      return { ...session, deviceToken: context.tokens.signDevice(body.username, new Date(now + DEVICE_TOKEN_TTL_MS)) };
    },

    'auth.refresh': async ({ body }) => {
      const invalid = new HttpError(401, MESSAGES.invalidRefreshToken);
      const token = await context.tokens.verify(body.token, 'refresh');
      if (!token) throw invalid;
      const now = clock.now();
      let revokedFor: number | null = null;
      const session = await db.transaction(async (tx) => {
        const used = await queries.claimRefreshToken(tx, token.jti, now);
        if (used) {
          const account = await queries.findAccountRoles(tx, used.accountId);
          // Rotation keeps the family and never extends the session's absolute end.
          return account ? issueSession(tx, account, used.familyId, used.expiresAt, { id: successorId(token.jti), stored: false }) : null;
        }
        const known = await queries.findRefreshToken(tx, token.jti);
        if (!known?.usedAt || known.revokedAt || known.expiresAt <= now) return null;
        // Two honest refreshes of one token (two windows, a retried request) within the grace window get the
        // same successor, as long as that successor has not been used itself.
        if (now.getTime() - known.usedAt.getTime() <= REFRESH_REUSE_GRACE_MS) {
          const successor = await queries.findRefreshToken(tx, successorId(token.jti));
          const account = await queries.findAccountRoles(tx, known.accountId);
          if (successor && !successor.usedAt && !successor.revokedAt && account) {
            return issueSession(tx, account, known.familyId, known.expiresAt, { id: successorId(token.jti), stored: true });
          }
        }
        // A rotated token came back: someone holds a copy. End the whole sign-in, its access tokens included.
        await queries.revokeRefreshFamily(tx, known.familyId, now);
        context.logger.warn({ accountId: token.accountId, familyId: known.familyId }, 'refresh token reused: family revoked');
        revokedFor = known.accountId;
        return null;
      });
      if (revokedFor !== null) context.accountCache.changed(revokedFor);
      if (!session) throw invalid;
      return session;
    },

    'auth.merge': async () => {
      throw new HttpError(501, MESSAGES.mergeNotAvailable);
    },

    'password.reset': async ({ body, request }) => {
      const attempt = reserveAttempt([[resetAddressLimiter, addressKey(request.ip)]]);
      if ('retryAfterMs' in attempt) throw tooMany(attempt.retryAfterMs, MESSAGES.tooManyResetRequests);
      // The answer waits for nothing that depends on the account: lookup, link and mail all happen after it, so
      // known and unknown usernames get the same work before the same answer.
      context.background.run('password reset', async () => {
        const account = await queries.findAccountByEmail(db, body.username);
        // Whatever happens, one answer: it must not tell whether the account exists, nor that mail is capped.
        if (!account) context.logger.info('password reset asked for an unknown username');
        else if (resetMailLimiter.retryAfterMs(String(account.id)) > 0) context.logger.warn({ accountId: account.id }, 'password reset mails capped');
        else {
          resetMailLimiter.recordFailure(String(account.id));
          await sendPasswordLink(context, account, 'reset');
        }
      });
      return { message: MESSAGES.resetAccepted };
    },

    'password.confirm': async ({ body }) => {
      const now = clock.now();
      const tokenHash = sha256(body.confirmationToken);
      if (!(await queries.findLiveResetToken(db, tokenHash, now))) throw new HttpError(400, MESSAGES.invalidConfirmationToken);
      const problem = await passwordProblem(body.password);
      if (problem) throw new HttpError(400, problem);
      const passwordHash = await context.passwordHashing.run(() => hashPassword(body.password));
      const accountId = await queries.setPasswordWithLink(db, tokenHash, passwordHash, now);
      if (accountId === null) throw new HttpError(400, MESSAGES.invalidConfirmationToken);
      context.accountCache.changed(accountId);
      return { message: MESSAGES.passwordChanged };
    },
  };
}

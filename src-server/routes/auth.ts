import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Session } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { isRole } from '@shared/roles';
import { hashPassword, passwordProblem, verifyPassword } from '../auth/passwords';
import { RESET_TOKEN_TTL_MS, SESSION_TTL_MS, sha256 } from '../auth/tokens';
import type { ServerContext } from '../context';
import { accounts, passwordResetTokens, refreshTokens } from '../db/schema';
import { HttpError } from '../errors';
import type { Handlers } from './register';

type AuthHandlers = Pick<Handlers, 'auth.signIn' | 'auth.refresh' | 'auth.merge' | 'password.reset' | 'password.confirm'>;

const byEmail = (email: string) => sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`;

/** Issues an access token and a refresh token of `familyId`, ending the session at `sessionEndsAt`. */
async function issueSession(
  context: ServerContext,
  account: { id: number; roles: string[] },
  familyId: string,
  sessionEndsAt: Date,
): Promise<Session> {
  const jti = randomUUID();
  await context.db.insert(refreshTokens).values({ id: jti, accountId: account.id, familyId, expiresAt: sessionEndsAt });
  const access = await context.tokens.signAccess(account.id);
  // The access token never outlives the session.
  const accessExpiresAt = access.expiresAt < sessionEndsAt ? access.expiresAt : sessionEndsAt;
  const refresh = await context.tokens.signRefresh(account.id, jti, familyId, sessionEndsAt);
  return {
    accessToken: { value: access.value, expiresAt: accessExpiresAt.toISOString() },
    refreshToken: { value: refresh, expiresAt: sessionEndsAt.toISOString() },
    userId: account.id,
    roles: account.roles.filter(isRole),
  };
}

function tooMany(retryAfterMs: number): HttpError {
  return new HttpError(429, MESSAGES.tooManyAttempts, { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) });
}

/** Sends a single-use link to choose a password; valid one hour. */
export async function sendPasswordLink(context: ServerContext, account: { id: number; email: string }, welcome: boolean) {
  const token = randomBytes(32).toString('base64url');
  await context.db.insert(passwordResetTokens).values({
    tokenHash: sha256(token),
    accountId: account.id,
    expiresAt: new Date(context.clock.now().getTime() + RESET_TOKEN_TTL_MS),
  });
  const link = `${context.config.resetLinkBase.replace(/\/+$/, '')}/password/confirm?confirmationToken=${token}`;
  await context.mailer.send({
    to: account.email,
    subject: welcome ? 'Votre compte back-office' : 'Réinitialisation de votre mot de passe',
    text: [
      welcome
        ? 'Un compte back-office vient d’être créé pour vous. Choisissez votre mot de passe en suivant ce lien :'
        : 'Pour choisir un nouveau mot de passe, suivez ce lien :',
      link,
      'Ce lien est valable une heure et ne peut servir qu’une fois.',
    ].join('\n\n'),
  });
}

export function authHandlers(context: ServerContext): AuthHandlers {
  const { db, clock } = context;
  return {
    'auth.signIn': async ({ body, request }) => {
      const usernameKey = body.username.toLowerCase();
      const wait = Math.max(context.usernameLimiter.retryAfterMs(usernameKey), context.addressLimiter.retryAfterMs(request.ip));
      if (wait > 0) throw tooMany(wait);
      const [account] = await db
        .select({ id: accounts.id, roles: accounts.roles, passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(byEmail(body.username));
      // Verify against a decoy when the account does not exist: same work, same time, same answer.
      const valid = await verifyPassword(body.password, account?.passwordHash ?? context.decoyPasswordHash);
      if (!account || !valid) {
        context.usernameLimiter.recordFailure(usernameKey);
        context.addressLimiter.recordFailure(request.ip);
        throw new HttpError(401, MESSAGES.invalidCredentials);
      }
      context.usernameLimiter.reset(usernameKey);
      return issueSession(context, account, randomUUID(), new Date(clock.now().getTime() + SESSION_TTL_MS));
    },

    'auth.refresh': async ({ body }) => {
      const invalid = new HttpError(401, MESSAGES.invalidRefreshToken);
      const token = await context.tokens.verify(body.token, 'refresh');
      if (!token) throw invalid;
      const now = clock.now();
      return db.transaction(async (tx) => {
        // Mark used only if still fresh: of two concurrent uses of one token, exactly one wins.
        const [used] = await tx
          .update(refreshTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(refreshTokens.id, token.jti),
              isNull(refreshTokens.usedAt),
              isNull(refreshTokens.revokedAt),
              gt(refreshTokens.expiresAt, now),
            ),
          )
          .returning({ accountId: refreshTokens.accountId, familyId: refreshTokens.familyId, expiresAt: refreshTokens.expiresAt });
        if (!used) {
          const [known] = await tx.select({ familyId: refreshTokens.familyId, usedAt: refreshTokens.usedAt }).from(refreshTokens).where(eq(refreshTokens.id, token.jti));
          if (known?.usedAt) {
            // A rotated token came back: someone holds a copy. End the whole sign-in.
            await tx.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.familyId, known.familyId), isNull(refreshTokens.revokedAt)));
            context.logger.warn({ accountId: token.accountId, familyId: known.familyId }, 'refresh token reused: family revoked');
          }
          return null;
        }
        const [account] = await tx.select({ id: accounts.id, roles: accounts.roles }).from(accounts).where(eq(accounts.id, used.accountId));
        if (!account) return null;
        const jti = randomUUID();
        await tx.insert(refreshTokens).values({ id: jti, accountId: account.id, familyId: used.familyId, expiresAt: used.expiresAt });
        const access = await context.tokens.signAccess(account.id);
        const accessExpiresAt = access.expiresAt < used.expiresAt ? access.expiresAt : used.expiresAt;
        return {
          accessToken: { value: access.value, expiresAt: accessExpiresAt.toISOString() },
          refreshToken: { value: await context.tokens.signRefresh(account.id, jti, used.familyId, used.expiresAt), expiresAt: used.expiresAt.toISOString() },
          userId: account.id,
          roles: account.roles.filter(isRole),
        } satisfies Session;
      }).then((session) => {
        if (!session) throw invalid;
        return session;
      });
    },

    'auth.merge': async () => {
      throw new HttpError(501, MESSAGES.mergeNotAvailable);
    },

    'password.reset': async ({ body }) => {
      const [account] = await db.select({ id: accounts.id, email: accounts.email }).from(accounts).where(byEmail(body.username));
      // Whatever happens, one answer: it must not tell whether the account exists, nor that mail is capped.
      if (!account) context.logger.info('password reset asked for an unknown username');
      else if (context.resetMailLimiter.retryAfterMs(String(account.id)) > 0) context.logger.warn({ accountId: account.id }, 'password reset mails capped');
      else {
        context.resetMailLimiter.recordFailure(String(account.id));
        await sendPasswordLink(context, account, false);
      }
      return { message: MESSAGES.resetAccepted };
    },

    'password.confirm': async ({ body }) => {
      const now = clock.now();
      const [reset] = await db
        .select({ accountId: passwordResetTokens.accountId })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.tokenHash, sha256(body.confirmationToken)),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        );
      if (!reset) throw new HttpError(400, MESSAGES.invalidConfirmationToken);
      const problem = await passwordProblem(body.password);
      if (problem) throw new HttpError(400, problem);
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(and(eq(passwordResetTokens.tokenHash, sha256(body.confirmationToken)), isNull(passwordResetTokens.usedAt)))
          .returning({ accountId: passwordResetTokens.accountId });
        if (!claimed) throw new HttpError(400, MESSAGES.invalidConfirmationToken);
        // Every other link of the account dies with this one, and every session signed in before now ends.
        await tx.update(passwordResetTokens).set({ usedAt: now }).where(and(eq(passwordResetTokens.accountId, claimed.accountId), isNull(passwordResetTokens.usedAt)));
        await tx.update(accounts).set({ passwordHash, tokensValidAfter: now, updatedAt: now }).where(eq(accounts.id, claimed.accountId));
        await tx.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.accountId, claimed.accountId), isNull(refreshTokens.revokedAt)));
      });
      return { message: MESSAGES.passwordChanged };
    },
  };
}

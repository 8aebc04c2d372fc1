import { createHash, timingSafeEqual } from 'node:crypto';
import { SETUP_MESSAGES } from '@shared/messages';
import { toAccount } from '../../../accounts/account';
import { hashPassword, passwordProblem } from '../../../auth/passwords';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { hasAnyAccount, insertFirstAdmin } from '../queries';

export type SetupHandlers = Pick<Handlers, 'setup.status' | 'setup.createAdmin'>;

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function setupHandlers(context: ServerContext): SetupHandlers {
  const expected = context.config.setupToken;
  return {
    'setup.status': async () => ({ needed: !(await hasAnyAccount(context.db)), available: Boolean(expected) }),

    'setup.createAdmin': async ({ body }) => {
      if (!expected) throw new HttpError(404, SETUP_MESSAGES.unavailable);
      if (!sameToken(body.setupToken, expected)) throw new HttpError(403, SETUP_MESSAGES.badSetupToken);
      if (await hasAnyAccount(context.db)) throw new HttpError(409, SETUP_MESSAGES.alreadyDone);
      const problem = await passwordProblem(body.password);
      if (problem) throw new HttpError(400, problem, {}, 'password');
      const row = await insertFirstAdmin(context.db, {
        name: body.name,
        email: body.username,
        passwordHash: await context.passwordHashing.run(() => hashPassword(body.password)),
      });
      if (!row) throw new HttpError(409, SETUP_MESSAGES.alreadyDone);
      context.logger.info({ accountId: row.id }, 'first administrator created through the setup');
      return toAccount(row);
    },
  };
}

import type { Logger } from 'pino';
import type { FailureLimiter } from './auth/rate-limit';
import type { TokenService } from './auth/tokens';
import type { Clock } from './clock';
import type { Database, DatabaseKind } from './db/client';
import type { Mailer } from './mail/mailer';

export interface ServerConfig {
  /** Start of the links mailed for password reset, e.g. `backoffice://app` or `http://127.0.0.1:4173`. */
  resetLinkBase: string;
  /** Failed sign-ins allowed per username, and per address, within `loginWindowMs`. */
  maxFailuresPerUsername: number;
  maxFailuresPerAddress: number;
  loginWindowMs: number;
  /** Reset links mailed per account within `loginWindowMs`; past it the answer stays the same, no mail goes out. */
  maxResetMailsPerUsername: number;
}

export const defaultServerConfig: ServerConfig = {
  resetLinkBase: 'backoffice://app',
  maxFailuresPerUsername: 5,
  maxFailuresPerAddress: 50,
  loginWindowMs: 15 * 60 * 1000,
  maxResetMailsPerUsername: 3,
};

/** What every route handler may use; built once by the app factory. */
export interface ServerContext {
  db: Database;
  dbKind: DatabaseKind;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  tokens: TokenService;
  config: ServerConfig;
  usernameLimiter: FailureLimiter;
  addressLimiter: FailureLimiter;
  /** Counts reset mails per account, so that nobody can flood a colleague's mailbox. */
  resetMailLimiter: FailureLimiter;
  /** A hash to verify against when the account does not exist, so both answers take as long. */
  decoyPasswordHash: string;
}

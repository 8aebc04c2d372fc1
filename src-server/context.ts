import type { Logger } from 'pino';
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
  /** Service token of the population feed (BACKOFFICE_INGEST_TOKEN); unset, only ADMIN bearers may ingest. */
  ingestToken?: string;
  /** Company e-mail domains (BACKOFFICE_COMPANY_EMAIL_DOMAINS): outside the group page, User criteria must end with one. */
  companyEmailDomains: string[];
  /** How often another instance's population writes are looked for (PostgreSQL only). */
  populationFollowMs: number;
  /** Demo workspace: seed the app-user population and sample audiences in the background (issue 8 §6). */
  seedAudienceDemo?: boolean;
}

export const defaultServerConfig: ServerConfig = {
  resetLinkBase: 'backoffice://app',
  maxFailuresPerUsername: 5,
  maxFailuresPerAddress: 50,
  loginWindowMs: 15 * 60 * 1000,
  maxResetMailsPerUsername: 3,
  companyEmailDomains: [],
  populationFollowMs: 200,
};

/**
 * What every feature shares, built once by the app factory. A service that only one feature uses (rate limiters,
 * a search engine) is built by that feature's module (src-server/features/<feature>/index.ts), not here.
 */
export interface ServerContext {
  db: Database;
  dbKind: DatabaseKind;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  config: ServerConfig;
  /** Verifies bearer tokens for the guard of every operation; signs them for the auth feature. */
  tokens: TokenService;
  /** Registers work to finish when the server closes (a feature's timers), before the database is closed. */
  onClose(hook: () => Promise<void>): void;
}

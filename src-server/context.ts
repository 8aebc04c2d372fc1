import type { Logger } from 'pino';
import { availableParallelism } from 'node:os';
import type { AccountCache } from './auth/account-cache';
import type { PasswordHashQueue } from './auth/hash-queue';
import type { BackgroundTasks } from './background';
import type { TokenService } from './auth/tokens';
import type { Clock } from './clock';
import type { Database, DatabaseKind } from './db/client';
import type { JobEvents } from './jobs/events';
import type { Mailer } from './mail/mailer';
import type { Metrics } from './ops/metrics';
import type { Readiness } from './ops/readiness';
import type { StorageAdapter } from './storage/adapter';
import type { StorageConfig } from './storage/config';

export interface ServerConfig {
  /** Start of the links mailed for password reset, e.g. `backoffice://app` or `http://127.0.0.1:4173`. */
  resetLinkBase: string;
  /** Failed sign-ins refused (429) past this count per (username, address) within `loginWindowMs`. */
  maxFailuresPerUsernameAndAddress: number;
  /** Failed sign-ins refused (429) past this count per address, whatever the usernames (password spraying). */
  maxFailuresPerAddress: number;
  /** Failed sign-ins per username (all addresses) after which each attempt is slowed down, never refused. */
  maxFailuresPerUsername: number;
  /** Slow-down of an attempt past `maxFailuresPerUsername`: doubles with each further failure, up to the max. */
  usernameSlowDownBaseMs: number;
  usernameSlowDownMaxMs: number;
  /**
   * Past `maxFailuresPerUsername`: password checks per minute on one username (a token bucket that size, one attempt
   * in flight), of which `checksReservedForCleanAddresses` only for addresses with no failure (policy in auth/rate-limit.ts).
   */
  maxChecksPerUsernamePerMinute: number;
  checksReservedForCleanAddresses: number;
  /** Failed sign-ins with one device token within `loginWindowMs` before it stops opening its own lane. */
  maxFailuresPerDevice: number;
  loginWindowMs: number;
  /** Reset links mailed per account within `loginWindowMs`; past it the answer stays the same, no mail goes out. */
  maxResetMailsPerUsername: number;
  /** Reset requests per address within `loginWindowMs`; past it 429 (it tells nothing about any account). */
  maxResetRequestsPerAddress: number;
  /** Password hashes computed at once (scrypt, ~40 ms of a core each), and how many may wait before 503. */
  hashConcurrency: number;
  maxHashWaiting: number;
  /** Waiting places beyond `maxHashWaiting` kept for sign-ins from addresses with no failure (auth/hash-queue.ts). */
  reservedHashWaiting: number;
  /**
   * Given by a host that lets its user create the first administrator (desktop app): the secret that
   * setup.createAdmin must carry. Without it, the setup is not offered (a team server gets its first
   * administrator from BACKOFFICE_ADMIN_EMAIL / BACKOFFICE_ADMIN_PASSWORD).
   */
  setupToken?: string;
  /** Service token of the population feed (BACKOFFICE_INGEST_TOKEN); unset, only ADMIN bearers may ingest. */
  ingestToken?: string;
  /** Company e-mail domains (BACKOFFICE_COMPANY_EMAIL_DOMAINS): outside the group page, User criteria must end with one. */
  companyEmailDomains: string[];
  /** How often jobs whose instance stopped renewing their lease are ended (src-server/jobs/lease.ts). */
  jobSweepMs: number;
  /**
   * How long the guard keeps an account it read (auth/account-cache.ts; default 5 s): a change made through the API
   * is seen at once here and, on PostgreSQL, by the other instances when told (NOTIFY); this bounds it otherwise.
   */
  accountCacheTtlMs: number;
  /** How often another instance's population writes are looked for (PostgreSQL only). */
  populationFollowMs: number;
  /** How long population_changes rows are kept for other instances (docs/audiences.md; default 10 minutes). */
  populationChangesRetentionMs?: number;
  /**
   * Demo workspace: seed the app-user population and sample audiences in the background (docs/audiences.md); `true` is
   * the full demo (20,000 users, 200,000 events), a size is for tests that need a few users quickly.
   */
  seedAudienceDemo?: boolean | DemoPopulationSize;
  /**
   * Serve the API reference: the OpenAPI document at /openapi.json and Swagger UI at /docs (src-server/openapi).
   * On for `npm run server` (BACKOFFICE_API_DOCS=false turns it off); off in the desktop app and the web host.
   */
  apiDocs?: boolean;
  /** Where files live (local folder or S3, storageConfigFromEnv); absent: a temporary folder (tests). */
  storage?: StorageConfig;
  /** Demo workspace: a few client folders and documents in an empty storage. */
  seedStorageDemo?: boolean;
  /** How often due autoStartAt / autoStopAt are applied (adverts feature); 0 turns the timer off (tests drive it). */
  autopublishIntervalMs?: number;
  /** How often the push job looks for due batches (0: tests drive it); it also wakes when the next batch is due. */
  pushIntervalMs?: number;
  /** Push delivery provider; default PUSH_PROVIDER, else the outbox. */
  pushProvider?: 'outbox' | 'fcm';
  /** How often an instance looks for CSV imports left by a stopped instance, to take them over (PostgreSQL; default 2 s). */
  importResumeMs?: number;
  /** Serve GET /metrics (Prometheus) to this bearer token (METRICS_TOKEN); unset, /metrics does not exist. */
  metricsToken?: string;
  /**
   * Build the audience engine after the server listens rather than before (a team server: at 1,000,000 users the
   * build takes tens of seconds, during which /health answers, /ready says why it is not ready and API requests wait).
   */
  audienceEngineInBackground?: boolean;
  /**
   * Where a server on PGlite keeps its audience index between runs (beside its data folder; absent: always rebuilt).
   * Read back at start only when the database shows nothing was written since the close that wrote it.
   */
  audienceIndexFile?: string;
  /** URL pre-fill may fetch private, loopback and link-local addresses (BACKOFFICE_URL_PARSE_ALLOW_PRIVATE=true, tests only). */
  urlParseAllowPrivate?: boolean;
  /** How long the URL pre-fill waits for a page (default 5 s); tests shorten it instead of waiting. */
  urlParseTimeoutMs?: number;
  /** An upload whose connection moves no byte for this long is answered 408 and dropped (default 60 s). */
  uploadIdleTimeoutMs?: number;
  /**
   * GET /jobs/events streams open at once per account (429 past it; the app holds one per signed-in session) and
   * on this instance (503 with Retry-After past it): each holds a socket for up to 15 minutes (docs/security.md).
   */
  maxJobStreamsPerAccount: number;
  maxJobStreams: number;
  /**
   * A request body (not an upload) not received in full this long after it starts is answered 408 and its
   * connection closed, before any authentication (body-timeout.ts; default 30 s; 0 turns it off).
   */
  bodyTimeoutMs: number;
}

/** Size of a demo population smaller than the full demo (tests). */
export interface DemoPopulationSize {
  users: number;
  events: number;
}

export const defaultServerConfig: ServerConfig = {
  resetLinkBase: 'backoffice://app',
  maxFailuresPerUsernameAndAddress: 5,
  maxFailuresPerAddress: 50,
  maxFailuresPerUsername: 5,
  usernameSlowDownBaseMs: 1000,
  usernameSlowDownMaxMs: 10_000,
  maxChecksPerUsernamePerMinute: 10,
  checksReservedForCleanAddresses: 3,
  maxFailuresPerDevice: 5,
  loginWindowMs: 15 * 60 * 1000,
  maxResetMailsPerUsername: 3,
  maxResetRequestsPerAddress: 10,
  // Half the cores: the other half keeps answering everything else during a sign-in burst.
  hashConcurrency: Math.max(1, Math.floor(availableParallelism() / 2)),
  maxHashWaiting: 64,
  reservedHashWaiting: 16,
  companyEmailDomains: [],
  populationFollowMs: 200,
  jobSweepMs: 60_000,
  accountCacheTtlMs: 5_000,
  maxJobStreamsPerAccount: 5,
  maxJobStreams: 1000,
  bodyTimeoutMs: 30_000,
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
  /**
   * The guard's accounts, kept a few seconds: whatever changes an account's roles, password or sessions, or deletes
   * it, calls `accountCache.changed(id)` once committed.
   */
  accountCache: AccountCache;
  /** Verifies bearer tokens for the guard of every operation; signs them for the auth feature. */
  tokens: TokenService;
  /** Work done after the answer (reset mails). */
  background: BackgroundTasks;
  /** Every password hash goes through it (sign-in, password links, new accounts). */
  passwordHashing: PasswordHashQueue;
  /**
   * Where files live (local folder or S3). Features that take files stream them in with storage/multipart.ts
   * (`receiveFile`) and answer URLs from storage/media.ts (`mediaUrl`).
   */
  storage: StorageAdapter;
  /**
   * Progress of long jobs pushed to the pages that may see it: `jobEvents.publish(event, audience)` (jobs/events.ts);
   * the pages follow GET /jobs/events through main or the web host.
   */
  jobEvents: JobEvents;
  /** What GET /ready checks (features add theirs) and the start-up tasks API requests wait for (src-server/ops). */
  readiness: Readiness;
  /** Prometheus metrics: features register their counters and gauges (src-server/ops/metrics.ts). */
  metrics: Metrics;
  /** Registers work to finish when the server closes (a feature's timers), before the database is closed. */
  onClose(hook: () => Promise<void>): void;
  /**
   * Registers work for the very end of the close: after every onClose hook (no feature writes any more), before the
   * database is closed. The audience engine writes its index file there.
   */
  onStopped(hook: () => Promise<void>): void;
}

import pino, { type Logger } from 'pino';
import { buildApp, type App } from './app';
import { openDatabase, type DatabaseHandle } from './db/client';
import { createSmtpMailer, type OutboxMail } from './mail/mailer';
import { ensureFirstAdmin, seedDemo, type DemoAccount } from './seed';
import type { DemoPopulationSize, ServerConfig } from './context';
import { storageConfigFromEnv } from './storage/config';
import type { TrustProxy } from './trust-proxy';

export interface StartOptions {
  host?: string;
  port?: number;
  databaseUrl?: string;
  dataDir?: string;
  migrationsFolder?: string;
  /** PGlite template for a fast first start (scripts/build-pglite-template.ts). */
  templateDir?: string;
  /** PGlite's buffer cache (see DatabaseOptions): the embedded servers ask for less (src-server/embedded.ts). */
  sharedBuffers?: `${number}MB`;
  demo?: boolean;
  /**
   * With `demo`, also seed the app-user population (20,000 users, 200,000 events, sample audiences) in the
   * background: the server answers meanwhile (on PGlite the seeding shares its thread for about a minute, in small
   * statements). The CLI, the web host and the desktop app ask for it with their demo; tests that only need the
   * demo accounts do not, and those that need audiences ask for a small size.
   */
  demoPopulation?: boolean | DemoPopulationSize;
  adminEmail?: string;
  adminPassword?: string;
  jwtSecret?: string;
  smtpUrl?: string;
  mailFrom?: string;
  config?: Partial<ServerConfig>;
  logger?: Logger;
  /** See trust-proxy.ts: a number of proxy hops or the proxies' addresses; never `true`. */
  trustProxy?: TrustProxy;
  /**
   * Without SMTP, told of every mail kept in the outbox (password links), whatever the log level, so the host
   * can print it: `npm run server` prints it with formatOutboxMail (console.ts).
   */
  onOutboxMail?: (mail: OutboxMail) => void;
}

export type { OutboxMail };

export interface RunningServer {
  app: App;
  database: DatabaseHandle;
  url: string;
  demoAccounts: DemoAccount[];
  close(): Promise<void>;
}

/** Opens the database, prepares first-start accounts and listens. Used by the CLI and the desktop app. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const database = await openDatabase({
    url: options.databaseUrl,
    dataDir: options.dataDir,
    migrationsFolder: options.migrationsFolder,
    templateDir: options.templateDir,
    sharedBuffers: options.sharedBuffers,
    onIdleConnectionError: (error) => logger.warn({ err: error }, 'database connection lost; the next query opens another'),
  });
  try {
    await ensureFirstAdmin(database.db, options.adminEmail, options.adminPassword);
    const demoAccounts = options.demo ? await seedDemo(database.db) : [];
    const mailer = options.smtpUrl
      ? await createSmtpMailer(options.smtpUrl, options.mailFrom ?? 'Back-office <no-reply@localhost>', logger)
      : undefined;
    const app = await buildApp({
      db: database.db,
      dbKind: database.kind,
      migrationsFolder: database.migrationsFolder,
      logger,
      jwtSecret: options.jwtSecret,
      mailer,
      // The audiences feature seeds the demo population in the background: the start stays fast.
      config: {
        storage: storageConfigFromEnv(process.env, options.dataDir),
        ...(options.dataDir && !options.databaseUrl ? { audienceIndexFile: `${options.dataDir}.audience-index` } : {}),
        seedStorageDemo: options.demo,
        ...options.config,
        ...(options.demo && options.demoPopulation ? { seedAudienceDemo: options.demoPopulation } : {}),
      },
      trustProxy: options.trustProxy,
      onOutboxMail: options.onOutboxMail,
    });
    const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 4000 });
    return {
      app,
      database,
      url: address,
      demoAccounts,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

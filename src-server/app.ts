import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pino, { type Logger } from 'pino';
import { MESSAGES } from '@shared/messages';
import { AccountCache } from './auth/account-cache';
import { TokenService, newSecret } from './auth/tokens';
import { BackgroundTasks } from './background';
import { PasswordHashQueue } from './auth/hash-queue';
import { systemClock, type Clock } from './clock';
import { defaultServerConfig, type ServerConfig, type ServerContext } from './context';
import type { Database, DatabaseKind } from './db/client';
import { serverSecrets } from './db/schema';
import { findAccountForGuard } from './accounts/queries';
import { registerBodyTimeout } from './body-timeout';
import { handleClientError, handleError, handleFrameworkError } from './errors';
import { JobEvents } from './jobs/events';
import { registerJobEventsRoute } from './jobs/events-route';
import { OutboxMailer, type Mailer, type OutboxMail } from './mail/mailer';
import type { FeatureServices } from './feature-services';
import { buildHandlers } from './features';
import { createStorage } from './storage/config';
import { registerOperations } from './operations';
import { fastifyTrustProxy, type TrustProxy } from './trust-proxy';
import { defaultMigrationsFolder } from './db/client';
import { withRequestTransactions } from './db/request-transaction';
import { warnOfLocalStorage } from './ops/instances';
import { Metrics } from './ops/metrics';
import { registerDatabaseChecks, Readiness } from './ops/readiness';
import { registerOperatorRoutes } from './ops/routes';

export interface AppOptions {
  db: Database;
  dbKind: DatabaseKind;
  clock?: Clock;
  /** Defaults to the outbox (table + log + onOutboxMail). */
  mailer?: Mailer;
  /** Told of every mail the outbox keeps, whatever the log level: the host prints it (formatOutboxMail). */
  onOutboxMail?: (mail: OutboxMail) => void;
  logger?: Logger;
  /** Signing key of the JWTs; by default one kept in the database, shared by every instance. */
  jwtSecret?: string;
  config?: Partial<ServerConfig>;
  /** The migrations the database should be at (GET /ready); default the folder beside db/client.ts. */
  migrationsFolder?: string;
  /** Behind reverse proxies, which of them tell the client address (X-Forwarded-For): a hop count or their addresses. */
  trustProxy?: TrustProxy;
}

/** The server; `services` are what its features provided one another (tests and the bench read them). */
export type App = FastifyInstance & { context: ServerContext; services: FeatureServices };

async function signingKey(db: Database, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insert(serverSecrets)
    .values({ name: 'jwt', value: newSecret(48) })
    .onConflictDoNothing();
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets);
  return new TextEncoder().encode(row.value);
}

export async function buildApp(appOptions: AppOptions): Promise<App> {
  // A keyed create commits with its stored answer (idempotency.ts): every feature's calls can join its transaction.
  const options = { ...appOptions, db: withRequestTransactions(appOptions.db) };
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const clock = options.clock ?? systemClock;
  const config = { ...defaultServerConfig, ...options.config };
  const closeHooks: (() => Promise<void>)[] = [];
  const stoppedHooks: (() => Promise<void>)[] = [];
  const storage = await createStorage(config.storage);
  const jobEvents = new JobEvents({ db: options.db, dbKind: options.dbKind, logger });
  const accountCache = new AccountCache({
    ttlMs: config.accountCacheTtlMs,
    load: (accountId, familyId) => findAccountForGuard(options.db, accountId, familyId),
    broadcast: (accountId) => jobEvents.publishAccountChange(accountId),
  });
  jobEvents.onAccountChange((accountId) => accountCache.forget(accountId));
  const context: ServerContext = {
    db: options.db,
    dbKind: options.dbKind,
    clock,
    logger,
    config,
    mailer: options.mailer ?? new OutboxMailer(options.db, logger, options.onOutboxMail),
    tokens: new TokenService(await signingKey(options.db, options.jwtSecret), clock),
    background: new BackgroundTasks(logger),
    passwordHashing: new PasswordHashQueue({
      concurrency: config.hashConcurrency,
      maxWaiting: config.maxHashWaiting,
      reservedWaiting: config.reservedHashWaiting,
    }),
    storage: storage.adapter,
    jobEvents,
    accountCache,
    readiness: new Readiness(),
    metrics: new Metrics(),
    onClose: (hook) => closeHooks.push(hook),
    onStopped: (hook) => stoppedHooks.push(hook),
  };

  registerDatabaseChecks(context.readiness, options.db, options.migrationsFolder ?? defaultMigrationsFolder());
  context.metrics.databasePool(options.db);
  if (options.dbKind === 'postgresql' && config.storage?.kind === 'local' && !config.storage.shared) {
    warnOfLocalStorage(context.readiness, options.db, (message) => logger.warn(message));
  }

  const app = Fastify({
    loggerInstance: logger,
    trustProxy: fastifyTrustProxy(options.trustProxy),
    bodyLimit: 1024 * 1024,
    // No deadline on a plugin's start: on PGlite the database shares this thread, and building the audience engine
    // of a large population holds it longer than avvio's 10 s, which then refused to start (docs/operations.md).
    pluginTimeout: 0,
    // Every error answer carries { errorMsg }, even for requests no route could read.
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
  }) as unknown as App;
  app.decorate('context', context);
  registerBodyTimeout(app, config.bodyTimeoutMs);
  // Mail still being written when the server closes is finished first, not lost.
  app.addHook('onClose', () => context.background.settled());
  app.addHook('onClose', async () => {
    for (const hook of closeHooks) await hook();
    for (const hook of stoppedHooks) await hook();
    await context.jobEvents.close();
    await storage.close();
  });
  app.decorateRequest('account', null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler(handleError);
  // Uploads are read by their handler as a stream (src-server/storage/multipart.ts), never buffered.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ errorMsg: `${MESSAGES.routeNotFound} : ${request.method} ${request.url.split('?')[0]}` });
  });

  registerOperatorRoutes(app, context);
  const { handlers, services } = await buildHandlers(context);
  app.decorate('services', services);
  registerOperations(app, context, handlers);
  if (config.apiDocs) {
    // Loaded only here: the desktop app's embedded server, which never serves it, does not load the viewer.
    const { registerApiDocs } = await import('./openapi/serve');
    await registerApiDocs(app, { metrics: Boolean(config.metricsToken) });
  }

  registerJobEventsRoute(app, context);
  // On PostgreSQL, events of jobs running on other instances reach this one from its first request on.
  await context.jobEvents.ready;

  return app;
}

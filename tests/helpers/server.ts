import pino from 'pino';
import type { Session } from '@shared/contract';
import type { Role } from '@shared/roles';
import { buildApp, type App, type AppOptions } from '../../src-server/app';
import { hashPassword } from '../../src-server/auth/passwords';
import type { Clock } from '../../src-server/clock';
import { ManualClock } from './clock';
import type { ServerConfig } from '../../src-server/context';
import type { DatabaseHandle } from '../../src-server/db/client';
import { accounts, outbox } from '../../src-server/db/schema';
import { desc, eq } from 'drizzle-orm';
import { freshDatabase } from './database';
import type { Mailer } from '../../src-server/mail/mailer';
import type { TrustProxy } from '../../src-server/trust-proxy';

export const TEST_PASSWORD = 'correct-horse-battery';

export interface TestServer {
  app: App;
  url: string;
  database: DatabaseHandle;
  clock: Clock;
  /** Creates an account holding `roles` with TEST_PASSWORD; returns its id and e-mail. */
  createAccount(roles: Role[], name?: string): Promise<{ id: number; email: string }>;
  /** Signs in (creating the account when `email` is not given). */
  signIn(roles: Role[]): Promise<Session & { email: string }>;
  /** Calls the API over real HTTP. */
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** The newest mail sent to `email`. */
  lastMail(email: string): Promise<{ subject: string; body: string } | undefined>;
  close(): Promise<void>;
}

let counter = 0;

/** Starts the real API on a loopback port, on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL). */
export async function startTestServer(
  options: {
    clock?: Clock;
    config?: Partial<ServerConfig>;
    beforeListen?: (app: App) => void;
    onOutboxMail?: AppOptions['onOutboxMail'];
    logger?: AppOptions['logger'];
    trustProxy?: TrustProxy;
    mailer?: Mailer;
  } = {},
): Promise<TestServer> {
  const database = await freshDatabase();
  const clock = options.clock ?? new ManualClock(Date.now());
  const app = await buildApp({
    db: database.db,
    dbKind: database.kind,
    clock,
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    config: { resetLinkBase: 'http://app.test', ...options.config },
    onOutboxMail: options.onOutboxMail,
    trustProxy: options.trustProxy,
    mailer: options.mailer,
  });
  options.beforeListen?.(app);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const passwordHash = await hashPassword(TEST_PASSWORD);

  const server: TestServer = {
    app,
    url,
    database,
    clock,
    async createAccount(roles, name) {
      counter += 1;
      const email = `user${counter}-${Math.random().toString(36).slice(2, 8)}@test.local`;
      const [row] = await database.db
        .insert(accounts)
        .values({ name: name ?? `User ${counter}`, nickname: `u${counter}`, email, roles, passwordHash })
        .returning({ id: accounts.id });
      return { id: row.id, email };
    },
    async signIn(roles) {
      const { email } = await server.createAccount(roles);
      const response = await server.request('POST', '/authenticate', { body: { username: email, password: TEST_PASSWORD } });
      if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
      return { ...(response.body as Session), email };
    },
    async request(method, path, { token, body, headers = {} } = {}) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the text
      }
      return { status: response.status, body: parsed as any, headers: response.headers };
    },
    async lastMail(email) {
      // Reset mails are written after the answer.
      await app.context.background.settled();
      const [mail] = await database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id)).limit(1);
      return mail ? { subject: mail.subject, body: mail.body } : undefined;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
  return server;
}

/** The confirmation token inside a mailed link. */
export function tokenFromMail(body: string): string {
  const match = /confirmationToken=([A-Za-z0-9_-]+)/.exec(body);
  if (!match) throw new Error(`no link in mail: ${body}`);
  return match[1];
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../src-server/seed';
import type { Settings } from '@shared/ipc';
import type { Role } from '@shared/roles';
import type { WebHost } from '../../src-main/hosts/web';
import { createRollingLog } from '../../src-main/services/logs';
import { e2eRendererDir } from './global-setup';

export { expect };
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface WebApp {
  host: WebHost;
  url: string;
  apiUrl: string;
  dataDir: string;
  context: BrowserContext;
  page: Page;
  /** CSP violations and uncaught errors seen in the page and not yet reported; each fails the test it happened in. */
  problems: string[];
  close(): Promise<void>;
}

export interface AppOptions {
  /** The settings file as an administrator would have edited it before the start. */
  settings?: Partial<Settings>;
  /** Without the demo workspace (no account at all: the first start of an installation). Default: with it. */
  demo?: boolean;
  /** The app users and audiences of the demo: none by default (fast); a small size for audience tests. */
  demoPopulation?: false | { users: number; events: number };
  /** The host writes its log into `<dataDir>/logs`, as `npm run web` does (About page, diagnostics). */
  logs?: boolean;
  /**
   * Environment variables set while the host starts (IT's policy, as a scripted install sets it), then removed: the
   * host reads them once, at start.
   */
  env?: Record<string, string>;
  /** What the file's tests need in place once the host is up (audiences, projects, a signed-in page...). */
  prepare?: (app: WebApp) => Promise<void>;
}

/**
 * A fresh web host (own PGlite folder, own settings, demo workspace) and a fresh browser context with one page:
 * the app from first run, like a new user-data directory.
 */
export async function openWebApp(browser: Browser, options: AppOptions = {}): Promise<WebApp> {
  const { startWebHost } = await import('../../src-main/hosts/web');
  const dataDir = mkdtempSync(join(tmpdir(), 'bo-e2e-'));
  if (options.settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: options.settings }));
  const logs = options.logs ? await createRollingLog({ dir: join(dataDir, 'logs'), name: 'web' }) : null;
  Object.assign(process.env, options.env);
  const host = await startWebHost({
    port: 0,
    rendererDir: e2eRendererDir(root),
    dataDir: join(dataDir, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile: join(dataDir, 'settings.json'),
    demo: options.demo ?? true,
    demoPopulation: options.demoPopulation ?? false,
    logger: logs?.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    logDir: logs?.dir,
  }).finally(() => {
    for (const name of Object.keys(options.env ?? {})) delete process.env[name];
  });
  // baseURL: helpers of a file open the app's paths without knowing its port.
  const context = await browser.newContext({ baseURL: host.url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  // The page must run within its CSP and without uncaught errors: each is a failure of the test that caused it.
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const app: WebApp = {
    host,
    url: host.url,
    apiUrl: host.apiUrl,
    dataDir,
    context,
    page,
    problems,
    async close() {
      await context.close().catch(() => undefined);
      await host.close();
      logs?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await options.prepare?.(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

/**
 * The web app of the current test file. Starting a host takes 8 to 15 s on a loaded machine, and the tests of a
 * file build on one another's steps, so they share one (a file that needs a clean one per test says `fresh: true`);
 * the worker's next file gets a new host, and the previous one is closed.
 */
class HostPerFile {
  private current: { key: string; app: WebApp } | null = null;
  constructor(private readonly browser: Browser) {}

  async forFile(key: string, options: AppOptions): Promise<WebApp> {
    if (this.current?.key === key) return this.current.app;
    await this.close();
    this.current = { key, app: await openWebApp(this.browser, options) };
    return this.current.app;
  }

  async close(): Promise<void> {
    const app = this.current?.app;
    this.current = null;
    await app?.close();
  }
}

export interface E2EFixtures {
  /** How the web host starts: `test.use({ appOptions: ... })` in a file or describe block. */
  appOptions: AppOptions & { fresh?: boolean };
  /** The web app: one per file (or per test with `fresh`); CSP violations and page errors fail the test. */
  app: WebApp;
  /** Signs the demo account of `role` in on the app's (signed-out) page; answers the page. */
  signedIn: (role: Role) => Promise<Page>;
}

export const test = base.extend<E2EFixtures, { hostPerFile: HostPerFile }>({
  appOptions: [{}, { option: true }],
  hostPerFile: [
    async ({ browser }, use) => {
      const hosts = new HostPerFile(browser);
      await use(hosts);
      await hosts.close();
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ browser, hostPerFile, appOptions }, use, testInfo) => {
      const { fresh, ...options } = appOptions;
      const app = fresh ? await openWebApp(browser, options) : await hostPerFile.forFile(`${testInfo.file}:${JSON.stringify(options)}`, options);
      try {
        await use(app);
      } finally {
        if (fresh) await app.close();
      }
      expect(app.problems.splice(0), 'CSP violations or uncaught errors in the page').toEqual([]);
    },
    // Starting the host (and preparing its data) is not the test's time: it has its own.
    { timeout: 300_000 },
  ],
  signedIn: async ({ app }, use) => {
    await use(async (role) => {
      await signIn(app.page, app.url, role);
      return app.page;
    });
  },
});

export function demoAccount(role: Role) {
  const account = DEMO_ACCOUNTS.find((demo) => demo.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return account;
}

export async function signIn(page: Page, base: string, role: Role): Promise<void> {
  await signInAs(page, base, demoAccount(role).email, demoAccount(role).password);
}

export async function signInAs(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByTestId('login-username').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  // A sign-in made while the embedded API still starts and seeds the demo waits for it (README): on a loaded CI
  // machine that took more than the default 30 s.
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 60_000 });
}

/** The newest mail the embedded server kept in its outbox for `email`. */
export async function lastMail(app: WebApp, email: string): Promise<string | undefined> {
  const { outbox } = await import('../../src-server/db/schema');
  const { desc, eq } = await import('drizzle-orm');
  // Reset mails are written after the answer: wait for them.
  await app.host.embedded!.app.context.background.settled();
  const [mail] = await app.host.embedded!.database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id)).limit(1);
  return mail?.body;
}

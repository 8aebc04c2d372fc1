import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../src-server/seed';
import type { Settings } from '@shared/ipc';
import type { Role } from '@shared/roles';
import type { WebHost } from '../../src-main/hosts/web';
import { e2eRendererDir } from './global-setup';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = fileURLToPath(new URL('../..', import.meta.url));

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface WebApp {
  host: WebHost;
  url: string;
  apiUrl: string;
  dataDir: string;
  context: BrowserContext;
  page: Page;
  /** CSP violations and uncaught errors seen in the page so far; close() fails the test when any. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A fresh web host (own PGlite folder, own settings, demo workspace) and a fresh browser context: every test
 * starts from first run, like a new user-data directory.
 */
export async function openWebApp(
  browser: Browser,
  /** demoPopulation: the app users and audiences of the demo, none by default (fast); a small size for audience tests. */
  options: { settings?: Partial<Settings>; demoPopulation?: false | { users: number; events: number } } = {},
): Promise<WebApp> {
  const { startWebHost } = await import('../../src-main/hosts/web');
  const dataDir = mkdtempSync(join(tmpdir(), 'bo-e2e-'));
  // As an administrator would have edited it before the start.
  if (options.settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: options.settings }));
  const host = await startWebHost({
    port: 0,
    rendererDir: e2eRendererDir(root),
    dataDir: join(dataDir, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile: join(dataDir, 'settings.json'),
    demo: true,
    demoPopulation: options.demoPopulation ?? false,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  // The page must run within its CSP and without uncaught errors: each is a failure of the test that caused it.
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return {
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
      rmSync(dataDir, { recursive: true, force: true });
      expect(problems, 'CSP violations or uncaught errors in the page').toEqual([]);
    },
  };
}

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
  // Reset mails are written after the answer (issue 13): wait for them.
  await app.host.embedded!.app.context.background.settled();
  const [mail] = await app.host.embedded!.database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id)).limit(1);
  return mail?.body;
}

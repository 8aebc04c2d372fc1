import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Role } from '@shared/roles';
import type { WebHost } from '../src-main/hosts/web';
import { DEMO_ACCOUNTS } from '../src-server/seed';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface BenchWebApp {
  host: WebHost;
  browser: Browser;
  /** Signs the demo account of `role` in through the API; answers its bearer token. */
  token(role: Role): Promise<string>;
  /** A JSON call to the embedded API with a bearer token; answers the parsed body. */
  api<T = any>(token: string, method: string, path: string, body?: unknown): Promise<T>;
  /** A new page (own context) signed in as the demo account of `role` through the login form. */
  signedInPage(role: Role, options?: { viewport?: { width: number; height: number }; acceptDownloads?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

const demo = (role: Role) => DEMO_ACCOUNTS.find((account) => account.role === role)!;

/**
 * The app as built, in Chromium, for the browser sections: the renderer built by Vite, the web host on a fresh
 * PGlite folder (from the migrated template, demo accounts without their population) and a browser.
 */
export async function startBenchWebApp(name: string): Promise<BenchWebApp> {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'src-renderer/vite.config.ts'), logLevel: 'warn' });
  const { buildTemplate } = await import('../src-server/db/build-template');
  const { hasTemplate } = await import('../src-server/db/template');
  const templateDir = join(root, '.data/pglite-template');
  if (!hasTemplate(templateDir)) await buildTemplate(templateDir);
  const { startWebHost } = await import('../src-main/hosts/web');
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const host = await startWebHost({
    port: 0,
    rendererDir: join(root, 'out/renderer'),
    dataDir: join(dataDir, 'pglite'),
    templateDir,
    settingsFile: join(dataDir, 'settings.json'),
    demo: true,
    demoPopulation: false,
    logger: pino({ level: 'silent' }),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });

  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${host.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json();
  };
  const token = async (role: Role) => {
    const response = await fetch(`${host.apiUrl}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: demo(role).email, password: demo(role).password }),
    });
    return ((await response.json()) as { accessToken: { value: string } }).accessToken.value;
  };
  const signedInPage = async (role: Role, options: { viewport?: { width: number; height: number }; acceptDownloads?: boolean } = {}) => {
    const page = await (await browser.newContext(options)).newPage();
    await page.goto(`${host.url}/login`);
    await page.getByTestId('login-username').fill(demo(role).email);
    await page.getByTestId('login-password').fill(demo(role).password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname !== '/login');
    return page;
  };
  return {
    host,
    browser,
    token,
    api,
    signedInPage,
    async close() {
      await browser.close();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

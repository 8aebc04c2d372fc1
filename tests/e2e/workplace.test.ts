import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { Page } from '@playwright/test';
import { SETUP_MESSAGES, WORKPLACE_MESSAGES as M } from '@shared/messages';
import { startEmbeddedServer } from '../../src-server/embedded';
import type { RunningServer } from '../../src-server/server';
import { startWebHost, type WebHost } from '../../src-main/hosts/web';
import { demoAccount, expect, test } from './fixtures';
import { e2eRendererDir } from './global-setup';

/**
 * The first start's choice and « Changer de serveur » (issue 52, item 1), in Chromium through the web host as
 * `BACKOFFICE_CHOOSE_SERVER=1 npm run web` starts it, against two real servers on loopback: a web server that is
 * not this API (refused) and a real API server with the demo workspace (accepted). Hosts of its own: the choice
 * is the first thing a fresh install does.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

let work: string;
let teamServer: RunningServer;
let stranger: Server;
let strangerUrl: string;
let host: WebHost;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'bo-e2e-workplace-'));
  teamServer = await startEmbeddedServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: join(work, 'team'),
    templateDir: join(root, '.data/pglite-template'),
    migrationsFolder: join(root, 'src-server/db/migrations'),
    demo: true,
    demoPopulation: false,
    logger,
    config: { resetLinkBase: 'http://127.0.0.1' },
  });
  // Something else answering on this machine: an intranet page, say.
  stranger = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Intranet</h1>'));
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
  strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
  host = await startWebHost({
    port: 0,
    rendererDir: e2eRendererDir(root),
    dataDir: join(work, 'local'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile: join(work, 'settings.json'),
    demo: false,
    chooseServer: true,
    logger,
  });
});
test.afterAll(async () => {
  await host?.close();
  await teamServer?.close();
  stranger?.close();
  rmSync(work, { recursive: true, force: true });
});

async function connectTo(page: Page, address: string) {
  await page.getByTestId('workplace-address').fill(address);
  await page.getByTestId('workplace-connect').click();
}

test('a fresh install chooses the team server (checked against it), then this computer, and back, signing out each time', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ baseURL: host.url });
  const page = await context.newPage();
  try {
    // The first screen of a fresh install: where to work.
    await page.goto(`${host.url}/login`);
    await page.waitForURL((url) => url.pathname === '/workplace');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(M.title);

    // Checked as typed: no network needed to say plain http elsewhere is refused.
    const address = page.getByTestId('workplace-address');
    await address.fill('http://intranet.exemple.fr');
    await expect(page.getByTestId('workplace-address-error')).toHaveText(M.addressNotHttps);
    await expect(page.getByTestId('workplace-connect')).toBeDisabled();

    // Then against the server: this one answers, but it is not the back-office.
    await connectTo(page, strangerUrl);
    await expect(page.getByTestId('workplace-address-error')).toHaveText(M.notThisProduct);
    await expect(page).toHaveURL(/\/workplace$/);

    // The team's real API: accepted, then the sign-in of that server.
    await connectTo(page, teamServer.url);
    await page.waitForURL((url) => url.pathname === '/login');
    const admin = demoAccount('ADMIN');
    await page.getByTestId('login-username').fill(admin.email);
    await page.getByTestId('login-password').fill(admin.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-api')).toHaveText(teamServer.url);

    // « Changer de serveur » in the top bar: this computer. Signed out; a new local database asks for its administrator.
    await page.getByTestId('change-server').click();
    await expect(page.getByTestId('workplace-current')).toHaveText(M.currentServer(teamServer.url));
    await page.getByTestId('workplace-local').click();
    await page.waitForURL((url) => url.pathname === '/setup', { timeout: 60_000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(SETUP_MESSAGES.title);
    await page.getByTestId('setup-name').fill('Camille Martin');
    await page.getByTestId('setup-email').fill('camille.martin@exemple.fr');
    await page.getByTestId('setup-password').fill('Un mot de passe solide 2026');
    await page.getByTestId('setup-confirmation').fill('Un mot de passe solide 2026');
    await page.getByTestId('setup-submit').click();
    await page.waitForURL((url) => url.pathname === '/adverts');

    // Back to the team server from the user menu: signed out there too (the local session is not offered to it).
    await page.getByTestId('change-server').click();
    await expect(page.getByTestId('workplace-current')).toHaveText(M.currentLocal);
    await connectTo(page, teamServer.url);
    await page.waitForURL((url) => url.pathname === '/login');
    await expect(page.getByTestId('login-username')).toBeVisible();
    await page.goto(`${host.url}/adverts`);
    await page.waitForURL((url) => url.pathname === '/login');

    // And from the sign-in page to this computer again: its data was kept (the administrator signs in, no setup).
    await page.getByTestId('login-change-server').click();
    await page.getByTestId('workplace-local').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByTestId('login-username').fill('camille.martin@exemple.fr');
    await page.getByTestId('login-password').fill('Un mot de passe solide 2026');
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/adverts');
  } finally {
    await context.close();
  }
});

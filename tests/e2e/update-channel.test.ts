import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { UPDATE_MESSAGES } from '@shared/messages/diagnostics';
import { POLICY_MESSAGES } from '@shared/messages/workplace';
import { startWebHost } from '../../src-main/hosts/web';
import { expect, signIn, test } from './fixtures';
import { e2eRendererDir } from './global-setup';

/**
 * The About page says which update feed and channel the app follows, and when it last checked (issue 52, item 3).
 * The browser version has no updater: it says so in place of a last check. Feed and channel come from IT's policy
 * here (the environment, as a scripted install sets it), which also locks the channel.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

test('the About page shows the update feed, the channel and why the browser version never checks', async ({ browser }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bo-e2e-updates-'));
  process.env.BACKOFFICE_POLICY_UPDATE_URL = 'https://maj.exemple.fr/back-office/';
  process.env.BACKOFFICE_POLICY_UPDATE_CHANNEL = 'beta';
  const host = await startWebHost({
    port: 0,
    rendererDir: e2eRendererDir(root),
    dataDir: join(dataDir, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile: join(dataDir, 'settings.json'),
    demo: true,
    demoPopulation: false,
    logger: pino({ level: 'silent' }),
  }).finally(() => {
    delete process.env.BACKOFFICE_POLICY_UPDATE_URL;
    delete process.env.BACKOFFICE_POLICY_UPDATE_CHANNEL;
  });
  const context = await browser.newContext({ baseURL: host.url });
  try {
    const page = await context.newPage();
    await signIn(page, host.url, 'ADMIN');
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-update-feed')).toHaveText('https://maj.exemple.fr/back-office');
    await expect(page.getByTestId('about-update-channel')).toHaveText(UPDATE_MESSAGES.channels.beta);
    await expect(page.getByTestId('about-update-last-check')).toHaveText(UPDATE_MESSAGES.browser);
    await expect(page.getByTestId('about-locked').getByRole('listitem')).toHaveText([
      POLICY_MESSAGES.lockedEntry('updateUrl', 'https://maj.exemple.fr/back-office', "variables d'environnement"),
      POLICY_MESSAGES.lockedEntry('updateChannel', 'beta', "variables d'environnement"),
    ]);
  } finally {
    await context.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("without a policy, the About page shows the user's own channel and says no feed is set", async ({ browser }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bo-e2e-channel-'));
  const settingsFile = join(dataDir, 'settings.json');
  writeFileSync(settingsFile, JSON.stringify({ settings: { updateChannel: 'beta' } }));
  const host = await startWebHost({
    port: 0,
    rendererDir: e2eRendererDir(root),
    dataDir: join(dataDir, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile,
    demo: true,
    demoPopulation: false,
    logger: pino({ level: 'silent' }),
  });
  const context = await browser.newContext({ baseURL: host.url });
  try {
    const page = await context.newPage();
    await signIn(page, host.url, 'ADMIN');
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-update-feed')).toHaveText(UPDATE_MESSAGES.noFeed);
    await expect(page.getByTestId('about-update-channel')).toHaveText(UPDATE_MESSAGES.channels.beta);
    await expect(page.getByTestId('about-update-last-check')).toHaveText(UPDATE_MESSAGES.browser);
    await expect(page.getByTestId('about-locked')).toHaveCount(0);
  } finally {
    await context.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

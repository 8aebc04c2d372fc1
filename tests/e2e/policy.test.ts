import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { POLICY_MESSAGES } from '@shared/messages/workplace';
import { startWebHost } from '../../src-main/hosts/web';
import { expect, signIn, test } from './fixtures';
import { e2eRendererDir } from './global-setup';

/**
 * A setting IT fixed for the machine (here through the environment, as a scripted install sets it): it beats the
 * user's settings, and the About page shows it read-only with where the lock comes from (issue 52, item 2).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

test('a setting fixed by policy shows read-only, with its source, and is the one in use', async ({ browser }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bo-e2e-policy-'));
  process.env.BACKOFFICE_POLICY_ENVIRONMENT_LABEL = 'formation';
  const host = await startWebHost({
    port: 0,
    rendererDir: e2eRendererDir(root),
    dataDir: join(dataDir, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile: join(dataDir, 'settings.json'),
    demo: true,
    demoPopulation: false,
    logger: pino({ level: 'silent' }),
  }).finally(() => delete process.env.BACKOFFICE_POLICY_ENVIRONMENT_LABEL);
  const context = await browser.newContext({ baseURL: host.url });
  try {
    const page = await context.newPage();
    await signIn(page, host.url, 'ADMIN');
    await expect(page.getByTestId('env-marker')).toHaveText('formation');
    await page.getByTestId('about-link').click();
    const locked = page.getByTestId('about-locked');
    await expect(locked.getByRole('heading')).toHaveText(POLICY_MESSAGES.title);
    await expect(locked.getByRole('listitem')).toHaveText(POLICY_MESSAGES.lockedEntry('environmentLabel', 'formation', "variables d'environnement"));
    // Read-only: nothing on the page edits it.
    await expect(locked.getByRole('textbox')).toHaveCount(0);
  } finally {
    await context.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

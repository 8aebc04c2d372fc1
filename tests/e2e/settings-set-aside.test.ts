import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKPLACE_MESSAGES } from '@shared/messages';
import { startWebHost } from '../../src-main/hosts/web';
import { createRollingLog } from '../../src-main/services/logs';
import { expect, signIn, test } from './fixtures';
import { e2eRendererDir } from './global-setup';

/**
 * A settings file a hand edit broke (a trailing comma): the web host starts anyway, on its defaults, and the page
 * says so in French with where the copy of the file is; the About page opens the log folder (issue 52, item 4).
 * A host of its own: the file must be broken before it starts.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

test('a malformed settings file is set aside: the app starts, says where the copy is, and the About page reaches the logs', async ({ browser }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bo-e2e-set-aside-'));
  const settingsFile = join(dataDir, 'settings.json');
  writeFileSync(settingsFile, '{ "settings": { "environmentLabel": "recette", }, }');
  const logs = await createRollingLog({ dir: join(dataDir, 'logs'), name: 'web' });
  const host = await startWebHost({
    port: 0,
    rendererDir: e2eRendererDir(root),
    dataDir: join(dataDir, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    settingsFile,
    demo: true,
    demoPopulation: false,
    logger: logs.logger,
    logDir: logs.dir,
  });
  const context = await browser.newContext({ baseURL: host.url });
  try {
    const copy = readdirSync(dataDir).find((name) => name.startsWith('settings.illisible-'));
    expect(copy).toBeDefined();
    const page = await context.newPage();
    await page.goto(`${host.url}/login`);
    const banner = page.getByTestId('settings-set-aside');
    await expect(banner).toContainText(WORKPLACE_MESSAGES.settingsSetAside(join(dataDir, copy!)));
    await expect(banner).toHaveAttribute('role', 'alert');
    await page.getByTestId('settings-set-aside-dismiss').click();
    await expect(banner).toBeHidden();

    await signIn(page, host.url, 'ADMIN');
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-logs')).toHaveText(logs.dir);
    await expect(page.getByRole('button', { name: WORKPLACE_MESSAGES.openLogs })).toBeVisible();
  } finally {
    await context.close();
    await host.close();
    logs.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

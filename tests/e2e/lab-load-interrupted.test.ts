import type { Page } from '@playwright/test';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { expect, signIn, test } from './fixtures';
import { killApi } from './offline-helpers';

/**
 * A laboratory panel load cut by the server's stop: the list says at once that the load was interrupted and that
 * nothing was kept (no « pending » project left spinning), and « Charger à nouveau » loads it once the server is back.
 */

function panel(rows: number): string {
  const lines = ['NAME;SURNAME;GENDER;CRIT_01'];
  for (let i = 0; i < rows; i += 1) lines.push(`Nom${i};Prénom${i};${i % 2 ? 'M' : 'F'};${i % 3 === 0 ? 'fort' : 'faible'}`);
  return lines.join('\r\n');
}

async function answerPicker(page: Page, button: string, csv: string) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId(button).click()]);
  await chooser.setFiles({ name: 'panel.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

test.use({ appOptions: { fresh: true } });

test('a panel load cut by the server says so at once, keeps nothing, and loads again once it is back', async ({ app }) => {
  test.setTimeout(180_000);
  const page = app.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.url, 'SALES');
  await page.goto(`${app.url}/alphonse`);
  await page.getByTestId('lab-new').click();
  await page.getByTestId('lab-new-name').fill('Panel coupé');
  // Big enough to be still loading when the server stops.
  await answerPicker(page, 'lab-new-create', panel(900_000));
  const row = page.locator('[data-name="Panel coupé"]');
  // The server stops while the panel is on its way (its progress shown).
  await expect(page.getByTestId('upload-job')).toBeVisible({ timeout: 60_000 });

  const restart = await killApi(app);
  const interrupted = page.getByTestId('lab-interrupted');
  await expect(interrupted).toContainText(LAB_MESSAGES.loadInterrupted('Panel coupé'), { timeout: 60_000 });
  await expect(row).toHaveCount(0);
  await restart();
  await expect(row).toHaveCount(0);

  await answerPicker(page, 'lab-load-again', panel(30));
  await expect(page.getByTestId('lab-interrupted')).toHaveCount(0);
  await expect(row.locator('[data-testid^="lab-link-"]')).toBeVisible({ timeout: 30_000 });
  await expect(row).toHaveCount(1);
});

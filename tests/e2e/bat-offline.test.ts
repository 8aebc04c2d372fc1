import type { Page } from '@playwright/test';
import { BAT_MESSAGES as B } from '@shared/messages/bat';
import { CONFLICT_MESSAGES as C } from '@shared/messages/conflicts';
import { PNG } from '../fixtures/storage-files';
import { expect, signIn, test, type WebApp } from './fixtures';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';
import { killApi } from './offline-helpers';

/**
 * A proof typed while the server is away (docs/architecture.md, "Versions and conflicts"): the banner says so
 * once, the header never says 'Enregistré', and the autosave that waited goes through when the server is back.
 */

async function uploadCapture(app: WebApp, token: string, advertId: number) {
  const form = new FormData();
  form.append('advertId', String(advertId));
  form.append('file0', new Blob([new Uint8Array(PNG)]), 'capture.png');
  const response = await fetch(`${app.apiUrl}/bat/screenshot/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(response.status).toBe(200);
}

const waitSaved = async (page: Page) => {
  await expect(page.getByTestId('bat-save-state')).toHaveAttribute('data-saving', 'false', { timeout: 15_000 });
  await expect(page.getByTestId('bat-save-state')).toHaveText(B.saved);
};

async function typeAtEnd(page: Page, words: string) {
  await page.getByTestId('bat-text-editable').first().click();
  await page.keyboard.press('End');
  await page.keyboard.type(words);
}

test('a proof typed with the server stopped keeps the text, says so once, and saves it when the server is back', async ({ app }) => {
  // A server stopped and started again within the test: three times the usual time.
  test.slow();
  const page = app.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.url, 'CSM');
  const token = await tokenOf(app, 'CSM');
  const id = await createPreviewAdvert(app, token, 'post');
  await uploadCapture(app, token, id);
  await page.goto(`${app.url}/advert/bat/${id}`);
  await expect(page.getByTestId('bat-editor')).toBeVisible();
  await page.getByTestId('bat-add-text').click();
  await typeAtEnd(page, 'Accroche');
  await waitSaved(page);

  const restart = await killApi(app);
  await typeAtEnd(page, ' tapée serveur arrêté');
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(C.offline);
  await expect(banner).toHaveCount(1);
  const state = page.getByTestId('bat-save-state');
  await expect(state).toHaveText(C.notSaved);
  // Still typing while the server is away: the retried save sends the pages as they are then.
  await typeAtEnd(page, ', suite');
  await expect(state).toHaveText(C.notSaved, { timeout: 5_000 });

  await restart();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await waitSaved(page);
  await page.reload();
  await expect(page.getByTestId('bat-text-editable').first()).toContainText('Accroche tapée serveur arrêté, suite');
});

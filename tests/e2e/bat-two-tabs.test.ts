import type { Page } from '@playwright/test';
import { BAT_MESSAGES as B } from '@shared/messages/bat';
import { PNG } from '../fixtures/storage-files';
import { expect, signIn, test, type WebApp } from './fixtures';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';

/**
 * One proof open in two browser contexts (issue 53 item 1): a text added in the first, then another in the second.
 * The second's save is refused; « Recharger le BAT » shows both texts, and « Enregistré » only once the server holds
 * the merged proof, both texts in it.
 */

test.use({ appOptions: { fresh: true } });

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

async function addText(page: Page, count: number, words: string) {
  await page.getByTestId('bat-add-text').click();
  await expect(page.getByTestId('bat-text-editable')).toHaveCount(count);
  await page
    .getByTestId('bat-text-editable')
    .nth(count - 1)
    .click();
  await page.keyboard.press('End');
  await page.keyboard.type(words);
}

/** Which of `texts` the proof holds as the server has it. */
async function onServer(app: WebApp, token: string, advertId: number, texts: string[]): Promise<string[]> {
  const response = await fetch(`${app.apiUrl}/bat/fetch/${advertId}`, { headers: { authorization: `Bearer ${token}` } });
  const held = JSON.stringify(((await response.json()) as { bat: { pages: unknown[] } | null }).bat?.pages ?? []);
  return texts.filter((text) => held.includes(text));
}

test('a text added in each of two tabs: both reach the server after « Recharger le BAT »', async ({ app, browser }) => {
  const first = app.page;
  await first.setViewportSize({ width: 1366, height: 768 });
  await signIn(first, app.url, 'CSM');
  const token = await tokenOf(app, 'CSM');
  const id = await createPreviewAdvert(app, token, 'post');
  await uploadCapture(app, token, id);
  await first.goto(`${app.url}/advert/bat/${id}`);
  await expect(first.getByTestId('bat-editor')).toBeVisible();

  const secondContext = await browser.newContext({
    baseURL: app.url,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1366, height: 768 },
  });
  const second = await secondContext.newPage();
  try {
    await signIn(second, app.url, 'CSM');
    await second.goto(`${app.url}/advert/bat/${id}`);
    await expect(second.getByTestId('bat-editor')).toBeVisible();

    await addText(first, 1, 'Texte du premier onglet');
    await waitSaved(first);
    await addText(second, 1, 'Texte du second onglet');
    await expect(second.getByTestId('bat-stale')).toBeVisible();

    await second.getByTestId('bat-reload').click();
    await expect(second.getByTestId('bat-text-editable')).toHaveCount(2);
    await waitSaved(second);
    // « Enregistré »: the server holds the merged proof, both texts in it.
    const both = ['Texte du premier onglet', 'Texte du second onglet'];
    expect(await onServer(app, token, id, both)).toEqual(both);
    await first.reload();
    await expect(first.getByTestId('bat-text-editable')).toHaveCount(2);
  } finally {
    await secondContext.close();
  }
});

import type { Page } from '@playwright/test';
import { BAT_MESSAGES as B } from '@shared/messages/bat';
import { CONFLICT_MESSAGES as C } from '@shared/messages/conflicts';
import { PNG } from '../fixtures/storage-files';
import { expect, signIn, test, type WebApp } from './fixtures';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';

/**
 * Two people on one proof (docs/architecture.md, "Versions and conflicts"), a CSM and a CSM_LEAD each in their own
 * browser context: the second's refused save says who changed the proof, never 'Enregistré', and reloading keeps
 * what they typed, with theirs beside yours for the items both changed.
 */

test.describe.configure({ mode: 'serial' });

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

/** Appends `words` at the end of the proof's `index`-th text. */
async function typeInto(page: Page, index: number, words: string) {
  await page.getByTestId('bat-text-editable').nth(index).click();
  await page.keyboard.press('End');
  await page.keyboard.type(words);
}

test('a proof saved meanwhile by someone else: named, not « Enregistré », my texts kept and chosen per item', async ({ app, browser }) => {
  const csm = app.page;
  await csm.setViewportSize({ width: 1366, height: 768 });
  await signIn(csm, app.url, 'CSM');
  const token = await tokenOf(app, 'CSM');
  const id = await createPreviewAdvert(app, token, 'post');
  await uploadCapture(app, token, id);

  // The CSM writes two texts on the proof.
  await csm.goto(`${app.url}/advert/bat/${id}`);
  await expect(csm.getByTestId('bat-editor')).toBeVisible();
  for (const [index, words] of ['Accroche', 'Prix'].entries()) {
    await csm.getByTestId('bat-add-text').click();
    // The new text is typed into once it is drawn: counting before (a busy machine) typed into the previous one.
    await expect(csm.getByTestId('bat-text-editable')).toHaveCount(index + 1);
    await typeInto(csm, index, words);
    await waitSaved(csm);
  }

  const leadContext = await browser.newContext({
    baseURL: app.url,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1366, height: 768 },
  });
  const lead = await leadContext.newPage();
  try {
    await signIn(lead, app.url, 'CSM_LEAD');
    await lead.goto(`${app.url}/advert/bat/${id}`);
    await expect(lead.getByTestId('bat-text-editable')).toHaveText(['Accroche', 'Prix']);

    // The CSM changes the first text; the lead, on the proof opened before, changes both.
    await typeInto(csm, 0, ' du CSM');
    await waitSaved(csm);
    await typeInto(lead, 0, ' du lead');
    await typeInto(lead, 1, ' : 10 €');

    const stale = lead.getByTestId('bat-stale');
    await expect(stale).toContainText(/Ce BAT a été modifié par Camille Martin à \d{2}:\d{2} depuis que vous l'avez ouvert\./);
    await expect(lead.getByTestId('bat-save-state')).toHaveText(C.notSaved);
    await expect(lead.getByTestId('bat-text-editable')).toHaveText(['Accroche du lead', 'Prix : 10 €']);
    await lead.screenshot({ path: test.info().outputPath('bat-stale-1366.png') });

    // Reloading brings the CSM's proof and keeps the lead's texts: the first, changed by both, is to decide.
    await lead.getByTestId('bat-reload').click();
    const panel = lead.getByTestId('conflict-panel');
    await expect(panel).toBeVisible();
    await expect(stale).toHaveCount(0);
    await expect(panel.getByTestId('conflict-mine')).toHaveText(['Accroche du lead']);
    await expect(panel.getByTestId('conflict-theirs')).toHaveText(['Accroche du CSM']);
    await expect(lead.getByTestId('bat-text-editable')).toHaveText(['Accroche du lead', 'Prix : 10 €']);
    await expect(lead.getByTestId('bat-save-state')).toHaveText(C.notSaved);
    await lead.screenshot({ path: test.info().outputPath('bat-conflict-1366.png') });

    await panel.getByRole('button', { name: C.takeTheirs }).click();
    await expect(panel).toHaveCount(0);
    await expect(lead.getByTestId('bat-text-editable')).toHaveText(['Accroche du CSM', 'Prix : 10 €']);
    await waitSaved(lead);

    // Neither is lost: the CSM's first text and the lead's second, on the server.
    await csm.reload();
    await expect(csm.getByTestId('bat-text-editable')).toHaveText(['Accroche du CSM', 'Prix : 10 €']);
  } finally {
    await leadContext.close();
  }
});

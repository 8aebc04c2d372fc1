import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { BAT_MESSAGES as B } from '@shared/messages/bat';
import { PREVIEW_MESSAGES as M } from '@shared/messages/previews';
import { expect, test } from './fixtures';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';

const toast = (page: Page, kind: 'success' | 'error' | 'info', text: string) => page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

/** Draws an arrow on the active layer from (x1, y1) to (x2, y2), in canvas pixels at zoom 1. */
async function drawArrow(page: Page, from: [number, number], to: [number, number]) {
  const area = page.getByTestId('bat-arrow-area');
  const box = (await area.boundingBox())!;
  await page.mouse.move(box.x + from[0], box.y + from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0], box.y + to[1], { steps: 4 });
  await page.mouse.up();
}

const waitSaved = async (page: Page) => {
  await expect(page.getByTestId('bat-save-state')).toHaveAttribute('data-saving', 'false', { timeout: 15_000 });
  await expect(page.getByTestId('bat-save-state')).toHaveText(B.saved);
};

test.describe.configure({ mode: 'serial' });

test.describe('proof (BAT) editor (web host, Chromium)', () => {
  test('builds a two-page proof from a capture, saves it by itself, exports the A4 PDF and gets a version validated', async ({ app, signedIn }) => {
    test.setTimeout(240_000);
    const page = await signedIn('CSM');
    const id = await createPreviewAdvert(app, await tokenOf(app, 'CSM'), 'post');
    await page.goto(`${app.url}/advert/bat/${id}`);
    await expect(page.getByTestId('bat-empty')).toHaveText(B.batMissing);

    // A capture from the advert editor makes the proof, its first screenshot in the library.
    await page.goto(`${app.url}/adverts/edit/${id}`);
    await expect(page.getByTestId('preview')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('preview-capture').click();
    await expect(toast(page, 'success', M.captureAvailable)).toBeVisible({ timeout: 20_000 });
    await page.goto(`${app.url}/advert/bat/${id}`);
    await expect(page.getByTestId('bat-editor')).toBeVisible();
    await expect(page.getByTestId('bat-screenshot')).toHaveCount(1);

    // A page: it becomes the current one.
    await page.getByTestId('bat-add-page').click();
    await expect(page.getByTestId('bat-page-button')).toHaveCount(2);
    await expect(page.getByTestId('bat-page-button').nth(1)).toHaveAttribute('aria-current', 'page');

    // A text with a bold word and a link.
    await page.getByTestId('bat-add-text').click();
    const editable = page.getByTestId('bat-text-editable');
    await editable.click();
    await page.keyboard.type('Voir Gras');
    for (let index = 0; index < 4; index += 1) await page.keyboard.press('Shift+ArrowLeft');
    await page.getByTestId('bat-text-bold').click();
    await expect(editable.locator('strong, .bat-bold')).toHaveText('Gras');
    await page.keyboard.press('Home');
    for (let index = 0; index < 4; index += 1) await page.keyboard.press('Shift+ArrowRight');
    await page.getByTestId('bat-text-link').click();
    await page.getByTestId('bat-text-link-url').fill('https://www.exemple.fr/bat');
    await page.getByTestId('bat-text-link-apply').click();
    await expect(editable.locator('a[href="https://www.exemple.fr/bat"]')).toHaveText('Voir');

    // Arrow mode: Escape cancels it; a drawn arrow is selected (cyan), Escape deselects, Backspace deletes.
    await page.getByTestId('bat-add-arrow').click();
    await expect(page.getByTestId('bat-arrow-mode')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('bat-arrow-mode')).toHaveCount(0);
    await page.getByTestId('bat-add-arrow').click();
    await drawArrow(page, [500, 300], [700, 450]);
    await expect(page.getByTestId('bat-arrow-mode')).toHaveCount(0);
    await expect(page.getByTestId('bat-arrow')).toHaveAttribute('data-selected', 'true');
    await expect(page.getByTestId('bat-arrow').locator('line').first()).toHaveAttribute('stroke', 'cyan');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('bat-arrow').locator('line').first()).toHaveAttribute('stroke', 'red');
    await page.getByTestId('bat-arrow-hit').click();
    await page.keyboard.press('Backspace');
    await expect(page.getByTestId('bat-arrow')).toHaveCount(0);
    await page.getByTestId('bat-add-arrow').click();
    await drawArrow(page, [600, 200], [800, 350]);
    await expect(page.getByTestId('bat-arrow')).toHaveCount(1);
    await page.keyboard.press('Escape');

    // The capture dragged from the library into the page: an image item, toggled into the mobile frame.
    // (HTML5 drag events with one DataTransfer, as the browser sends them from the library to the page.)
    const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
    const target = page.locator('.bat-layer.active');
    const box = (await target.boundingBox())!;
    await page.getByTestId('bat-screenshot').locator('img').dispatchEvent('dragstart', { dataTransfer });
    const at = { dataTransfer, clientX: box.x + 120, clientY: box.y + 300, bubbles: true };
    await target.dispatchEvent('dragover', at);
    await target.dispatchEvent('drop', at);
    const image = page.getByTestId('bat-item-image');
    await expect(image).toHaveCount(1);
    await image.click();
    await page.getByTestId('bat-item-frame').click();
    await expect(page.getByTestId('bat-mobile-frame')).toBeVisible();

    // Saved without doing anything: everything is there after a reload.
    await waitSaved(page);
    await page.reload();
    await page.getByTestId('bat-page-button').nth(1).click();
    await expect(page.getByTestId('bat-text-editable').locator('strong, .bat-bold')).toHaveText('Gras');
    await expect(page.getByTestId('bat-text-editable').locator('a[href="https://www.exemple.fr/bat"]')).toHaveText('Voir');
    await expect(page.getByTestId('bat-arrow')).toHaveCount(1);
    await expect(page.getByTestId('bat-mobile-frame')).toBeVisible();

    // The PDF: one A4 landscape page per BAT page, offered as bat.pdf.
    const downloading = page.waitForEvent('download');
    await page.getByTestId('bat-export').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('bat.pdf');
    const pdf = await PDFDocument.load(await readFile(await download.path()));
    expect(pdf.getPageCount()).toBe(2);
    for (const pdfPage of pdf.getPages()) {
      const { width, height } = pdfPage.getSize();
      expect([Math.round(width), Math.round(height)]).toEqual([842, 595]);
    }

    // A frozen version, sent then validated.
    await page.getByTestId('bat-freeze').click();
    const version = page.getByTestId('bat-version').first();
    await expect(version).toHaveAttribute('data-state', 'draft', { timeout: 60_000 });
    await version.getByTestId('bat-version-sent').click();
    await expect(version).toHaveAttribute('data-state', 'sent');
    await version.getByTestId('bat-version-validated').click();
    await expect(version.getByTestId('bat-version-state')).toHaveText('Validé');
  });
});

import type { Page } from '@playwright/test';
import { PREVIEW_MESSAGES as M } from '@shared/messages/previews';
import { UNSAVED_CHANGES_MESSAGES as U } from '@shared/messages/unsaved-changes';
import { expect, signIn, test } from './fixtures';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';

const toast = (page: Page, kind: 'success' | 'error', text: string) => page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const zoom = (page: Page) => page.getByTestId('preview-zoom');

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

test.describe('previews (web host, Chromium)', () => {
  test('draws the draft, zooms, captures to the BAT and shows the capture on /advert/bat/{id}', async ({ app, signedIn }) => {
    const { url } = app;
    const page = await signedIn('CSM');
    await page.goto(`${url}/adverts/edit/new`);
    await expect(page.getByTestId('preview-save-first')).toHaveText(M.saveToPreview);

    const token = await tokenOf(app, 'CSM');
    const id = await createPreviewAdvert(app, token, 'post');
    await page.goto(`${url}/adverts/edit/${id}`);
    const preview = page.getByTestId('preview');
    await expect(preview).toBeVisible({ timeout: 20_000 });
    await expect(preview).toHaveAttribute('data-type', 'post');
    // The fixture's tagline is over 180 characters: cut, with 'Lire la suite'.
    await expect(preview.getByTestId('pv-read-more')).toHaveText('Lire la suite');

    // An unsaved change shows at once.
    await page.getByTestId('field-title').fill('Titre pas encore enregistré');
    await expect(preview.getByTestId('pv-title')).toHaveText('Titre pas encore enregistré', { timeout: 10_000 });
    await page.getByTestId('field-showReadMore').uncheck();
    await expect(preview.getByTestId('pv-read-more')).toHaveCount(0, { timeout: 10_000 });

    // Zoom: 0.05 steps, bounded at 1.
    const before = await zoom(page).textContent();
    await page.getByTestId('preview-zoom-out').click();
    await expect(zoom(page)).toHaveText(`${Number.parseInt(before!, 10) - 5} %`);
    for (let index = 0; index < 12; index += 1) {
      if (await page.getByTestId('preview-zoom-in').isDisabled()) break;
      await page.getByTestId('preview-zoom-in').click();
    }
    await expect(zoom(page)).toHaveText('100 %');

    // Capture: a PNG in the advert's BAT screenshots.
    await page.getByTestId('preview-capture').click();
    await expect(toast(page, 'success', M.captureAvailable)).toBeVisible({ timeout: 20_000 });
    // The BAT editor is another page that does not carry the draft (its Back reloads the saved advert): the
    // unsaved title is asked about, and the user leaves without saving it.
    await page.getByTestId('preview-edit-bat').click();
    await expect(page.getByTestId('confirm-message')).toHaveText(U.leaveQuestion);
    await page.getByRole('button', { name: U.leave }).click();
    await page.waitForURL((u) => u.pathname === `/advert/bat/${id}`);
    await expect(page.getByTestId('bat-editor')).toBeVisible();
    const shot = page.getByTestId('bat-screenshot').locator('img');
    await expect(shot).toBeVisible({ timeout: 20_000 });
    // The image is served and decodes: a real PNG, as wide as the post canvas (360 px).
    await expect.poll(() => shot.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), { timeout: 10_000 }).toBe(360);
  });

  test('expands a quiz into its three steps at 0.9 and offers the capture only when expanded', async ({ app }) => {
    const { page, url } = app;
    const token = await tokenOf(app, 'CSM');
    const id = await createPreviewAdvert(app, token, 'quiz');
    await page.goto(`${url}/adverts/edit/${id}`);
    const preview = page.getByTestId('preview');
    await expect(preview).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('preview-capture')).toHaveCount(0);
    await page.getByTestId('preview-expand').click();
    await expect(preview).toHaveAttribute('data-expanded', 'true');
    await expect(zoom(page)).toHaveText('90 %');
    await expect(page.getByTestId('preview-capture')).toHaveCount(1);
    const quiz = page.getByTestId('pv-quiz');
    await expect(quiz).toHaveAttribute('data-step', 'answer');
    await page.getByTestId('pv-quiz-validate').click();
    await expect(quiz).toHaveAttribute('data-step', 'results');
    await expect(page.getByTestId('pv-quiz-results')).toContainText('62 %');
    await page.getByTestId('pv-quiz-more').click();
    await expect(quiz).toHaveAttribute('data-step', 'more');
    await page.getByTestId('preview-expand').click();
    await expect(page.getByTestId('preview-capture')).toHaveCount(0);
  });

  test('shows the magnified preview on hover of the id in the list, and SALES cannot capture', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/adverts`);
    await expect(page.getByTestId('adverts-page')).toBeVisible();
    const firstId = page.locator('[data-testid^="hover-preview-"]').first();
    await expect(firstId).toBeVisible({ timeout: 20_000 });
    await firstId.hover();
    await expect(page.getByTestId('hover-preview-card')).toBeVisible({ timeout: 10_000 });

    const token = await tokenOf(app, 'CSM');
    const id = await createPreviewAdvert(app, token, 'video');
    const { signOut } = await import('./helpers');
    await signOut(page);
    await signIn(page, url, 'SALES');
    await page.goto(`${url}/adverts/edit/${id}`);
    await expect(page.getByTestId('preview')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('preview-capture').click();
    await expect(toast(page, 'error', 'User not allowed')).toBeVisible({ timeout: 20_000 });
  });
});

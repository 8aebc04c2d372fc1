import type { Page } from '@playwright/test';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { expect, test } from './fixtures';
import { signOut } from './helpers';

/**
 * Address fields and field labels (docs/content.md), walked as staff did: an address field that holds no address says so at the field in
 * French and is not saved; a publication refused for missing properties names them by their labels and highlights
 * them, with no 'Enregistré' beside it; the new-group dialog says 'Créer'; a new article's preview says article.
 */

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const fieldBox = (page: Page, name: string) => page.locator(`[data-field="${name}"]`).first();

async function clearToasts(page: Page) {
  for (const shown of await page.locator('.Toastify__toast').all()) await shown.click({ timeout: 2000 }).catch(() => undefined);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 5000 });
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

test.describe('content fields (web host, Chromium)', () => {
  test.describe.configure({ timeout: 180_000 });
  test('a bad source address is refused at its field in French; a refused publication lists labels and highlights them', async ({ signedIn }) => {
    const page = await signedIn('CSM');
    await page.waitForURL((u) => u.pathname === '/adverts');
    await page.getByRole('link', { name: M.newPost }).click();
    await page.waitForURL((u) => u.pathname === '/adverts/edit/new');
    await field(page, 'name').fill('Campagne adresses');
    await field(page, 'type').selectOption('post');

    await field(page, 'source').fill('pas une url');
    await expect(page.getByTestId('field-error-source')).toHaveText('Source : adresse http ou https ou deeplink attendue');
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'warning', 'Source : adresse http ou https ou deeplink attendue')).toBeVisible();
    await expect(fieldBox(page, 'source')).toHaveAttribute('data-highlighted', 'true');
    expect(page.url()).toContain('/adverts/edit/new');
    await clearToasts(page);

    await field(page, 'source').fill('https://www.exemple.fr/cardio');
    await expect(page.getByTestId('field-error-source')).toHaveCount(0);
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'success', M.saved)).toBeVisible();
    await page.waitForURL((u) => /^\/adverts\/edit\/\d+$/.test(u.pathname));
    await clearToasts(page);

    // Publishing a post without its logo, images, author and title: their labels, the fields highlighted.
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'error', 'Les propriétés Logo, Images, Auteur, Titre sont requises')).toBeVisible();
    // The highlight lasts 3 s (§5): the four fields read in one go, not one after the other on a busy machine.
    await expect
      .poll(() => page.locator('[data-field][data-highlighted="true"]').evaluateAll((boxes) => boxes.map((box) => box.getAttribute('data-field'))))
      .toEqual(expect.arrayContaining(['logo', 'images', 'author', 'title']));
    await expect(fieldBox(page, 'source')).not.toHaveAttribute('data-highlighted');
    await expect(page.locator('.Toastify__toast--success')).toHaveCount(0);
    await expect(page.getByTestId('publish-toggle')).toHaveText(M.publish);
    await clearToasts(page);

    // An address that is no address is said so at publication, not 'required'.
    await field(page, 'logo').fill('javascript:alert(1)');
    await expect(page.getByTestId('field-error-logo')).toHaveText('Logo : adresse http ou https attendue');
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'warning', 'Logo : adresse http ou https attendue')).toBeVisible();
    await signOut(page);
  });

  test('the new-group dialog says Créer; a new article says to save the article', async ({ app, signedIn }) => {
    const { url } = app;
    const page = await signedIn('ADMIN');
    await page.goto(`${url}/groupes`);
    await page.getByTestId('groups-new').click();
    await expect(page.getByTestId('group-new-create')).toHaveText('Créer');
    await page.getByTestId('group-new-dialog').getByRole('button', { name: 'Annuler' }).click();

    await page.goto(`${url}/articles/edit/new`);
    await expect(page.getByTestId('preview-save-first')).toHaveText(PREVIEW_MESSAGES.saveArticleToPreview);
    await signOut(page);
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { launchChromium, openWebApp, signIn, type WebApp } from './fixtures';
import { signOut } from './helpers';

/**
 * Issue 21 items 9 and 18, walked as staff did: an address field that holds no address says so at the field in
 * French and is not saved; a publication refused for missing properties names them by their labels and highlights
 * them, with no 'Enregistré' beside it; the new-group dialog says 'Créer'; a new article's preview says article.
 */

let browser: Browser;
let app: WebApp;

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
  app.page.setDefaultTimeout(20_000);
});
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) => page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const highlighted = (page: Page, name: string) => page.locator(`[data-field="${name}"]`).first().getAttribute('data-highlighted');

async function clearToasts(page: Page) {
  for (const shown of await page.locator('.Toastify__toast').all()) await shown.click({ timeout: 2000 }).catch(() => undefined);
  await expect.poll(() => page.locator('.Toastify__toast').count(), { timeout: 5000 }).toBe(0);
}

describe('content fields (web host, Chromium)', { timeout: 180_000 }, () => {
  it('a bad source address is refused at its field in French; a refused publication lists labels and highlights them', async () => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.waitForURL((u) => u.pathname === '/adverts');
    await page.getByRole('link', { name: M.newPost }).click();
    await page.waitForURL((u) => u.pathname === '/adverts/edit/new');
    await field(page, 'name').fill('Campagne adresses');
    await field(page, 'type').selectOption('post');

    await field(page, 'source').fill('pas une url');
    await expect.poll(() => page.getByTestId('field-error-source').textContent()).toBe('Source : adresse http ou https ou deeplink attendue');
    await page.getByTestId('editor-save').click();
    await toast(page, 'warning', 'Source : adresse http ou https ou deeplink attendue').waitFor();
    expect(await highlighted(page, 'source')).toBe('true');
    expect(page.url()).toContain('/adverts/edit/new');
    await clearToasts(page);

    await field(page, 'source').fill('https://www.exemple.fr/cardio');
    await expect.poll(() => page.getByTestId('field-error-source').count()).toBe(0);
    await page.getByTestId('editor-save').click();
    await toast(page, 'success', M.saved).waitFor();
    await page.waitForURL((u) => /^\/adverts\/edit\/\d+$/.test(u.pathname));
    await clearToasts(page);

    // Publishing a post without its logo, images, author and title: their labels, the fields highlighted.
    await page.getByTestId('publish-toggle').click();
    await toast(page, 'error', 'Les propriétés Logo, Images, Auteur, Titre sont requises').waitFor();
    for (const name of ['logo', 'images', 'author', 'title']) expect(await highlighted(page, name), name).toBe('true');
    expect(await highlighted(page, 'source')).toBeNull();
    expect(await page.locator('.Toastify__toast--success').count()).toBe(0);
    expect(await page.getByTestId('publish-toggle').textContent()).toBe(M.publish);
    await clearToasts(page);

    // An address that is no address does not count as filled either.
    await field(page, 'logo').fill('javascript:alert(1)');
    await expect.poll(() => page.getByTestId('field-error-logo').textContent()).toBe('Logo : adresse http ou https attendue');
    await page.getByTestId('publish-toggle').click();
    await toast(page, 'error', 'Les propriétés Logo, Images, Auteur, Titre sont requises').waitFor();
    await signOut(page);
  });

  it('the new-group dialog says Créer; a new article says to save the article', async () => {
    const { page, url } = app;
    await signIn(page, url, 'ADMIN');
    await page.goto(`${url}/groupes`);
    await page.getByTestId('groups-new').click();
    await expect.poll(() => page.getByTestId('group-new-create').textContent()).toBe('Créer');
    await page.getByTestId('group-new-dialog').getByRole('button', { name: 'Annuler' }).click();

    await page.goto(`${url}/articles/edit/new`);
    await expect.poll(() => page.getByTestId('preview-save-first').textContent()).toBe(PREVIEW_MESSAGES.saveArticleToPreview);
    await signOut(page);
  });
});

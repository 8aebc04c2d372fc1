import type { Page } from '@playwright/test';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { expect, signIn, test, type WebApp } from './fixtures';
import { signOut } from './helpers';

/** Articles written straight in the embedded database (the list's paging needs more than a page of them). */
async function insertArticles(target: WebApp, prefix: string, count: number, model = 'latest'): Promise<number[]> {
  const { sql } = await import('drizzle-orm');
  const { rows } = await import('../../src-server/db/rows');
  const now = Math.floor(Date.now() / 1000);
  const inserted = await rows<{ id: number }>(
    target.host.embedded!.database.db,
    sql`INSERT INTO articles (name, type, model, created_at, updated_at, data)
        SELECT ${prefix} || ' ' || lpad(g::text, 3, '0'), 'post', ${model}, ${now} - g, ${now} - g, '{}'::jsonb FROM generate_series(1, ${count}) AS g
        RETURNING id`,
  );
  return inserted.map((row) => row.id);
}

const toast = (page: Page, kind: 'warning' | 'error' | 'success', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

test.describe('articles (web host, Chromium)', () => {
  test.describe.configure({ timeout: 180_000 });
  test('creates, validates and publishes an article, then archives it from the row menu', async ({ signedIn }) => {
    const page = await signedIn('ADMIN');
    await page.getByTestId('nav-articles').click();
    await page.waitForURL((u) => u.pathname === '/articles');
    await page.getByTestId('article-new').click();
    await page.waitForURL((u) => u.pathname === '/articles/edit/new');
    // A new article starts as a post with an empty name (§2.5).
    await expect(page.getByTestId('field-type')).toHaveValue('post');
    await expect(page.getByTestId('field-name')).toHaveValue('');
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'warning', `${M.articleNameRequired} / ${M.articleAreaRequired}`)).toBeVisible();

    await page.getByTestId('field-name').fill('Dossier HTA e2e');
    // The Audience section edits the article's own criteria (§2.5): an Area is required.
    await page.getByTestId('criterion-search-Area').fill('fren');
    await page.getByTestId('criterion-results-Area').getByRole('button', { name: 'french' }).click();
    await page.getByTestId('editor-save').click();
    await page.waitForURL((u) => /\/articles\/edit\/\d+$/.test(u.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByTestId('publish-toggle')).toHaveText(M.publishArticle);
    // Articles have no campaign actions.
    await expect(page.getByTestId('campaign-start')).toHaveCount(0);
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'success', M.contentOnline)).toBeVisible();
    await expect(page.getByTestId('publish-toggle')).toHaveText(M.unpublishArticle);
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'success', M.contentOffline)).toBeVisible();

    // Notification scheduling: the stop date follows the start by one month in the article editor.
    await page.getByTestId('field-type').selectOption('notification');
    await page.getByTestId('section-scheduling-toggle').click();
    await page.getByTestId('field-autoStartAt').fill('2030-01-31T09:00');
    await expect(page.getByTestId('field-autoStopAt')).toHaveValue('2030-02-28T09:00');
    await page.getByTestId('schedule-clear').click();
    await expect(page.getByTestId('field-autoStopAt')).toHaveValue('');
    await page.getByTestId('field-type').selectOption('post');
    await page.getByTestId('editor-save-quit').click();
    await page.waitForURL((u) => u.pathname === '/articles');

    await page.getByTestId('articles-search').fill('Dossier HTA e2e');
    const row = page.getByTestId(`article-row-${id}`);
    await expect(row).toBeVisible();
    await page.getByTestId('article-filters-isPinned').selectOption({ label: 'Non épinglés' });
    await expect(page.getByTestId('chip-isPinned')).toBeVisible();
    await expect(row).toBeVisible();
    await page.getByTestId('chip-remove-isPinned').click();
    await page.getByTestId(`article-archive-${id}`).click();
    // The default filter hides archived articles.
    await expect(row).toHaveCount(0);
    await page.getByTestId('chip-remove-archived').click();
    await expect(row).toBeVisible();
    // Delete, after the row menu's confirm: the article's own notice, and the row leaves the list.
    await page.getByTestId(`article-delete-${id}`).click();
    const prompt = page.getByTestId(`article-delete-${id}-prompt`);
    await expect(prompt).toHaveAttribute('aria-label', M.confirmDelete);
    await prompt.getByRole('button', { name: 'Oui' }).click();
    await expect(toast(page, 'success', M.articleDeleted)).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  test('loads the next page when the bottom comes within 1000 px, sorts, and shows not-migrated items', async ({ app }) => {
    const { page, url } = app;
    await insertArticles(app, 'Fiche e2e', 60);
    const [old] = await insertArticles(app, 'Ancien modèle', 1, 'v1');
    await page.goto(`${url}/articles`);
    await page.getByTestId('articles-search').fill('Fiche e2e');
    await expect(page.getByTestId('articles-total')).toHaveText('60 contenus');
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThanOrEqual(25);
    const before = await page.locator('tbody tr').count();
    expect(before).toBeLessThan(60);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 10_000 }).toBeGreaterThan(before);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.locator('tbody tr')).toHaveCount(60, { timeout: 10_000 });

    await page.getByTestId('sort-name').click();
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-name', 'Fiche e2e 001');
    await page.getByTestId('sort-name').click();
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-name', 'Fiche e2e 060');

    await page.goto(`${url}/articles/edit/${old}`);
    await expect(page.getByTestId('editor-not-migrated')).toHaveText(M.notMigrated('Ancien modèle 001'));
    await page.goto(`${url}/articles/edit/999999`);
    await expect(page.getByTestId('editor-not-found')).toContainText(ADVERT_MESSAGES.advertNotFound);
  });
  test("lets CONTENT_CREATOR set the article's own audience criteria and save them; a reload shows them", async ({ app }) => {
    const { page, url } = app;
    await signOut(page);
    await signIn(page, url, 'CONTENT_CREATOR');
    await page.goto(`${url}/articles/edit/new`);
    await page.getByTestId('field-name').fill('Critères e2e');
    const criteria = page.getByTestId('article-criteria');
    // Each label of §2.5 has its picker; OrGroup is shown as 'Appetence'.
    for (const label of ['Area', 'Country', 'Role', 'Profession', 'Specialty', 'Title', 'OrGroup'])
      await expect(criteria.getByTestId(`criteria-${label}`)).toBeVisible();
    await expect(criteria.getByTestId('criteria-OrGroup').locator('.criterion-title')).toHaveText('Appetence');
    await page.getByTestId('criterion-search-Area').fill('spa');
    await page.getByTestId('criterion-results-Area').getByRole('button', { name: 'spanish' }).click();
    await page.getByTestId('criterion-search-Title').fill('doc');
    await page.getByTestId('criterion-results-Title').getByRole('button', { name: 'DOCTOR' }).click();
    await page.getByTestId('editor-save').click();
    await page.waitForURL((u) => /\/articles\/edit\/\d+$/.test(u.pathname));
    await expect(page.locator('.Toastify__toast--success', { hasText: M.saved }).first()).toBeVisible();

    await page.reload();
    await expect(page.getByTestId('article-criteria')).toBeVisible();
    await expect(page.getByTestId('criteria-Area').locator('.tag')).toHaveText(['spanish×'], { timeout: 20_000 });
    await expect(page.getByTestId('criteria-Title').locator('.tag')).toHaveText(['DOCTOR×']);

    // Removing a criterion and saving replaces the set.
    await page.getByTestId('criteria-Title').getByRole('button', { name: 'Retirer DOCTOR' }).click();
    await page.getByTestId('editor-save').click();
    await expect(page.locator('.Toastify__toast--success', { hasText: M.saved }).nth(0)).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('criteria-Area').locator('.tag')).toHaveCount(1, { timeout: 20_000 });
    await expect(page.getByTestId('criteria-Title').locator('.tag')).toHaveCount(0);
  });
});

import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { expect, signIn, test } from './fixtures';

/**
 * An article saved without an Area criterion (adverts-articles.md §5, issue 53 item 4): « L'Area de l'audience est
 * requise » is said at the article's audience criteria, not only in the toast, until the criteria change.
 */

test.use({ viewport: { width: 1366, height: 768 }, appOptions: { fresh: true } });

test('an article without an Area criterion says so at its audience criteria', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto('/articles/edit/new');
  await page.getByTestId('field-name').fill('Article sans Area');
  await page.getByTestId('editor-save').click();
  await expect(page.locator('.Toastify__toast--warning', { hasText: M.articleAreaRequired })).toBeVisible();
  const atField = page.getByTestId('article-criteria').getByTestId('field-error-_$audiences');
  await expect(atField).toHaveText(M.articleAreaRequired);
  await expect(page).toHaveURL(/\/articles\/edit\/new$/);
});

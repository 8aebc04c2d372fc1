import type { Page } from '@playwright/test';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { STORY_MESSAGES as S } from '@shared/messages/story';
import { expect, test } from './fixtures';
import { signOut } from './helpers';

/**
 * Messages where the user looks (docs/content.md, "The editor"), walked as staff did: every refused value of the advert editor
 * says what is wrong at its field, in French, by its label — 'Vues max par utilisateur' emptied or 2.5, an address
 * that is no address (not reported as 'requises'), a video advert without its video, a story screen's link, a
 * story CTA colour 'red'.
 */

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const fieldError = (page: Page, name: string) => page.getByTestId(`field-error-${name}`);

async function clearToasts(page: Page) {
  for (const shown of await page.locator('.Toastify__toast').all()) await shown.click({ timeout: 2000 }).catch(() => undefined);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 10_000 });
}

/** Nouveau post, a name and a type, then Save: the editor on the new advert's route. */
async function newAdvert(page: Page, name: string, type: string) {
  await page.goto('/adverts/edit/new');
  await field(page, 'name').fill(name);
  await field(page, 'type').selectOption(type);
  await page.getByTestId('editor-save').click();
  await page.waitForURL((u) => /^\/adverts\/edit\/\d+$/.test(u.pathname), { timeout: 20_000 });
  await clearToasts(page);
}

test.describe.configure({ mode: 'serial' });

test.describe('field messages of the advert editor (web host, Chromium)', () => {
  test.describe.configure({ timeout: 180_000 });

  test("'Vues max par utilisateur' emptied or not whole is refused at the field, not replaced by 0", async ({ signedIn }) => {
    const page = await signedIn('CSM');
    await newAdvert(page, 'Vues max e2e', 'post');
    for (const typed of ['', '2.5', '-1']) {
      await field(page, 'maxViews').fill(typed);
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'warning', M.maxViewsInvalid)).toBeVisible();
      await expect(fieldError(page, 'maxViews')).toHaveText(M.maxViewsInvalid);
      await expect(field(page, 'maxViews')).toHaveValue(typed);
      await clearToasts(page);
    }
    // Changing the field takes its message away; a whole number saves.
    await field(page, 'maxViews').fill('3');
    await expect(fieldError(page, 'maxViews')).toHaveCount(0);
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'success', M.saved)).toBeVisible();
    await page.reload();
    await expect(field(page, 'maxViews')).toHaveValue('3');

    // The history names its changes in French, never by the server's keys ('create', 'update').
    await page.getByTestId('toggle-history').click();
    const actions = page.getByTestId('history').getByTestId('history-action');
    await expect(actions).toHaveText(['Modification', 'Création']);
    await expect(page.getByTestId('history')).not.toContainText(/\b(update|create)\b/);
    await signOut(page);
  });

  test('publishing with an address that is no address says so at the field, not that it is required', async ({ signedIn }) => {
    const page = await signedIn('CSM');
    await newAdvert(page, 'Adresse e2e', 'post');
    await field(page, 'logo').fill('javascript:alert(1)');
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'warning', 'Logo : adresse http ou https attendue')).toBeVisible();
    await expect(fieldError(page, 'logo')).toHaveText('Logo : adresse http ou https attendue');
    await expect(page.locator('.Toastify__toast', { hasText: 'requises' })).toHaveCount(0);
    await clearToasts(page);
    // Empty required properties: the list by labels, and each field says it is required.
    await field(page, 'logo').fill('');
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'error', 'Les propriétés Logo, Images, Auteur, Source, Titre sont requises')).toBeVisible();
    await expect(fieldError(page, 'author')).toHaveText('Auteur : champ obligatoire');
    await expect(fieldError(page, 'title')).toHaveText('Titre : champ obligatoire');
    await signOut(page);
  });

  test("a video advert without its video says the spec's sentence, at the video", async ({ signedIn }) => {
    const page = await signedIn('CSM');
    await newAdvert(page, 'Vidéo e2e', 'video');
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'error', ADVERT_MESSAGES.videoRequired)).toBeVisible();
    await expect(fieldError(page, 'video')).toHaveText(ADVERT_MESSAGES.videoRequired);
    await expect(page.locator('.Toastify__toast', { hasText: /Vidéo.*sont requises/ })).toHaveCount(0);
    await signOut(page);
  });

  test("a story screen's bad link is shown at its 'Lien' field; a CTA colour 'red' gets the warning icon", async ({ signedIn }) => {
    const page = await signedIn('CSM');
    await newAdvert(page, 'Story e2e messages', 'story');
    if ((await page.getByTestId('section-cta').getAttribute('open')) === null) await page.getByTestId('section-cta-toggle').click();
    await page.getByTestId('story-add-screen').click();
    await expect(page.getByTestId('screen-link')).toBeVisible({ timeout: 15_000 });
    await page.getByTestId('screen-link').fill('pas-un-lien');
    await expect(fieldError(page, 'screen-link')).toHaveText('Lien : adresse http ou https ou deeplink attendue');
    await page.getByTestId('screen-link').fill('https://www.exemple.fr/story');
    await expect(fieldError(page, 'screen-link')).toHaveCount(0);

    await field(page, 'callToAction.textColor').fill('red');
    await expect(page.getByTestId('colour-warning-callToAction.textColor')).toBeVisible();
    await expect(page.getByTestId('colour-warning-callToAction.textColor')).toHaveAttribute('aria-label', S.invalidColour);
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'warning', M.storyColourInvalid)).toBeVisible();
    await expect(fieldError(page, 'callToAction.textColor')).toHaveText(M.storyColourInvalid);
    await field(page, 'callToAction.textColor').fill('#FF0000');
    await expect(page.getByTestId('colour-warning-callToAction.textColor')).toHaveCount(0);
    await signOut(page);
  });
});

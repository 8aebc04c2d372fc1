import type { Page } from '@playwright/test';
import { ADVERT_MEDIA_MESSAGES as MEDIA } from '@shared/messages/advert-media';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { STORY_MESSAGES as S } from '@shared/messages/story';
import { ADVERT_TYPES, type AdvertTypeName } from '@shared/rules/advert-screens/content-types';
import { advertEditorFields } from '@shared/rules/advert-screens/editor-sections';
import { requiredPropertiesMessage, requiredPropertiesOf, requiredPropertyLabel } from '@shared/rules/publication';
import { MP4, PNG } from '../fixtures/storage-files';
import { createAudience } from './content-helpers';
import { expect, signIn, test } from './fixtures';
import { lookAt } from './helpers';

/**
 * Publication of a new advert of every type, the form filled as a user fills it (adverts-articles.md §2.2, §4, §5,
 * docs/projects.md, Targets): Nouveau post, name and type, Save, the fields the type requires (typed or uploaded), an expert
 * audience, Save, Publier, 'Le contenu est en ligne'. A story's logo is the story logo upload's.
 */

/** The audience type each advert type is searched with in the editor (audiences §3). */
const AUDIENCE_TYPE: Record<AdvertTypeName, string> = {
  post: 'timeline',
  video: 'timeline',
  quiz: 'timeline',
  search: 'search',
  story: 'story',
  notification: 'notification',
  tool: 'tool',
  banner: 'banner',
};
const audienceName = (type: string) => `E2E Experts ${type}`;

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      for (const type of new Set(Object.values(AUDIENCE_TYPE))) await createAudience(app, audienceName(type), { type, expert: true });
      await signIn(app.page, app.url, 'CSM');
    },
  },
});

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);

async function clearToasts(page: Page) {
  for (const shown of await page.locator('.Toastify__toast').all()) await shown.click({ timeout: 2000 }).catch(() => undefined);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
}

/** Clicks a button that opens the page's file picker, and answers it with `file`. */
async function pickFile(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId(button).click()]);
  await chooser.setFiles(file);
}

/** Nouveau post from the list, a name and a type, then Save: the advert is created and the editor on its route. */
async function newAdvert(page: Page, name: string, type: AdvertTypeName, beforeSave?: () => Promise<void>) {
  await page.goto('/adverts');
  await page.getByRole('link', { name: M.newPost }).click();
  await page.waitForURL((u) => u.pathname === '/adverts/edit/new');
  await field(page, 'name').fill(name);
  await field(page, 'type').selectOption(type);
  await beforeSave?.();
  await page.getByTestId('editor-save').click();
  await page.waitForURL((u) => /^\/adverts\/edit\/\d+$/.test(u.pathname));
  await expect(toast(page, 'success', M.saved)).toBeVisible();
  await clearToasts(page);
}

/** The expert audience of the advert's type, found with the editor's search, then Save. */
async function attachAudienceAndSave(page: Page, type: AdvertTypeName) {
  const name = audienceName(AUDIENCE_TYPE[type]);
  await page.getByTestId('audience-search').fill(name);
  await page.getByTestId('audience-results').getByRole('button', { name }).click();
  await expect(page.getByTestId('attached-audiences').getByText(name)).toBeVisible();
  await page.getByTestId('editor-save').click();
  await expect(toast(page, 'success', M.saved)).toBeVisible();
  await clearToasts(page);
}

/** Publier: the answer is 'Le contenu est en ligne' (an error toast's text fails the test with the reason). */
async function publish(page: Page) {
  await expect(page.getByTestId('publish-toggle')).toHaveText(M.publish);
  await page.getByTestId('publish-toggle').click();
  const answer = page
    .locator('.Toastify__toast--error')
    .or(toast(page, 'success', M.contentOnline))
    .first();
  await expect(answer).toBeVisible();
  await expect(answer).toHaveText(M.contentOnline);
  await expect(page.getByTestId('publish-toggle')).toHaveText(M.unpublish);
  await expect(page.getByTestId('campaign-status')).toHaveText('online');
  // Online on the server too: the page loaded again says so.
  await page.reload();
  await expect(page.getByTestId('publish-toggle')).toHaveText(M.unpublish);
}

/** The fields of `type` the form shows, as the editor names them (screens' own fields aside). */
const shownFields = (page: Page) =>
  page
    .getByTestId('editor')
    .locator('.editor-form [data-field]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-field')!).filter((name) => !name.startsWith('screen.')));

test.describe('publishing a new advert of each type (web host, Chromium)', () => {
  test.describe.configure({ timeout: 180_000 });
  test('story: Nouveau post → story → Save → the story logo upload → an audience → Save → Publier', async ({ app }) => {
    const { page } = app;
    await newAdvert(page, 'Story e2e publiée', 'story');
    const section = page.getByTestId('section-cta');
    if ((await section.getAttribute('open')) === null) await page.getByTestId('section-cta-toggle').click();
    // No 'Visuels et descriptifs' for a story: its logo is the story's own.
    await expect(page.getByTestId('section-visuals')).toHaveCount(0);
    await expect(page.getByTestId('story-upload-logo')).toHaveText(S.uploadStoryLogo);
    await pickFile(page, 'story-upload-logo', { name: 'story-logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', MEDIA.storyLogoSaved)).toBeVisible();
    await expect(page.getByTestId('story-logo-thumb')).toHaveAttribute('src', /^\/cdn\/.+\.png\?d=\d+$/);
    await clearToasts(page);
    await attachAudienceAndSave(page, 'story');
    await publish(page);
    await expect(page.getByTestId('story-logo-thumb')).toHaveAttribute('src', /^\/cdn\/.+\.png\?d=\d+$/);
  });

  test('post: logo and image uploaded, author, source and title typed', async ({ app }) => {
    const { page } = app;
    await newAdvert(page, 'Post e2e publié', 'post');
    await pickFile(page, 'upload-logo', { name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', MEDIA.logoSaved)).toBeVisible();
    await pickFile(page, 'upload-image', { name: 'visuel.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', MEDIA.imageSaved)).toBeVisible();
    await expect(page.getByTestId('media-image')).toHaveCount(1);
    await field(page, 'author').fill('Laboratoire Exemple');
    await field(page, 'source').fill('https://www.exemple.fr/cardio');
    await field(page, 'title').fill('Nouvelles recommandations HTA');
    await clearToasts(page);
    await attachAudienceAndSave(page, 'post');
    await publish(page);
  });

  test('video: logo and video uploaded, author, source and title typed', async ({ app }) => {
    const { page } = app;
    await newAdvert(page, 'Vidéo e2e publiée', 'video');
    await pickFile(page, 'upload-logo', { name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', MEDIA.logoSaved)).toBeVisible();
    await pickFile(page, 'upload-video', { name: 'film.mp4', mimeType: 'video/mp4', buffer: MP4 });
    await expect(page.getByTestId('media-video')).toBeVisible();
    await field(page, 'author').fill('Laboratoire Exemple');
    await field(page, 'source').fill('https://www.exemple.fr/video');
    await field(page, 'title').fill('Le geste en vidéo');
    await clearToasts(page);
    await attachAudienceAndSave(page, 'video');
    await publish(page);
  });

  test('quiz: logo address and author typed, the French legal notice picked', async ({ app }) => {
    const { page } = app;
    await newAdvert(page, 'Quiz e2e publié', 'quiz');
    await field(page, 'logo').fill('https://cdn.exemple.fr/logo.png');
    await field(page, 'author').fill('Laboratoire Exemple');
    await page.getByTestId('footnote-fr').click();
    await expect(field(page, 'footNote')).not.toHaveValue('');
    await attachAudienceAndSave(page, 'quiz');
    await publish(page);
  });

  for (const type of ['notification', 'search'] as const) {
    test(`${type}: title and source typed`, async ({ app }) => {
      const { page } = app;
      await newAdvert(page, `${type} e2e publiée`, type);
      await field(page, 'title').fill('Rappel vaccinal');
      await field(page, 'source').fill('https://www.exemple.fr/rappel');
      await attachAudienceAndSave(page, type);
      await publish(page);
    });
  }

  test('tool: its Sonata ID before the first save, nothing more to publish', async ({ app }) => {
    const { page } = app;
    await newAdvert(page, 'Outil e2e publié', 'tool', () => field(page, 'sonataId').fill('SONATA-42'));
    await attachAudienceAndSave(page, 'tool');
    await publish(page);
  });

  test('banner: its image uploaded in Général, refused to publish without it', async ({ app }) => {
    const { page } = app;
    await newAdvert(page, 'Bannière e2e publiée', 'banner');
    await field(page, 'bannerLink').fill('https://www.exemple.fr/banniere');
    await attachAudienceAndSave(page, 'banner');
    // No image: not published, the missing image named and its field highlighted.
    await page.getByTestId('publish-toggle').click();
    await expect(toast(page, 'error', requiredPropertiesMessage([requiredPropertyLabel({ name: 'images', paths: ['images'] })]))).toBeVisible();
    await expect(page.getByTestId('banner-image')).toHaveAttribute('data-highlighted', 'true');
    await expect(page.getByTestId('publish-toggle')).toHaveText(M.publish);
    await clearToasts(page);
    // The banner's image, uploaded with its progress and the spec's 'Bannière enregistrée'.
    await pickFile(page, 'upload-banner', { name: 'banniere.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', MEDIA.bannerSaved)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('media-banner')).toHaveAttribute('src', /^\/cdn\/assets\/adverts\/\d+\/.+\.png/);
    await lookAt(page, 'banner-image-uploaded');
    await clearToasts(page);
    await publish(page);
    await expect(page.getByTestId('media-banner')).toBeVisible();
  });

  test("the editor of each type shows the fields of its sections' map, the required ones among them", async ({ app }) => {
    const { page } = app;
    await newAdvert(page, 'Types e2e', 'post');
    for (const type of ADVERT_TYPES) {
      await field(page, 'type').selectOption(type);
      const expected = advertEditorFields(type, ['CSM']);
      await expect.poll(async () => (await shownFields(page)).sort(), { message: type }).toEqual([...expected].sort());
      for (const property of requiredPropertiesOf(type)) expect(expected, `${type}: ${property.name}`).toContain(property.paths[0]);
    }
  });
});

import type { Page } from '@playwright/test';
import { ADVERT_MEDIA_MESSAGES as AM } from '@shared/messages/advert-media';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { STORY_MESSAGES as S } from '@shared/messages/story';
import { MP4, PNG } from '../fixtures/storage-files';
import { expect, test } from './fixtures';

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const bullets = (page: Page) => page.getByTestId('story-bullet');
/** The screens' titles in bullet order (each screen is selected in turn and its title read). */
const bulletIds = (page: Page) => bullets(page).evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-screen-id'))));
const selectedId = (page: Page) => page.getByTestId('story-screen-fields').getAttribute('data-screen-id').then(Number);

async function clearToasts(page: Page) {
  for (const shown of await page.locator('.Toastify__toast').all()) await shown.click({ timeout: 2000 }).catch(() => undefined);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 10_000 });
}

/** Drags a bullet with the mouse (pointer events) and drops it past the centre of another. */
async function dragBullet(page: Page, fromIndex: number, toIndex: number) {
  const from = (await bullets(page).nth(fromIndex).boundingBox())!;
  const to = (await bullets(page).nth(toIndex).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const targetX = toIndex > fromIndex ? to.x + to.width * 0.9 : to.x + to.width * 0.1;
  await page.mouse.move(targetX, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Clicks a button that opens the page's file picker, and answers it with `file`. */
async function pickFile(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId(button).click()]);
  await chooser.setFiles(file);
}

async function openStorySection(page: Page) {
  const section = page.getByTestId('section-cta');
  if ((await section.getAttribute('open')) === null) await page.getByTestId('section-cta-toggle').click();
  await expect(page.getByTestId('story-editor')).toBeVisible();
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

test.describe('story screen editor (web host, Chromium)', () => {
  test('builds a three-screen story, reorders it by mouse and keyboard, checks colours and deletes a screen', async ({ app, signedIn }) => {
    const { url } = app;
    const page = await signedIn('CSM');
    await page.goto(`${url}/adverts/edit/new`);
    await page.getByTestId('field-name').fill('Story e2e écrans');
    await page.getByTestId('field-type').selectOption('story');
    await openStorySection(page);
    // A new advert has no id yet: its screens come after the first save.
    await expect(page.getByTestId('story-save-first')).toHaveText(S.saveFirst);
    await page.getByTestId('editor-save').click();
    await page.waitForURL((u) => /^\/adverts\/edit\/\d+$/.test(u.pathname), { timeout: 20_000 });
    await clearToasts(page);
    await openStorySection(page);
    await expect(page.getByTestId('story-no-screen')).toBeVisible();

    await test.step('Three screens added by the server, each with its title', async () => {
      for (const title of ['Premier', 'Deuxième', 'Troisième']) {
        const count = await bullets(page).count();
        await page.getByTestId('story-add-screen').click();
        await expect(bullets(page)).toHaveCount(count + 1, { timeout: 15_000 });
        await page.getByTestId('screen-title').fill(title);
        await expect(page.getByTestId('story-canvas-title')).toHaveText(title);
      }
      expect(await bulletIds(page)).toEqual([1, 2, 3]);
      const box = (await page.getByTestId('story-canvas').boundingBox())!;
      expect([Math.round(box.width), Math.round(box.height)]).toEqual([270, 480]);
      await expect(page.getByTestId('story-canvas')).toHaveAttribute('data-media-kind', 'none');
    });

    await test.step('Mouse', async () => {
      // Mouse: the first screen dragged past the third.
      await dragBullet(page, 0, 2);
      await expect.poll(() => bulletIds(page), { timeout: 10_000 }).toEqual([2, 3, 1]);
      expect(await selectedId(page)).toBe(1);
      await expect(page.getByTestId('story-canvas-title')).toHaveText('Premier');
      // And back to the front.
      await dragBullet(page, 2, 0);
      await expect.poll(() => bulletIds(page), { timeout: 10_000 }).toEqual([1, 2, 3]);
    });

    await test.step('Keyboard', async () => {
      // Keyboard: Space picks the first bullet up, two Arrows carry it, Space puts it down; each step announced.
      await bullets(page).nth(0).focus();
      await page.keyboard.press('Space');
      await expect(page.getByTestId('story-announcement')).toContainText('Écran n°1 saisi');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => bulletIds(page)).toEqual([2, 3, 1]);
      await page.keyboard.press('Space');
      await expect(page.getByTestId('story-announcement')).toHaveText('Écran déposé en position 3 sur 3.');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-screen-id'))).toBe('1');
      // Escape puts a picked-up bullet back.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Home');
      await expect.poll(() => bulletIds(page)).toEqual([1, 2, 3]);
      await page.keyboard.press('Escape');
      await expect.poll(() => bulletIds(page)).toEqual([2, 3, 1]);
      // Alt+Arrow moves at once.
      await page.keyboard.press('Alt+ArrowLeft');
      await expect.poll(() => bulletIds(page)).toEqual([2, 1, 3]);
      await expect(page.getByTestId('story-announcement')).toHaveText('Écran déplacé en position 2 sur 3.');
    });

    await test.step('A bad colour', async () => {
      // A bad colour: the red warning, and the save refuses with the spec's message.
      await bullets(page).nth(2).click();
      await page.getByTestId('screen-colour-backgroundColor').fill('#12345');
      await expect(page.getByTestId('colour-warning-backgroundColor')).toBeVisible();
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'warning', M.storyColourInvalid)).toBeVisible();
      await expect(page.getByTestId('story-editor')).toHaveAttribute('data-highlighted', 'true');
      await clearToasts(page);
      await page.getByTestId('screen-colour-backgroundColor').fill('#123');
      await expect(page.getByTestId('colour-warning-backgroundColor')).toHaveCount(0);
      expect(await page.getByTestId('story-canvas').evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(17, 34, 51)');
    });

    await test.step('The order and the fields are saved with the advert and come back on load', async () => {
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'success', M.saved)).toBeVisible();
      await clearToasts(page);
      await page.reload();
      await openStorySection(page);
      await expect.poll(() => bulletIds(page), { timeout: 15_000 }).toEqual([2, 1, 3]);
      await bullets(page).nth(2).click();
      await expect(page.getByTestId('screen-colour-backgroundColor')).toHaveValue('#123');
    });

    await test.step("Delete the second screen after the confirm 'Supprimer l'écran n°2'", async () => {
      await bullets(page).nth(1).click();
      await page.getByTestId('story-delete-screen').click();
      const prompt = page.getByTestId('story-delete-screen-prompt');
      await expect(prompt).toHaveAttribute('aria-label', S.confirmDeleteScreen(2));
      await prompt.getByRole('button', { name: 'Oui' }).click();
      await expect(toast(page, 'success', S.screenDeleted)).toBeVisible();
      await expect.poll(() => bulletIds(page)).toEqual([2, 3]);
      await page.reload();
      await openStorySection(page);
      await expect.poll(() => bulletIds(page), { timeout: 15_000 }).toEqual([2, 3]);
    });
  });

  // Follows the story left by the test above (screens 2 and 3), on the same page.
  test("uploads a screen's image, video and logo, and picks an image from the media library", async ({ app }) => {
    const { page } = app;
    await clearToasts(page);
    await bullets(page).nth(0).click();
    expect(await selectedId(page)).toBe(2);

    // An image: progress, the 1300 ms toast, the canvas shows it from the storage.
    await page.route('**/__upload*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await pickFile(page, 'screen-upload-illustration', { name: 'ecran.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByTestId('upload-job')).toBeVisible();
    await expect(toast(page, 'success', AM.storyMediaSaved)).toBeVisible({ timeout: 20_000 });
    await page.unroute('**/__upload*');
    await expect(page.getByTestId('story-canvas')).toHaveAttribute('data-media-kind', 'image');
    await expect(page.getByTestId('story-canvas-image')).toHaveAttribute('src', /^\/cdn\/.+\.png\?d=\d+$/);
    await expect
      .poll(() => page.getByTestId('story-canvas-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
        timeout: 10_000,
      })
      .toBe(true);

    // A video: the canvas plays it in a video area.
    await pickFile(page, 'screen-upload-illustration', { name: 'ecran.mp4', mimeType: 'video/mp4', buffer: MP4 });
    await expect(toast(page, 'success', AM.storyMediaSaved)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('story-canvas')).toHaveAttribute('data-media-kind', 'video');
    await expect(page.getByTestId('story-canvas-video')).toHaveAttribute('src', /\.mp4\?d=\d+$/);

    // The screen's logo.
    await clearToasts(page);
    await pickFile(page, 'screen-upload-logo', { name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', AM.storyLogoSaved)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('story-canvas-logo')).toHaveAttribute('src', /^\/cdn\/.+\.png\?d=\d+$/);

    // The story's own logo (§7 story logo upload), shown beside its upload button.
    await clearToasts(page);
    await pickFile(page, 'story-upload-logo', { name: 'story-logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', AM.storyLogoSaved)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('story-logo-thumb')).toHaveAttribute('src', /^\/cdn\/.+\.png\?d=\d+$/);

    // The library: two media uploaded, one deleted, the other picked as the screen's image.
    await clearToasts(page);
    await page.getByTestId('screen-open-library').click();
    await expect(page.getByTestId('media-library-empty')).toBeVisible({ timeout: 15_000 });
    for (const name of ['un.png', 'deux.png']) {
      const count = await page.getByTestId('media-library-item').count();
      await pickFile(page, 'media-library-upload', { name, mimeType: 'image/png', buffer: PNG });
      await expect(page.getByTestId('media-library-item')).toHaveCount(count + 1, { timeout: 20_000 });
    }
    await expect(toast(page, 'success', AM.mediaUploaded)).toBeVisible();
    const [first, second] = await page.getByTestId('media-library-item').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-url')!));
    await page.getByTestId('media-library-item').nth(0).getByTestId('media-library-delete').click();
    await expect(toast(page, 'success', AM.mediaDeleted)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('media-library-item')).toHaveCount(1);
    await page.getByTestId('media-library-pick').click();
    await expect(page.getByTestId('media-library')).not.toBeAttached();
    await expect(page.getByTestId('story-canvas-image')).toHaveAttribute('src', second);
    expect(first).not.toBe(second);

    // Picked in the library, kept by the save.
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'success', M.saved)).toBeVisible();
    await page.reload();
    await openStorySection(page);
    await expect(page.getByTestId('story-canvas-image')).toHaveAttribute('src', second, { timeout: 15_000 });
  });
});

import type { Page } from '@playwright/test';
import { ADVERT_MEDIA_MESSAGES as MEDIA } from '@shared/messages/advert-media';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { PNG } from '../fixtures/storage-files';
import { expect, signIn, test } from './fixtures';

/**
 * Advert media in Chromium through the web host (adverts-articles.md §2.2 Visuels et descriptifs, image-editor
 * modal, §7 Uploads, §8 toasts; platform.md media library): logo and image uploads with progress and toasts, an
 * image cropped and resized before upload, the media library's upload, pick and delete.
 */

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

async function pickFile(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 20_000 }), page.getByTestId(button).click()]);
  await chooser.setFiles(file);
}

/** A 40×20 PNG drawn by the page: left half red, right half blue. */
async function twoColourPng(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 40;
    canvas.height = 20;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#ff0000';
    context.fillRect(0, 0, 20, 20);
    context.fillStyle = '#0000ff';
    context.fillRect(20, 0, 20, 20);
    return canvas.toDataURL('image/png').split(',')[1];
  });
  return Buffer.from(base64, 'base64');
}

/** The size and the top-left pixel of an image the page loads from `src`. */
function imageFacts(page: Page, src: string) {
  return page.evaluate(async (url) => {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return { width: image.naturalWidth, height: image.naturalHeight, pixel: [r, g, b] };
  }, src);
}

test.describe('advert uploads (web host, Chromium)', () => {
  test('uploads a logo and images (one cropped in the image editor), with progress and toasts, and uses the media library', async ({ app }) => {
    test.setTimeout(240_000);
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.waitForURL((u) => u.pathname === '/adverts');
    await page.getByRole('link', { name: M.newPost }).click();
    await page.waitForURL((u) => u.pathname === '/adverts/edit/new');
    await expect(page.getByTestId('uploads-placeholder')).toHaveText(MEDIA.saveToUpload);
    await page.getByTestId('field-name').fill('Campagne visuels e2e');
    await page.getByTestId('field-type').selectOption('post');
    await page.getByTestId('editor-save').click();
    await page.waitForURL((u) => /^\/adverts\/edit\/\d+$/.test(u.pathname), { timeout: 20_000 });
    const advertId = Number(new URL(page.url()).pathname.split('/').pop());

    // The logo: the page picks the file, the job shows its progress (held back a little), then the §8 toasts.
    await page.route('**/__upload*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await pickFile(page, 'upload-logo', { name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByTestId('upload-job')).toBeVisible({ timeout: 20_000 });
    await expect(toast(page, 'info', MEDIA.uploadingLogo)).toBeVisible({ timeout: 20_000 });
    await expect(toast(page, 'success', MEDIA.logoSaved)).toBeVisible({ timeout: 20_000 });
    await page.unroute('**/__upload*');
    await expect(page.getByTestId('upload-job')).not.toBeAttached({ timeout: 20_000 });
    const logo = await page.getByTestId('media-logo').getAttribute('src');
    expect(logo).toMatch(new RegExp(`^/cdn/assets/adverts/${advertId}/logo-[0-9a-f]{8}\\.png\\?d=\\d{10}$`));
    await expect(page.getByTestId('field-logo')).toHaveValue(logo!);
    await expect.poll(() => page.getByTestId('media-logo').evaluate((image: HTMLImageElement) => image.naturalWidth), { timeout: 20_000 }).toBe(1);

    // An image as it is.
    await pickFile(page, 'upload-image', { name: 'visuel.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'info', MEDIA.uploadingImage)).toBeVisible({ timeout: 20_000 });
    await expect(toast(page, 'success', MEDIA.imageSaved)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('media-image')).toHaveCount(1, { timeout: 20_000 });

    // An image cropped (its right half) and resized (to 10 px wide) in the image editor before it goes.
    await page.getByTestId('edit-image').click();
    await page.getByTestId('image-editor-file').setInputFiles({ name: 'bandeau.png', mimeType: 'image/png', buffer: await twoColourPng(page) });
    await expect(page.getByTestId('image-editor-canvas')).toBeVisible();
    await expect(page.getByTestId('image-editor-width')).toHaveValue('40');
    await page.getByTestId('image-editor-crop-x').fill('20');
    await page.getByTestId('image-editor-crop-width').fill('20');
    await expect(page.getByTestId('image-editor-width')).toHaveValue('20');
    await page.getByTestId('image-editor-width').fill('10');
    await expect(page.getByTestId('image-editor-height')).toHaveValue('10');
    await page.getByTestId('image-editor-upload').click();
    await expect(page.getByTestId('image-editor')).not.toBeAttached();
    await expect(page.getByTestId('media-image')).toHaveCount(2, { timeout: 20_000 });
    const cropped = await page.getByTestId('media-image').first().getAttribute('data-url');
    expect(cropped).toMatch(new RegExp(`^/cdn/assets/adverts/${advertId}/cover-[0-9a-f]{8}\\.png\\?d=\\d{10}$`));
    expect(await imageFacts(page, cropped!)).toEqual({ width: 10, height: 10, pixel: [0, 0, 255] });

    // The server set the fields already; saving keeps them.
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'success', M.saved)).toBeVisible({ timeout: 20_000 });
    const db = app.host.embedded!.database.db;
    const { sql } = await import('drizzle-orm');
    const stored = (await db.execute(sql`SELECT data FROM adverts WHERE id = ${advertId}`)) as unknown as {
      rows: { data: { logo: string; images: string[] } }[];
    };
    expect(stored.rows[0].data.logo).toBe(logo);
    expect(stored.rows[0].data.images).toHaveLength(2);

    // The media library: empty, an upload (its toast), a pick that adds the media to the images.
    await page.getByTestId('open-media-library').click();
    await expect(page.getByTestId('media-library-empty')).toBeVisible({ timeout: 20_000 });
    await pickFile(page, 'media-library-upload', { name: 'bibliotheque.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, 'success', MEDIA.mediaUploaded)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('media-library-item')).toHaveCount(1, { timeout: 20_000 });
    const media = await page.getByTestId('media-library-item').getAttribute('data-url');
    expect(media).toMatch(/^\/cdn\/assets\/library\/\d+\/[0-9a-f]{8}-bibliotheque\.png\?d=\d{10}$/);
    // 11 MB is refused with the spec's text.
    await pickFile(page, 'media-library-upload', {
      name: 'lourd.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([PNG, Buffer.alloc(11 * 1024 * 1024)]),
    });
    await expect(toast(page, 'error', MEDIA.tooLarge)).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('media-library-pick').click();
    await expect(page.getByTestId('media-library')).not.toBeAttached();
    await expect(page.getByTestId('media-image').first()).toHaveAttribute('data-url', media!, { timeout: 20_000 });
    await expect(page.getByTestId('media-image')).toHaveCount(3);

    // Saved, the advert shows the library's media: deleting it names the advert and asks first.
    await page.getByTestId('editor-save').click();
    await expect(toast(page, 'success', M.saved)).toBeVisible({ timeout: 20_000 });
    const named = (await db.execute(sql`SELECT name FROM adverts WHERE id = ${advertId}`)) as unknown as { rows: { name: string }[] };
    const inUse = `${STORAGE_MESSAGES.mediaUsedByAdverts([{ id: advertId, name: named.rows[0].name }], 1)} ${STORAGE_MESSAGES.deleteAnyway}`;
    expect(inUse).toMatch(/^Ce média est utilisé par 1 publicité : « .* » \(n° \d+\)\. Supprimer quand même \?$/);
    await page.getByTestId('open-media-library').click();
    await expect(page.getByTestId('media-library-item')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('media-library-delete').click();
    await expect(page.getByTestId('media-library-in-use-text')).toHaveText(inUse, { timeout: 20_000 });
    // Kept: nothing goes.
    await page.getByTestId('media-library-keep').click();
    await expect(page.getByTestId('media-library-in-use')).not.toBeAttached();
    await expect(page.getByTestId('media-library-item')).toHaveCount(1);
    expect(await page.evaluate(async (src) => (await fetch(src, { cache: 'no-store' })).status, media!)).toBe(200);
    // Asked again and confirmed: the spec's toast, and the file is gone.
    await page.getByTestId('media-library-delete').click();
    await page.getByTestId('media-library-delete-anyway').click();
    await expect(toast(page, 'success', MEDIA.mediaDeleted)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('media-library-empty')).toBeVisible({ timeout: 20_000 });
    expect(await page.evaluate(async (src) => (await fetch(src, { cache: 'no-store' })).status, media!)).toBe(404);
    await page.getByTestId('media-library-close').click();

    // Removing every image (§8: 3 s toast).
    await page.getByTestId('remove-images').click();
    await expect(toast(page, 'success', MEDIA.imagesRemoved)).toBeVisible();
    await expect(page.getByTestId('media-image')).toHaveCount(0);
  });
});

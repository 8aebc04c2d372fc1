import type { Page } from '@playwright/test';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { PNG, SVG_WITH_SCRIPT } from '../fixtures/storage-files';
import { expect, test } from './fixtures';

const today = () =>
  new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

/** Clicks a button that opens the page's file picker, and answers it with `file`. */
async function pickFile(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId(button).click()]);
  await chooser.setFiles(file);
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

test.describe('storage browser (web host, Chromium)', () => {
  test('browses, creates a folder, uploads with progress, previews and deletes', async ({ signedIn }) => {
    const page = await signedIn('CSM');
    await page.getByTestId('nav-cdnDocs').click();
    await page.waitForURL((u) => u.pathname === '/document/upload');
    await expect(page.getByTestId('documents-page')).toBeVisible();
    await expect(page.getByTestId('current-folder')).toHaveText('assets/clients');
    // The demo workspace's client folders, in the list and the tree.
    await expect(page.getByTestId('folder-row').filter({ hasText: 'Pharmavie' })).toBeVisible();
    expect((await page.getByTestId('folder-row').allTextContents()).map((text) => text.trim())).toEqual(['Laboratoire Aurelis', 'Pharmavie']);
    // A folder icon picture (lucide), not an emoji that some machines draw blank.
    await expect(page.getByTestId('folder-row').first().locator('svg')).toHaveCount(1);
    await page.getByTestId('folder-assets/clients/Laboratoire Aurelis').click();
    await expect(page.getByTestId('current-folder')).toHaveText('assets/clients/Laboratoire Aurelis');
    // A PDF previews in a frame; a text file has its icon and no preview.
    await page.getByTestId('file-row').filter({ hasText: 'brief-campagne' }).click();
    await expect(page.getByTestId('preview-pdf')).toBeVisible();
    // Client documents are not public: a signed link that expires, which the frame just loads.
    await expect(page.getByTestId('preview-pdf')).toHaveAttribute('src', /\.pdf\?expires=\d{10}&signature=[\w-]{43}$/);
    await page.getByTestId('folder-assets/clients/Pharmavie').click();
    await page.getByTestId('file-row').filter({ hasText: 'compte-rendu-reunion.txt' }).click();
    await expect(page.getByText(STORAGE_MESSAGES.noPreview)).toBeVisible();
    await expect(page.getByTestId('document-preview').getByTestId('file-icon-txt')).toHaveCount(1);
    await page.getByTestId('folder-assets/clients').click();
    await expect(page.getByTestId('current-folder')).toHaveText('assets/clients');

    await test.step('A new folder', async () => {
      // A new folder: the modal, a French error beside the field, then the folder in the list and the tree.
      await page.getByTestId('new-folder').click();
      await page.getByTestId('new-folder-submit').click();
      await expect(page.getByRole('dialog').getByText(STORAGE_MESSAGES.folderNameRequired)).toBeVisible();
      await page.getByTestId('new-folder-name').fill('Labo Démo');
      await page.getByTestId('new-folder-submit').click();
      await expect(page.getByTestId('new-folder-dialog')).not.toBeAttached();
      await page.getByTestId('folder-row').filter({ hasText: 'Labo Démo' }).click();
      await expect(page.getByTestId('current-folder')).toHaveText('assets/clients/Labo Démo');
      await expect(page.getByTestId('folder-assets/clients/Labo Démo')).toHaveCount(1);
      await expect(page.getByText(STORAGE_MESSAGES.emptyFolder)).toBeVisible();
    });

    await test.step('Upload', async () => {
      // Upload: the page picks the file; the progress shows while it goes; the spec's toast; the row with today's date.
      await page.route('**/__upload*', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await route.continue();
      });
      await pickFile(page, 'upload-document', { name: 'logo.png', mimeType: 'image/png', buffer: PNG });
      await expect(page.getByTestId('upload-job')).toBeVisible();
      await expect(page.locator('.Toastify__toast--success', { hasText: 'Image importé avec succès' })).toBeVisible();
      await page.unroute('**/__upload*');
      await expect(page.getByTestId('upload-job')).not.toBeAttached();
      const row = page.getByTestId('file-row').filter({ hasText: 'logo.png' });
      await expect(row).toBeVisible();
      await expect(page.getByTestId('file-date').first()).toHaveText(today());
      expect(today()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

      // Preview: the image from the storage, through the page's own origin.
      await row.click();
      const image = page.getByTestId('preview-image');
      await expect(image).toBeVisible();
      await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1);
      const src = await image.getAttribute('src');
      expect(src).toMatch(/^\/cdn\/assets\/clients\/Labo%20D%C3%A9mo\/logo\.png\?expires=\d{10}&signature=[\w-]{43}$/);
      // "Ouvrir" opens the document itself; without its signature the same address is refused.
      const [opened] = await Promise.all([
        page.waitForEvent('popup'),
        page.getByTestId('document-preview').getByRole('link', { name: 'Ouvrir' }).click(),
      ]);
      await opened.waitForLoadState('load');
      expect(new URL(opened.url()).pathname).toBe('/cdn/assets/clients/Labo%20D%C3%A9mo/logo.png');
      expect(await opened.evaluate(() => document.contentType)).toBe('image/png');
      await opened.close();
      expect(await page.evaluate(async (path) => (await fetch(path)).status, src!.split('?')[0])).toBe(403);

      // A PNG named .mp4 is refused with the spec's text, as an error toast.
      await pickFile(page, 'upload-document', { name: 'clip.mp4', mimeType: 'video/mp4', buffer: PNG });
      await expect(
        page.locator('.Toastify__toast--error', { hasText: `Une erreur est survenue: ${STORAGE_MESSAGES.invalidFileType}` }),
      ).toBeVisible();

      // Delete with confirm: the toast, the selection reset, the folder reloaded.
      await page.getByTestId('delete-file').click();
      await expect(page.getByRole('dialog').getByText(STORAGE_MESSAGES.confirmDelete('logo.png'))).toBeVisible();
      await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
      await expect(page.locator('.Toastify__toast--success', { hasText: 'Image supprimée avec succès' })).toBeVisible();
      await expect(page.getByTestId('document-preview')).not.toBeAttached();
      await expect(page.getByTestId('file-row')).toHaveCount(0);
      await expect(page.getByText(STORAGE_MESSAGES.selectFile)).toBeVisible();
    });
  });

  test("never runs an uploaded SVG's script in the app's origin", async ({ app }) => {
    const { page } = app;
    await pickFile(page, 'upload-document', { name: 'dessin.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG_WITH_SCRIPT) });
    const row = page.getByTestId('file-row').filter({ hasText: 'dessin.svg' });
    await expect(row).toBeVisible();
    await row.click();
    // Not previewable (spec §9): the pane offers to open it.
    await expect(page.getByText(STORAGE_MESSAGES.noPreview)).toBeVisible();
    const url = await page.getByTestId('document-preview').getByRole('link', { name: 'Ouvrir' }).getAttribute('href');
    // Shown as an image it cannot run anything; framed or opened directly, it is an attachment in a sandbox.
    const result = await page.evaluate(async (src) => {
      let ran = false;
      window.addEventListener('message', (event) => {
        if (event.data === 'svg-ran') ran = true;
      });
      const img = document.createElement('img');
      img.src = src;
      document.body.append(img);
      await img.decode().catch(() => undefined);
      const frame = document.createElement('iframe');
      frame.src = src;
      document.body.append(frame);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const title = document.title;
      frame.remove();
      img.remove();
      return { ran, title, rendered: img.naturalWidth };
    }, url ?? '');
    expect(url).toMatch(/^\/cdn\/.*dessin\.svg\?expires=\d{10}&signature=[\w-]{43}$/);
    expect(result.ran).toBe(false);
    expect(result.title).not.toBe('ran');
    expect(result.rendered).toBe(10);

    // Even opened as a document of the app's origin (a proxy that dropped the attachment), the CSP sandbox holds.
    const direct = await app.context.newPage();
    await direct.route(`**${url!.split('?')[0]}*`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['content-disposition'];
      await route.fulfill({ response, headers });
    });
    await direct.goto(`${app.url}${url}`);
    await expect(direct.locator('rect')).toBeAttached();
    expect(await direct.evaluate(() => document.title)).not.toBe('ran');
    expect(await direct.evaluate(() => window.origin)).toBe('null');
    await direct.close();
  });
});

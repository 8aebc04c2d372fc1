import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { PNG, SVG_WITH_SCRIPT } from '../fixtures/storage-files';
import { launchChromium, openWebApp, signIn, type WebApp } from './fixtures';

let browser: Browser;
let app: WebApp;

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
});
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

const today = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

/** Clicks a button that opens the page's file picker, and answers it with `file`. */
async function pickFile(button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([app.page.waitForEvent('filechooser'), app.page.getByTestId(button).click()]);
  await chooser.setFiles(file);
}

describe('storage browser (web host, Chromium)', () => {
  it('browses, creates a folder, uploads with progress, previews and deletes', async () => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.getByTestId('nav-cdnDocs').click();
    await page.waitForURL((u) => u.pathname === '/document/upload');
    await page.getByTestId('documents-page').waitFor();
    expect(await page.getByTestId('current-folder').textContent()).toBe('assets/clients');
    // The demo workspace's client folders, in the list and the tree.
    await page.getByTestId('folder-row').filter({ hasText: 'Pharmavie' }).waitFor();
    expect((await page.getByTestId('folder-row').allTextContents()).map((text) => text.trim())).toEqual(['Laboratoire Aurelis', 'Pharmavie']);
    // A folder icon picture (lucide), not an emoji that some machines draw blank.
    expect(await page.getByTestId('folder-row').first().locator('svg').count()).toBe(1);
    await page.getByTestId('folder-assets/clients/Laboratoire Aurelis').click();
    await expect.poll(() => page.getByTestId('current-folder').textContent()).toBe('assets/clients/Laboratoire Aurelis');
    // A PDF previews in a frame; a text file has its icon and no preview.
    await page.getByTestId('file-row').filter({ hasText: 'brief-campagne' }).click();
    await page.getByTestId('preview-pdf').waitFor();
    // Client documents are not public: a signed link that expires (issue 19), which the frame just loads.
    expect(await page.getByTestId('preview-pdf').getAttribute('src')).toMatch(/\.pdf\?expires=\d{10}&signature=[\w-]{43}$/);
    await page.getByTestId('folder-assets/clients/Pharmavie').click();
    await page.getByTestId('file-row').filter({ hasText: 'compte-rendu-reunion.txt' }).click();
    await page.getByText(STORAGE_MESSAGES.noPreview).waitFor();
    expect(await page.getByTestId('document-preview').getByTestId('file-icon-txt').count()).toBe(1);
    await page.getByTestId('folder-assets/clients').click();
    await expect.poll(() => page.getByTestId('current-folder').textContent()).toBe('assets/clients');

    // A new folder: the modal, a French error beside the field, then the folder in the list and the tree.
    await page.getByTestId('new-folder').click();
    await page.getByTestId('new-folder-submit').click();
    await page.getByRole('dialog').getByText(STORAGE_MESSAGES.folderNameRequired).waitFor();
    await page.getByTestId('new-folder-name').fill('Labo Démo');
    await page.getByTestId('new-folder-submit').click();
    await page.getByTestId('new-folder-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('folder-row').filter({ hasText: 'Labo Démo' }).click();
    await expect.poll(() => page.getByTestId('current-folder').textContent()).toBe('assets/clients/Labo Démo');
    expect(await page.getByTestId('folder-assets/clients/Labo Démo').count()).toBe(1);
    await page.getByText(STORAGE_MESSAGES.emptyFolder).waitFor();

    // Upload: the page picks the file; the progress shows while it goes; the spec's toast; the row with today's date.
    await page.route('**/__upload*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await pickFile('upload-document', { name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('upload-job').waitFor();
    await page.locator('.Toastify__toast--success', { hasText: 'Image importé avec succès' }).waitFor();
    await page.unroute('**/__upload*');
    await page.getByTestId('upload-job').waitFor({ state: 'detached' });
    const row = page.getByTestId('file-row').filter({ hasText: 'logo.png' });
    await row.waitFor();
    expect(await page.getByTestId('file-date').first().textContent()).toBe(today());
    expect(today()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

    // Preview: the image from the storage, through the page's own origin.
    await row.click();
    const image = page.getByTestId('preview-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1);
    const src = await image.getAttribute('src');
    expect(src).toMatch(/^\/cdn\/assets\/clients\/Labo%20D%C3%A9mo\/logo\.png\?expires=\d{10}&signature=[\w-]{43}$/);
    // "Ouvrir" opens the document itself; without its signature the same address is refused.
    const [opened] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('document-preview').getByRole('link', { name: 'Ouvrir' }).click()]);
    await opened.waitForLoadState('load');
    expect(new URL(opened.url()).pathname).toBe('/cdn/assets/clients/Labo%20D%C3%A9mo/logo.png');
    expect(await opened.evaluate(() => document.contentType)).toBe('image/png');
    await opened.close();
    expect(await page.evaluate(async (path) => (await fetch(path)).status, src!.split('?')[0])).toBe(403);

    // A PNG named .mp4 is refused with the spec's text, as an error toast.
    await pickFile('upload-document', { name: 'clip.mp4', mimeType: 'video/mp4', buffer: PNG });
    await page.locator('.Toastify__toast--error', { hasText: `Une erreur est survenue: ${STORAGE_MESSAGES.invalidFileType}` }).waitFor();

    // Delete with confirm: the toast, the selection reset, the folder reloaded.
    await page.getByTestId('delete-file').click();
    await page.getByRole('dialog').getByText(STORAGE_MESSAGES.confirmDelete('logo.png')).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
    await page.locator('.Toastify__toast--success', { hasText: 'Image supprimée avec succès' }).waitFor();
    await page.getByTestId('document-preview').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('file-row').count()).toBe(0);
    await page.getByText(STORAGE_MESSAGES.selectFile).waitFor();
  }, 120_000);

  it("never runs an uploaded SVG's script in the app's origin", async () => {
    const { page } = app;
    await pickFile('upload-document', { name: 'dessin.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG_WITH_SCRIPT) });
    const row = page.getByTestId('file-row').filter({ hasText: 'dessin.svg' });
    await row.waitFor();
    await row.click();
    // Not previewable (spec §9): the pane offers to open it.
    await page.getByText(STORAGE_MESSAGES.noPreview).waitFor();
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
    await direct.locator('rect').waitFor({ state: 'attached' });
    expect(await direct.evaluate(() => document.title)).not.toBe('ran');
    expect(await direct.evaluate(() => window.origin)).toBe('null');
    await direct.close();
  }, 120_000);
});

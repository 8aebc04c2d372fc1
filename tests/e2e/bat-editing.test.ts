import type { Locator, Page } from '@playwright/test';
import { BAT_MESSAGES as B } from '@shared/messages/bat';
import { PREVIEW_MESSAGES as P } from '@shared/messages/previews';
import { PNG } from '../fixtures/storage-files';
import { demoAccount, expect, signIn, test, type WebApp } from './fixtures';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';

/**
 * The proof editor beyond its first build (docs/content.md, BAT proofs, web host, Chromium): undo and redo from the keyboard, the
 * screenshot library fed by the advert editor's captures, and the proof's state on the advert editor's toolbar.
 */

const toast = (page: Page, kind: 'success' | 'error' | 'info', text: string) => page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

const waitSaved = async (page: Page) => {
  await expect(page.getByTestId('bat-save-state')).toHaveAttribute('data-saving', 'false', { timeout: 15_000 });
  await expect(page.getByTestId('bat-save-state')).toHaveText(B.saved);
};

/** A capture sent as the advert editor sends it (POST /bat/screenshot/upload): the advert then has its proof. */
async function uploadCapture(app: WebApp, token: string, advertId: number): Promise<string> {
  const form = new FormData();
  form.append('advertId', String(advertId));
  form.append('file0', new Blob([new Uint8Array(PNG)]), 'capture.png');
  const response = await fetch(`${app.apiUrl}/bat/screenshot/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(response.status).toBe(200);
  return ((await response.json()) as { webpath: string[] }).webpath[0];
}

async function listedScreenshots(app: WebApp, token: string, advertId: number): Promise<{ id: number; imgPath: string }[]> {
  const response = await fetch(`${app.apiUrl}/bat/screenshots/${advertId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { screenshots: { id: number; imgPath: string }[] }).screenshots;
}

/** The app's page signed in as CSM: the tests of this file share one host and one page. */
async function csmPage(app: WebApp): Promise<Page> {
  if ((await app.page.getByTestId('logout').count()) === 0) await signIn(app.page, app.url, 'CSM');
  return app.page;
}

/**
 * Where react-grid-layout places an item: its transform (the grid cell it snaps to). The box on screen gets
 * there through a short CSS transition, so it is not read.
 */
const placeOf = (item: Locator): Promise<string> => item.evaluate((element: HTMLElement) => element.style.transform);

/** Drags a grid item by (dx, dy) pixels with the mouse, as react-grid-layout expects it. */
async function drag(page: Page, item: Locator, dx: number, dy: number) {
  const box = (await item.boundingBox())!;
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + dx / 2, start.y + dy / 2, { steps: 5 });
  await page.mouse.move(start.x + dx, start.y + dy, { steps: 5 });
  await page.mouse.up();
}

test.describe.configure({ mode: 'serial' });

test.describe('proof (BAT) editing (web host, Chromium)', () => {
  test.use({ viewport: { width: 1600, height: 1000 } });

  test("undo and redo of the editor's changes from the keyboard, saved by the autosave", async ({ app }) => {
    const page = await csmPage(app);
    const token = await tokenOf(app, 'CSM');
    const id = await createPreviewAdvert(app, token, 'post');
    await uploadCapture(app, token, id);
    await page.goto(`${app.url}/advert/bat/${id}`);
    await expect(page.getByTestId('bat-editor')).toBeVisible();

    // Two changes: a text block, then the capture as an image item beside it.
    await page.getByTestId('bat-add-text').click();
    await expect(page.getByTestId('bat-item-text')).toHaveCount(1);
    await page.getByTestId('bat-screenshot-add').click();
    const image = page.getByTestId('bat-item-image');
    await expect(image).toHaveCount(1);
    const added = await placeOf(image);

    // A third: the image moved down by a few rows.
    await drag(page, image, 0, 150);
    await expect.poll(() => placeOf(image)).not.toEqual(added);
    const moved = await placeOf(image);
    const top = (transform: string) => Number(/translate\([^,]+,\s*([\d.]+)px\)/.exec(transform)![1]);
    expect(top(moved)).toBeGreaterThan(top(added));

    // Ctrl+Z undoes the move, then the image; Ctrl+Shift+Z and Ctrl+Y redo them, in order.
    await page.keyboard.press('Control+z');
    await expect.poll(() => placeOf(image)).toEqual(added);
    await page.keyboard.press('Control+z');
    await expect(image).toHaveCount(0);
    await expect(page.getByTestId('bat-item-text')).toHaveCount(1);
    await page.keyboard.press('Control+Shift+z');
    await expect(image).toHaveCount(1);
    await expect.poll(() => placeOf(image)).toEqual(added);
    await page.keyboard.press('Control+y');
    await expect.poll(() => placeOf(image)).toEqual(moved);
    // Nothing more to redo: the proof stays as it is.
    await page.keyboard.press('Control+y');
    await expect.poll(() => placeOf(image)).toEqual(moved);

    // The redone proof is saved by itself: the reload shows both items, the image where it was moved.
    await waitSaved(page);
    await page.reload();
    await expect(page.getByTestId('bat-item-text')).toHaveCount(1);
    await expect(image).toHaveCount(1);
    await expect.poll(() => placeOf(image)).toEqual(moved);
  });

  test("the advert editor's captures are the proof's screenshot library: listed, added, downloaded, deleted", async ({ app }) => {
    const page = await csmPage(app);
    const token = await tokenOf(app, 'CSM');
    const id = await createPreviewAdvert(app, token, 'post');
    expect(await listedScreenshots(app, token, id)).toEqual([]);

    // Two captures from the advert editor's preview.
    await page.goto(`${app.url}/adverts/edit/${id}`);
    await expect(page.getByTestId('preview')).toBeVisible({ timeout: 20_000 });
    for (let capture = 0; capture < 2; capture += 1) {
      await page.getByTestId('preview-capture').click();
      await expect(toast(page, 'success', P.captureAvailable)).toBeVisible({ timeout: 20_000 });
      await expect.poll(async () => (await listedScreenshots(app, token, id)).length).toBe(capture + 1);
      await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 20_000 });
    }
    const [newest, oldest] = await listedScreenshots(app, token, id);

    // The BAT button of the preview opens the proof: its library is GET /bat/screenshots, newest first, each picture shown.
    await page.getByTestId('preview-edit-bat').click();
    await expect(page.getByTestId('bat-editor')).toBeVisible();
    const shots = page.getByTestId('bat-screenshot');
    await expect(shots).toHaveCount(2);
    for (const [index, shot] of [newest, oldest].entries()) {
      const picture = shots.nth(index).locator('img');
      await expect(picture).toHaveAttribute('src', shot.imgPath);
      await expect.poll(() => picture.evaluate((element: HTMLImageElement) => (element.complete ? element.naturalWidth : 0))).toBeGreaterThan(0);
    }

    // Downloaded: the PNG file.
    const downloading = page.waitForEvent('download');
    await shots.nth(0).getByTestId('bat-screenshot-download').click();
    const download = await downloading;
    // Under the name the storage keeps it by (its Content-Disposition wins over the link's download name).
    expect(download.suggestedFilename()).toBe(decodeURIComponent(newest.imgPath.split('?')[0].split('/').pop()!));
    const { readFile } = await import('node:fs/promises');
    expect((await readFile((await download.path())!)).subarray(1, 4).toString()).toBe('PNG');

    // The older one added to the page as an image item.
    await shots.nth(1).getByTestId('bat-screenshot-add').click();
    await expect(page.getByTestId('bat-item-image').locator('img')).toHaveAttribute('src', oldest.imgPath);

    // The newer one deleted: gone from the library, from GET /bat/screenshots and from the storage.
    await shots.nth(0).getByTestId('bat-screenshot-delete').click();
    await expect(toast(page, 'success', B.imageDeleted)).toBeVisible();
    await expect(shots).toHaveCount(1);
    await expect(shots.locator('img')).toHaveAttribute('src', oldest.imgPath);
    expect((await listedScreenshots(app, token, id)).map((shot) => shot.id)).toEqual([oldest.id]);
    expect((await fetch(`${app.url}${newest.imgPath}`)).status).toBe(404);

    // After the autosave and a reload: the library of one, the image item still showing the older capture.
    await waitSaved(page);
    await page.reload();
    await expect(shots).toHaveCount(1);
    await expect(page.getByTestId('bat-item-image').locator('img')).toHaveAttribute('src', oldest.imgPath);
  });

  test("the advert editor's toolbar shows the proof's newest version, its state, who and when", async ({ app }) => {
    const page = await csmPage(app);
    const token = await tokenOf(app, 'CSM');
    const id = await createPreviewAdvert(app, token, 'post');
    const state = page.getByTestId('proof-state');

    // No proof: nothing on the toolbar.
    await page.goto(`${app.url}/adverts/edit/${id}`);
    await expect(page.getByTestId('editor-title')).toBeVisible();
    await expect(page.getByTestId('editor-save')).toBeVisible();
    await expect(state).toHaveCount(0);

    // A proof without a frozen version.
    await uploadCapture(app, token, id);
    await page.reload();
    await expect(state).toHaveText(B.toolbarNoVersion);
    await expect(state).toHaveAttribute('data-state', 'none');

    // Its link opens the proof; a version frozen there shows on the toolbar on the way back, with who and when.
    await state.click();
    await expect(page).toHaveURL(new RegExp(`/advert/bat/${id}$`));
    await page.getByTestId('bat-freeze').click();
    await expect(page.getByTestId('bat-version').first()).toHaveAttribute('data-state', 'draft', { timeout: 60_000 });
    await page.getByTestId('bat-version').first().getByTestId('bat-version-sent').click();
    await expect(page.getByTestId('bat-version').first()).toHaveAttribute('data-state', 'sent');
    await page.getByTestId('bat-back').click();
    await expect(page).toHaveURL(new RegExp(`/adverts/edit/${id}$`));
    await expect(state).toHaveAttribute('data-state', 'sent');
    await expect(state).toContainText(B.toolbarVersion(1, 'sent'));
    const by = page.getByTestId('proof-state-by');
    await expect(by).toContainText(demoAccount('CSM').name);
    await expect(by).toHaveText(/\d{2}\/\d{2}\/\d{4}/);

    // Validated by the client (here through the API, as another member of staff would): the toolbar follows.
    const versions = (await (await fetch(`${app.apiUrl}/bat/fetch/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      versions: { id: number }[];
    };
    const moved = await fetch(`${app.apiUrl}/bat/version/${id}/${versions.versions[0].id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'validated' }),
    });
    expect(moved.status).toBe(200);
    await page.reload();
    await expect(state).toHaveAttribute('data-state', 'validated');
    await expect(state).toContainText(B.toolbarVersion(1, 'validated'));
  });

  test('opens at the largest zoom that fits beside the side panel; the panel goes under the page only when 70 % cannot fit', async ({ app }) => {
    const page = await csmPage(app);
    const token = await tokenOf(app, 'CSM');
    const id = await createPreviewAdvert(app, token, 'post');
    // A capture gives the advert its proof.
    await uploadCapture(app, token, id);
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    try {
      // 1366 × 768, the smallest screen the staff use: the page at 100 %, the library and versions beside it.
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto(`${app.url}/advert/bat/${id}`);
      await expect(page.getByTestId('bat-zoom')).toHaveText('100 %');
      await expect(page.getByTestId('bat-editor')).not.toHaveClass(/stacked/);
      expect((await box('.bat-side')).x).toBeGreaterThanOrEqual((await box('.bat-canvas-frame')).x + (await box('.bat-canvas-frame')).width);

      // Narrower: the page opens smaller and keeps the panel beside it.
      await page.setViewportSize({ width: 1100, height: 768 });
      await page.reload();
      await expect(page.getByTestId('bat-zoom')).toHaveText('70 %');
      await expect(page.getByTestId('bat-editor')).not.toHaveClass(/stacked/);

      // Too narrow for 70 % beside the panel: the panel goes under the page.
      await page.setViewportSize({ width: 900, height: 768 });
      await page.reload();
      await expect(page.getByTestId('bat-editor')).toHaveClass(/stacked/);
      expect((await box('.bat-side')).y).toBeGreaterThanOrEqual((await box('.bat-canvas-frame')).y + (await box('.bat-canvas-frame')).height);
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
  });
});

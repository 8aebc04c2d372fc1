import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Page } from '@playwright/test';
import { PREVIEW_TYPES, type PreviewType } from '@shared/rules/preview';
import { expect, signIn, test, type WebApp } from './fixtures';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';

/**
 * A screenshot of each preview type (fixed fixture adverts, DejaVu Sans) against the approved image in
 * tests/e2e/__approved__/previews/, with a small tolerance, so that a layout change is seen. A missing approved
 * image fails; `UPDATE_APPROVED=1` writes the approved images instead (then look at them and commit them).
 */
const APPROVED = fileURLToPath(new URL('./__approved__/previews/', import.meta.url));
const UPDATE = process.env.UPDATE_APPROVED === '1';
/** pixelmatch's per-pixel colour threshold, and the share of pixels that may differ (anti-aliasing). */
const PIXEL_THRESHOLD = 0.1;
const MAX_DIFFERENT_SHARE = 0.005;

let token: string;

// One web host for the file, CSM signed in; each test makes its own advert.
test.use({
  appOptions: {
    prepare: async (app) => {
      await app.page.setViewportSize({ width: 1400, height: 1000 });
      await signIn(app.page, app.url, 'CSM');
      token = await tokenOf(app, 'CSM');
    },
  },
});

/** The preview canvas at zoom 1, lifted out of the pane (fixed at the top left) so that nothing clips it. */
async function shootCanvas(page: Page): Promise<Buffer> {
  const zoomIn = page.getByTestId('preview-zoom-in');
  while (!(await zoomIn.isDisabled())) await zoomIn.click();
  const canvas = page.getByTestId('preview-canvas');
  await canvas.evaluate((element: HTMLElement) => {
    Object.assign(element.style, { position: 'fixed', left: '0px', top: '0px', zIndex: '1000' });
  });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return canvas.screenshot({ animations: 'disabled', caret: 'hide' });
}

/**
 * Compares the shot with its approved image; on a difference the actual image and the diff are attached to the
 * test's report (under test-results/playwright/), beside its trace.
 */
async function compare(name: string, actual: Buffer): Promise<void> {
  const path = join(APPROVED, `${name}.png`);
  if (UPDATE) {
    mkdirSync(APPROVED, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  expect(existsSync(path), `approved image ${name}.png is missing: run with UPDATE_APPROVED=1, check and commit it`).toBe(true);
  const approved = PNG.sync.read(readFileSync(path));
  const shot = PNG.sync.read(actual);
  const attach = (suffix: string, body: Buffer) => test.info().attach(`${name}-${suffix}.png`, { body, contentType: 'image/png' });
  if (shot.width !== approved.width || shot.height !== approved.height) {
    await attach('actual', actual);
    expect(`${shot.width}x${shot.height}`, `${name}: size changed (actual image attached)`).toBe(`${approved.width}x${approved.height}`);
  }
  const diff = new PNG({ width: shot.width, height: shot.height });
  const different = pixelmatch(approved.data, shot.data, diff.data, shot.width, shot.height, { threshold: PIXEL_THRESHOLD });
  if (different / (shot.width * shot.height) > MAX_DIFFERENT_SHARE) {
    await attach('actual', actual);
    await attach('diff', PNG.sync.write(diff));
  }
  expect(different / (shot.width * shot.height), `${name}: ${different} pixels differ (actual and diff attached)`).toBeLessThanOrEqual(
    MAX_DIFFERENT_SHARE,
  );
}

async function openPreview(app: WebApp, type: PreviewType): Promise<Page> {
  const id = await createPreviewAdvert(app, token, type);
  const { page } = app;
  await page.goto(`/adverts/edit/${id}`);
  await expect(page.getByTestId('preview-canvas')).toBeVisible({ timeout: 20_000 });
  return page;
}

test.describe('preview screenshots against the approved images', () => {
  for (const type of PREVIEW_TYPES) {
    test(type, async ({ app }) => {
      const page = await openPreview(app, type);
      await compare(type, await shootCanvas(page));
    });
  }

  test('quiz, expanded, results step', async ({ app }) => {
    const page = await openPreview(app, 'quiz');
    await page.getByTestId('preview-expand').click();
    await page.getByTestId('pv-quiz-validate').click();
    await compare('quiz-results', await shootCanvas(page));
  });

  test('story, expanded, second screen (invalid colours fall back to #C41723)', async ({ app }) => {
    const page = await openPreview(app, 'story');
    await page.getByTestId('preview-expand').click();
    await page.getByTestId('pv-story-next').click();
    await compare('story-second-screen', await shootCanvas(page));
  });
});

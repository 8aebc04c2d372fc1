import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_TYPES, type PreviewType } from '@shared/rules/preview';
import { launchChromium, openWebApp, signIn, type WebApp } from './fixtures';
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

let browser: Browser;
let app: WebApp;
let token: string;

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
  await app.page.setViewportSize({ width: 1400, height: 1000 });
  await signIn(app.page, app.url, 'CSM');
  token = await tokenOf(app, 'CSM');
});
afterAll(async () => {
  await app?.close();
  await browser?.close();
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

function compare(name: string, actual: Buffer): void {
  const path = join(APPROVED, `${name}.png`);
  if (UPDATE) {
    mkdirSync(APPROVED, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  expect(existsSync(path), `approved image ${name}.png is missing: run with UPDATE_APPROVED=1, check and commit it`).toBe(true);
  const approved = PNG.sync.read(readFileSync(path));
  const shot = PNG.sync.read(actual);
  const failed = join(tmpdir(), `preview-${name}-actual.png`);
  if (shot.width !== approved.width || shot.height !== approved.height) {
    writeFileSync(failed, actual);
    expect(`${shot.width}x${shot.height}`, `${name}: size changed (actual in ${failed})`).toBe(`${approved.width}x${approved.height}`);
  }
  const diff = new PNG({ width: shot.width, height: shot.height });
  const different = pixelmatch(approved.data, shot.data, diff.data, shot.width, shot.height, { threshold: PIXEL_THRESHOLD });
  if (different / (shot.width * shot.height) > MAX_DIFFERENT_SHARE) {
    writeFileSync(failed, actual);
    writeFileSync(join(tmpdir(), `preview-${name}-diff.png`), PNG.sync.write(diff));
  }
  expect(different / (shot.width * shot.height), `${name}: ${different} pixels differ (actual and diff in ${tmpdir()})`).toBeLessThanOrEqual(MAX_DIFFERENT_SHARE);
}

async function openPreview(type: PreviewType): Promise<Page> {
  const id = await createPreviewAdvert(app, token, type);
  const { page } = app;
  await page.goto(`${app.url}/adverts/edit/${id}`);
  await page.getByTestId('preview-canvas').waitFor({ timeout: 20_000 });
  return page;
}

describe('preview screenshots against the approved images', () => {
  it.each(PREVIEW_TYPES)('%s', async (type) => {
    const page = await openPreview(type);
    compare(type, await shootCanvas(page));
  });

  it('quiz, expanded, results step', async () => {
    const page = await openPreview('quiz');
    await page.getByTestId('preview-expand').click();
    await page.getByTestId('pv-quiz-validate').click();
    compare('quiz-results', await shootCanvas(page));
  });

  it('story, expanded, second screen (invalid colours fall back to #C41723)', async () => {
    const page = await openPreview('story');
    await page.getByTestId('preview-expand').click();
    await page.getByTestId('pv-story-next').click();
    compare('story-second-screen', await shootCanvas(page));
  });
});

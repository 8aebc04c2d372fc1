import { sql } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWebApp, signIn, type WebApp } from './fixtures';

/**
 * The demo workspace shows its adverts' and articles' pictures (web host, Chromium): they are stored where uploads
 * go and served from the page's own origin, so the previews show real images under the page's CSP, never the
 * placeholders. SCREENSHOTS_DIR=<folder> also keeps a picture of each screen.
 */

let browser: Browser;
let app: WebApp;
const screenshots = process.env.SCREENSHOTS_DIR;

async function idOf(table: 'adverts' | 'articles', name: string): Promise<number> {
  const result = (await app.host.embedded!.database.db.execute(sql`SELECT id FROM ${sql.raw(table)} WHERE name = ${name}`)) as unknown as { rows: { id: number }[] };
  return result.rows[0].id;
}

/** Seeded: the demo adverts are written once the demo audiences exist, in the background. */
async function demoSeeded(): Promise<boolean> {
  const result = (await app.host.embedded!.database.db.execute(sql`SELECT count(*)::int AS n FROM articles`)) as unknown as { rows: { n: number }[] };
  return result.rows[0].n > 0;
}

/** The image is loaded and decoded: a real picture, not a broken or refused one. */
async function expectShown(image: Locator) {
  await image.waitFor();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => (element.complete ? element.naturalWidth : 0)), { timeout: 20_000 }).toBeGreaterThan(0);
  expect(await image.evaluate((element: HTMLImageElement) => new URL(element.src).origin)).toBe(new URL(app.url).origin);
}

async function hoverId(page: Page, id: number) {
  await page.getByTestId(`hover-preview-${id}`).hover();
  return page.getByTestId('hover-preview-card');
}

beforeAll(async () => {
  browser = await launchChromium();
  // A small population: the demo adverts wait for the demo audiences.
  app = await openWebApp(browser, { demoPopulation: { users: 100, events: 500 } });
  app.page.setDefaultTimeout(20_000);
  await app.page.setViewportSize({ width: 1440, height: 900 });
  for (const started = Date.now(); !(await demoSeeded()); ) {
    if (Date.now() - started > 240_000) throw new Error('the demo adverts and articles were not seeded');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 300_000);
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

describe('demo workspace pictures (web host, Chromium)', { timeout: 180_000 }, () => {
  it('the advert list previews and an advert editor show the demo pictures, not placeholders', async () => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/adverts`);
    await page.getByTestId('adverts-page').waitFor();

    const post = await idOf('adverts', 'Cardionov — Insuffisance cardiaque');
    const card = await hoverId(page, post);
    await expectShown(card.locator('img.pv-picture'));
    await expectShown(card.locator('img.pv-logo'));
    expect(await card.locator('.pv-picture-empty, .pv-logo-empty').count()).toBe(0);
    // The screenshot on a row near the top, where the whole card shows.
    const ended = await idOf('adverts', 'Cardionov — Prescripteurs AVK');
    await page.mouse.move(0, 0);
    await expectShown((await hoverId(page, ended)).locator('img.pv-picture'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-adverts-list.png` });

    // A video of another site cannot play under the CSP: its cover stands in.
    const video = await idOf('adverts', 'Cardionov — Webinar HTA');
    await page.mouse.move(0, 0);
    await expectShown((await hoverId(page, video)).getByTestId('pv-video-cover'));

    await page.goto(`${url}/adverts/edit/${post}`);
    const preview = page.getByTestId('preview');
    await expectShown(preview.locator('img.pv-picture'));
    await expectShown(preview.locator('img.pv-logo'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-advert-preview.png` });

    // The story: its screens' illustrations.
    const story = await idOf('adverts', 'Dermalia — Story acné');
    await page.goto(`${url}/adverts/edit/${story}`);
    await expectShown(page.getByTestId('preview').locator('.pv-story-illustration img'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-story-preview.png` });
  });

  it('the article list previews show the articles’ pictures', async () => {
    const { page, url } = app;
    await page.goto(`${url}/articles`);
    await page.getByTestId('articles-page').waitFor();
    const article = await idOf('articles', 'Calendrier vaccinal 2026');
    const card = await hoverId(page, article);
    await expectShown(card.locator('img.pv-picture'));
    await expectShown(card.locator('img.pv-logo'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-articles-list.png` });
  });
});

import { sql } from 'drizzle-orm';
import type { Locator, Page } from '@playwright/test';
import { BAT_MESSAGES as B } from '@shared/messages/bat';
import { expect, test, type WebApp } from './fixtures';

/**
 * The demo workspace shows its adverts' and articles' pictures (web host, Chromium): they are stored where uploads
 * go and served from the page's own origin, so the previews show real images under the page's CSP, never the
 * placeholders. SCREENSHOTS_DIR=<folder> also keeps a picture of each screen.
 */

const screenshots = process.env.SCREENSHOTS_DIR;

async function idOf(app: WebApp, table: 'adverts' | 'articles', name: string): Promise<number> {
  const result = (await app.host.embedded!.database.db.execute(sql`SELECT id FROM ${sql.raw(table)} WHERE name = ${name}`)) as unknown as {
    rows: { id: number }[];
  };
  return result.rows[0].id;
}

/** Seeded: the demo adverts are written once the demo audiences exist, in the background. */
async function demoSeeded(app: WebApp): Promise<boolean> {
  const result = (await app.host.embedded!.database.db.execute(sql`SELECT count(*)::int AS n FROM articles`)) as unknown as { rows: { n: number }[] };
  return result.rows[0].n > 0;
}

/** The image is loaded and decoded: a real picture, not a broken or refused one. */
async function expectShown(app: WebApp, image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => (element.complete ? element.naturalWidth : 0)), { timeout: 20_000 })
    .toBeGreaterThan(0);
  expect(await image.evaluate((element: HTMLImageElement) => new URL(element.src).origin)).toBe(new URL(app.url).origin);
}

async function hoverId(page: Page, id: number) {
  await page.getByTestId(`hover-preview-${id}`).hover();
  return page.getByTestId('hover-preview-card');
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    demoPopulation: { users: 100, events: 500 },
    prepare: async (app) => {
      // A small population: the demo adverts wait for the demo audiences.
      await app.page.setViewportSize({ width: 1440, height: 900 });
      await expect.poll(() => demoSeeded(app), { message: 'the demo adverts and articles were seeded', timeout: 240_000 }).toBe(true);
    },
  },
});

test.describe('demo workspace pictures (web host, Chromium)', () => {
  test.describe.configure({ timeout: 180_000 });
  test('the advert list previews and an advert editor show the demo pictures, not placeholders', async ({ app, signedIn }) => {
    const { url } = app;
    const page = await signedIn('CSM');
    await page.goto(`${url}/adverts`);
    await expect(page.getByTestId('adverts-page')).toBeVisible();

    const post = await idOf(app, 'adverts', 'Cardionov — Insuffisance cardiaque');
    const card = await hoverId(page, post);
    await expectShown(app, card.locator('img.pv-picture'));
    await expectShown(app, card.locator('img.pv-logo'));
    await expect(card.locator('.pv-picture-empty, .pv-logo-empty')).toHaveCount(0);
    // The screenshot on a row near the top, where the whole card shows.
    const ended = await idOf(app, 'adverts', 'Cardionov — Prescripteurs AVK');
    await page.mouse.move(0, 0);
    await expectShown(app, (await hoverId(page, ended)).locator('img.pv-picture'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-adverts-list.png` });

    // A video of another site cannot play under the CSP: its cover stands in.
    const video = await idOf(app, 'adverts', 'Cardionov — Webinar HTA');
    await page.mouse.move(0, 0);
    await expectShown(app, (await hoverId(page, video)).getByTestId('pv-video-cover'));

    await page.goto(`${url}/adverts/edit/${post}`);
    const preview = page.getByTestId('preview');
    await expectShown(app, preview.locator('img.pv-picture'));
    await expectShown(app, preview.locator('img.pv-logo'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-advert-preview.png` });

    // The story: its screens' illustrations.
    const story = await idOf(app, 'adverts', 'Dermalia — Story acné');
    await page.goto(`${url}/adverts/edit/${story}`);
    await expectShown(app, page.getByTestId('preview').locator('.pv-story-illustration img'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-story-preview.png` });
  });

  test('the article list previews show the articles’ pictures', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/articles`);
    await expect(page.getByTestId('articles-page')).toBeVisible();
    const article = await idOf(app, 'articles', 'Calendrier vaccinal 2026');
    const card = await hoverId(page, article);
    await expectShown(app, card.locator('img.pv-picture'));
    await expectShown(app, card.locator('img.pv-logo'));
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-articles-list.png` });
  });

  test('the demo advert’s proof: its pages on the capture of its cover, and its versions on the editor’s toolbar', async ({ app }) => {
    const { page, url } = app;
    const post = await idOf(app, 'adverts', 'Cardionov — Insuffisance cardiaque');
    // The proof is written once the demo adverts are (in the background).
    const proofs = async () =>
      (
        (await app.host.embedded!.database.db.execute(sql`SELECT count(*)::int AS n FROM bats WHERE advert_id = ${post}`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0].n;
    await expect.poll(proofs, { timeout: 60_000 }).toBe(1);

    await page.goto(`${url}/adverts/edit/${post}`);
    const state = page.getByTestId('proof-state');
    await expect(state).toHaveAttribute('data-state', 'sent');
    await expect(state).toContainText(B.toolbarVersion(2, 'sent'));
    await expect(page.getByTestId('proof-state-by')).toContainText('Camille Martin');

    await state.click();
    await expect(page.getByTestId('bat-page-button')).toHaveCount(2);
    await expect(page.getByTestId('bat-item-text')).toHaveCount(3);
    await expect(page.getByTestId('bat-arrow')).toHaveCount(1);
    await expect(page.getByTestId('bat-mobile-frame')).toBeVisible();
    await expectShown(app, page.getByTestId('bat-item-image').locator('img'));
    await expectShown(app, page.getByTestId('bat-screenshot').locator('img'));
    await expect(page.getByTestId('bat-version').locator('[data-testid="bat-version-state"]')).toHaveText([
      'Envoyé au client',
      'Modifications demandées',
    ]);
    if (screenshots) await page.screenshot({ path: `${screenshots}/demo-media-proof.png` });
    await page.getByTestId('bat-page-button').nth(1).click();
    await expect(page.getByTestId('bat-text-editable').locator('a[href^="https://"]')).toHaveCount(1);
  });
});

import { MESSAGES } from '@shared/messages';
import { CHUNK_RETRY_DELAYS_MS } from '../../src-renderer/app/chunk-timeout';
import { expect, signIn, test } from './fixtures';

const ADMIN_CHUNK = /\/assets\/AdminPage-[^/]+\.js$/;

test.describe('a screen chunk that cannot load (web host, Chromium)', () => {
  test("is requested a bounded number of times, then the screen says 'Loading chunk failed'", async ({ app }) => {
    const { page, url, context } = app;
    const requests: string[] = [];
    page.on('request', (request) => {
      if (ADMIN_CHUNK.test(new URL(request.url()).pathname)) requests.push(request.url());
    });
    await context.route(ADMIN_CHUNK, (route) => route.abort('failed'));

    // The retries wait on the page's timers: a clock the test can move on.
    await page.clock.install();
    await signIn(page, url, 'ADMIN');
    // Every role lands on the advert list (spec §2 Login page); Admin is one click away.
    await page.waitForURL((u) => u.pathname === '/adverts');
    await page.getByTestId('nav-admin').click();
    await page.waitForURL((u) => u.pathname === '/admin');
    const error = page.getByTestId('screen-error');
    await expect(error).toBeVisible({ timeout: 30_000 });
    await expect(error).toHaveText(MESSAGES.loadingChunkFailed);

    // The preload on the login page and the opening of the screen each try 1 + retries times, no more...
    const perLoad = CHUNK_RETRY_DELAYS_MS.length + 1;
    expect(requests.length).toBeGreaterThanOrEqual(perLoad);
    expect(requests.length).toBeLessThanOrEqual(2 * perLoad);
    // ...and nothing more while the message shows.
    const shown = requests.length;
    await page.clock.runFor(CHUNK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0));
    expect(requests.length).toBe(shown);
    await expect(error).toHaveText(MESSAGES.loadingChunkFailed);

    // Once the chunk can load, leaving and opening the screen again works.
    await context.unroute(ADMIN_CHUNK);
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about')).toBeVisible();
    await page.getByTestId('nav-admin').click();
    await expect(page.getByTestId('admin-table')).toBeVisible({ timeout: 15_000 });
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_MESSAGES, HOST_MESSAGES } from '@shared/messages';
import { demoAccount, launchChromium, openWebApp, signIn, type WebApp } from './fixtures';
import { signOut } from './helpers';

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

/** Any toast the page shows, whatever its kind. */
const toasts = () => app.page.locator('.Toastify__toast');

describe('shell on the web host (issue 21 item 19)', () => {
  it('signs in without the keychain warning (a desktop concern); the About page says once that sessions live in the host', async () => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.getByTestId('adverts-page').waitFor();
    // The warning was a 5 s toast right after sign-in: the first screen is up, and no toast names a keychain.
    await expect.poll(() => page.getByTestId('adverts-table').count()).toBe(1);
    expect(await toasts().filter({ hasText: DESKTOP_MESSAGES.sessionNotPersistent }).count()).toBe(0);
    expect(await page.getByText('trousseau').count()).toBe(0);

    await page.goto(`${url}/about`);
    await expect.poll(() => page.getByTestId('about-session-persistence').textContent()).toBe(HOST_MESSAGES.webSessionInMemory);
    expect(await page.getByText('trousseau').count()).toBe(0);
    await signOut(page);

    // A second sign-in: still no warning.
    await signIn(page, url, 'ADMIN');
    await page.getByTestId('adverts-page').waitFor();
    expect(await toasts().filter({ hasText: DESKTOP_MESSAGES.sessionNotPersistent }).count()).toBe(0);
    await signOut(page);
  });

  it('shows the Migrations button to those who may run a migration, not to SALES; SALES gets /403 on the page and a 403 from the server', async () => {
    const { page, url } = app;
    for (const role of ['CSM', 'CSM_LEAD', 'ADMIN'] as const) {
      await signIn(page, url, role);
      await page.getByTestId('adverts-page').waitFor();
      await expect.poll(() => page.getByTestId('adverts-migration').count(), { message: role }).toBe(1);
      await signOut(page);
    }

    await signIn(page, url, 'SALES');
    await page.getByTestId('adverts-page').waitFor();
    // The list is there (export included), without the Migrations button.
    await page.getByTestId('adverts-export').waitFor();
    expect(await page.getByTestId('adverts-migration').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Migrations' }).count()).toBe(0);
    await page.goto(`${url}/adverts/migration`);
    await page.waitForURL((u) => u.pathname === '/403');
    // The server refuses SALES a run whatever a page shows (the authorization matrix covers every caller).
    const { email, password } = demoAccount('SALES');
    const signedIn = await fetch(`${app.apiUrl}/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: email, password }) });
    const token = ((await signedIn.json()) as { accessToken: { value: string } }).accessToken.value;
    const run = await fetch(`${app.apiUrl}/adverts/migration`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ kind: 'advert', id: 1 }] }),
    });
    expect(run.status).toBe(403);
    await signOut(page);
  });
});

import type { Browser, BrowserContext } from '@playwright/test';
import { MESSAGES } from '@shared/messages';
import { demoAccount, expect, signIn, test } from './fixtures';

const others: BrowserContext[] = [];

test.afterEach(async () => {
  for (const context of others.splice(0)) await context.close();
});

/** Another browser (own cookies) on the same host. */
async function newBrowser(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  others.push(context);
  return context;
}

test.describe('one session per browser on the web host (Chromium)', () => {
  test('keeps an ADMIN and a SALES browser signed in at once, and a browser without cookies signed out', async ({ app, browser }) => {
    const { page: adminPage, url } = app;
    const admin = demoAccount('ADMIN');
    await signIn(adminPage, url, 'ADMIN');
    await adminPage.waitForURL((current) => current.pathname === '/adverts');
    await adminPage.getByTestId('nav-admin').click();
    await adminPage.waitForURL((current) => current.pathname === '/admin');
    await expect(adminPage.locator(`tr[data-email="${admin.email}"]`)).toHaveCount(1, { timeout: 20_000 });

    // The session cookie: HttpOnly (no script reads it), SameSite=Strict, whole site.
    const [cookie] = await app.context.cookies(url);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await adminPage.evaluate(() => document.cookie)).toBe('');

    const salesPage = await (await newBrowser(browser)).newPage();
    await signIn(salesPage, url, 'SALES');
    expect(new URL(salesPage.url()).pathname).toBe('/adverts');

    // The ADMIN browser still acts as ADMIN: a search reaches the server and answers with rows.
    await adminPage.getByTestId('admin-search').fill('sales@');
    await expect(adminPage.locator(`tr[data-email="${demoAccount('SALES').email}"]`)).toHaveCount(1, { timeout: 20_000 });
    await adminPage.reload();
    await adminPage.waitForURL((current) => current.pathname === '/admin');
    await expect(adminPage.locator(`tr[data-email="${admin.email}"]`)).toHaveCount(1, { timeout: 20_000 });
    await expect(adminPage.getByText(MESSAGES.userNotAllowed)).toHaveCount(0);

    // A fresh browser opening the address is nobody: the sign-in page.
    const freshPage = await (await newBrowser(browser)).newPage();
    await freshPage.goto(`${url}/admin`);
    await freshPage.waitForURL((current) => current.pathname === '/login');

    // Signing out in the SALES browser leaves the ADMIN browser signed in.
    await salesPage.getByTestId('logout').click();
    await salesPage.getByRole('button', { name: 'Oui' }).click();
    await salesPage.waitForURL((current) => current.pathname === '/login');
    await adminPage.reload();
    await expect(adminPage.locator(`tr[data-email="${admin.email}"]`)).toHaveCount(1, { timeout: 20_000 });
    expect(new URL(adminPage.url()).pathname).toBe('/admin');
  });
});

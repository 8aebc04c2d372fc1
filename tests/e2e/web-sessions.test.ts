import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { demoAccount, launchChromium, openWebApp, signIn, type WebApp } from './fixtures';

let browser: Browser;
let app: WebApp;
const others: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());
afterEach(async () => {
  for (const context of others.splice(0)) await context.close();
  await app?.close();
});

async function newBrowser(): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  others.push(context);
  return context;
}

describe('one session per browser on the web host (Chromium)', () => {
  it('keeps an ADMIN and a SALES browser signed in at once, and a browser without cookies signed out', async () => {
    app = await openWebApp(browser);
    const { page: adminPage, url } = app;
    const admin = demoAccount('ADMIN');
    await signIn(adminPage, url, 'ADMIN');
    await adminPage.waitForURL((current) => current.pathname === '/adverts');
    await adminPage.getByTestId('nav-admin').click();
    await adminPage.waitForURL((current) => current.pathname === '/admin');
    await expect.poll(() => adminPage.locator(`tr[data-email="${admin.email}"]`).count(), { timeout: 20_000 }).toBe(1);

    // The session cookie: HttpOnly (no script reads it), SameSite=Strict, whole site.
    const [cookie] = await app.context.cookies(url);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await adminPage.evaluate(() => document.cookie)).toBe('');

    const salesPage = await (await newBrowser()).newPage();
    await signIn(salesPage, url, 'SALES');
    expect(new URL(salesPage.url()).pathname).toBe('/adverts');

    // The ADMIN browser still acts as ADMIN: a search reaches the server and answers with rows.
    await adminPage.getByTestId('admin-search').fill('sales@');
    await expect.poll(() => adminPage.locator(`tr[data-email="${demoAccount('SALES').email}"]`).count(), { timeout: 20_000 }).toBe(1);
    await adminPage.reload();
    await adminPage.waitForURL((current) => current.pathname === '/admin');
    await expect.poll(() => adminPage.locator(`tr[data-email="${admin.email}"]`).count(), { timeout: 20_000 }).toBe(1);
    expect(await adminPage.getByText(MESSAGES.userNotAllowed).count()).toBe(0);

    // A fresh browser opening the address is nobody: the sign-in page.
    const freshPage = await (await newBrowser()).newPage();
    await freshPage.goto(`${url}/admin`);
    await freshPage.waitForURL((current) => current.pathname === '/login');

    // Signing out in the SALES browser leaves the ADMIN browser signed in.
    await salesPage.getByTestId('logout').click();
    await salesPage.getByRole('button', { name: 'Oui' }).click();
    await salesPage.waitForURL((current) => current.pathname === '/login');
    await adminPage.reload();
    await expect.poll(() => adminPage.locator(`tr[data-email="${admin.email}"]`).count(), { timeout: 20_000 }).toBe(1);
    expect(new URL(adminPage.url()).pathname).toBe('/admin');
  });
});

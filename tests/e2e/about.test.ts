import { join } from 'node:path';
import { DIAGNOSTICS_MESSAGES } from '@shared/messages/diagnostics';
import { expect, test } from './fixtures';

test.use({ appOptions: { logs: true, settings: { shortUrlServiceUrl: 'https://short.exemple.fr/admin?signature=sig-789' } } });

test.describe('About page: logs and diagnostics (web host, Chromium)', () => {
  test('says where the logs are and copies the diagnostics, without secrets', async ({ app, signedIn }) => {
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const page = await signedIn('ADMIN');
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-logs')).toHaveText(join(app.dataDir, 'logs'));
    await page.getByRole('button', { name: DIAGNOSTICS_MESSAGES.copy }).click();
    await expect(page.getByText(DIAGNOSTICS_MESSAGES.copied)).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('(navigateur)');
    expect(copied).toContain(`Journaux : ${join(app.dataDir, 'logs')}`);
    expect(copied).toContain('shortUrlServiceUrl : https://short.exemple.fr/admin\n');
    expect(copied).not.toContain('sig-789');
    // The sign-in's password and tokens are nowhere in it.
    expect(copied).not.toMatch(/eyJ|password"?\s*[:=]\s*"?[^"[]/i);
  });
});

test.describe('a screen that fails (web host, Chromium)', () => {
  test.use({ appOptions: { logs: true, fresh: true } });
  test("goes to the host's log with its route, and so into the diagnostics", async ({ app, signedIn }) => {
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const adminChunk = /\/assets\/AdminPage-[^/]+\.js$/;
    await app.context.route(adminChunk, (route) => route.abort('failed'));
    const page = await signedIn('ADMIN');
    await page.getByTestId('nav-admin').click();
    await expect(page.getByTestId('screen-error')).toBeVisible({ timeout: 30_000 });
    await app.context.unroute(adminChunk);
    await page.getByTestId('about-link').click();
    await page.getByRole('button', { name: DIAGNOSTICS_MESSAGES.copy }).click();
    await expect(page.getByText(DIAGNOSTICS_MESSAGES.copied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('renderer error on /admin: Loading chunk failed');
  });
});

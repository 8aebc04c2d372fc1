import { MESSAGES } from '@shared/messages';
import { ROLES } from '@shared/roles';
import { expect, signIn, test } from './fixtures';

// Each test starts from a first run: a web host of its own.
test.use({ appOptions: { fresh: true } });

test.describe('sign-in, navigation by role and guard (web host, Chromium)', () => {
  test('shows each role its menus, the bell, the environment marker and logout', async ({ app }) => {
    const { page, url } = app;
    // Six roles signed in one after the other: over 60 s on a loaded CI machine (the suite gives a test 120 s).
    for (const role of ROLES) {
      await signIn(page, url, role);
      // Every role lands on the advert list (spec §2 Login page); the menus show the screens that exist today.
      expect(new URL(page.url()).pathname).toBe('/adverts');
      const nav = page.getByTestId('main-nav');
      const sees = (...roles: string[]) => roles.includes(role) || role === 'ADMIN';
      await expect(nav.getByRole('link', { name: 'Publicités' })).toHaveCount(sees('CSM', 'CSM_LEAD') ? 1 : 0);
      await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(sees() ? 1 : 0);
      await expect(nav.getByTestId('nav-audiences')).toHaveCount(sees('CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR') ? 1 : 0);
      await expect(page.getByTestId('env-marker')).toHaveText('prod');
      await expect(page.getByTestId('alert-bell')).toBeVisible();
      await page.getByTestId('logout').click();
      await expect(page.getByTestId('confirm-dialog')).toContainText(MESSAGES.confirmLogout);
      await page.getByRole('button', { name: 'Oui' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
    }
  });

  const links = { shortUrlServiceUrl: 'https://short.exemple.fr', appCreationToolUrl: 'https://apps.exemple.fr' };
  test.describe('with the external tools set', () => {
    test.use({ appOptions: { fresh: true, settings: links } });
    test('shows the external tools configured in the settings, by role, opening outside the app', async ({ app, signedIn }) => {
      const { url } = app;
      const page = await signedIn('CSM');
      const nav = page.getByTestId('main-nav');
      const shortUrl = nav.getByTestId('nav-shortUrl');
      await expect(shortUrl).toHaveAttribute('href', links.shortUrlServiceUrl);
      await expect(shortUrl).toHaveAttribute('target', '_blank');
      await expect(shortUrl).toHaveAttribute('rel', /noopener/);
      await expect(nav.getByTestId('nav-appCreation')).toHaveAttribute('href', links.appCreationToolUrl);
      await page.getByTestId('logout').click();
      await page.getByRole('button', { name: 'Oui' }).click();
      await signIn(page, url, 'CONTENT_CREATOR');
      await expect(nav.getByTestId('nav-appCreation')).toHaveCount(1);
      await expect(nav.getByTestId('nav-shortUrl')).toHaveCount(0);
    });
  });

  test('guards routes: anonymous to /login, a non-admin on /admin to /403', async ({ app }) => {
    const { page, url } = app;
    for (const path of ['/', '/admin', '/about']) {
      await page.goto(`${url}${path}`);
      await page.waitForURL((u) => u.pathname === '/login');
    }
    await signIn(page, url, 'CSM_LEAD');
    await page.goto(`${url}/admin`);
    await page.waitForURL((u) => u.pathname === '/403');
    await expect(page.getByTestId('forbidden')).toHaveText('Access denied (403)');
    // A path no screen declares is denied, not silently sent home.
    await page.goto(`${url}/nowhere/at-all`);
    await page.waitForURL((u) => u.pathname === '/403');
    // A screen of another role (push campaigns: CONTENT_CREATOR_LEAD) is denied too.
    await page.goto(`${url}/push/create`);
    await page.waitForURL((u) => u.pathname === '/403');
    // /login while signed in: the first screen (the advert list), not an empty form.
    await page.goto(`${url}/login`);
    await page.waitForURL((u) => u.pathname === '/adverts');
    await expect(page.getByTestId('login-username')).toHaveCount(0);
  });

  test("keeps the button disabled until both fields are filled, and says 'Invalid credentials'", async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/login`);
    const submit = page.getByTestId('login-submit');
    await expect(submit).toBeDisabled();
    await page.getByTestId('login-username').fill('admin@demo.backoffice.local');
    await expect(submit).toBeDisabled();
    await page.getByTestId('login-password').fill('not the password');
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByTestId('login-error')).toHaveText(MESSAGES.invalidCredentials);
    // Reset mode asks for the username only.
    await page.getByTestId('login-reset-switch').check();
    await expect(page.getByTestId('login-password')).toHaveCount(0);
    await expect(submit).toBeEnabled();
  });

  test('shows the lazily loaded About page with version, API address and database', async ({ app, signedIn }) => {
    const { url } = app;
    const page = await signedIn('SALES');
    await page.goto(`${url}/about`);
    await expect(page.getByTestId('about-api')).toHaveText(app.apiUrl);
    await expect(page.getByTestId('about-database')).toHaveText('pglite');
    await expect(page.getByTestId('about-version')).toHaveText(/^\d+\.\d+\.\d+/);
  });
});

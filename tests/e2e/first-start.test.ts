import { SETUP_MESSAGES } from '@shared/messages';
import { expect, test } from './fixtures';

/**
 * The first start of an installation without the demo workspace: no account exists, so sign-in sends the person
 * at the desk to the setup page (both read the server's setup status through the renderer's query kernel), which
 * creates the administrator and signs them in; afterwards the setup page is gone.
 */
test.use({ appOptions: { demo: false, fresh: true } });

test('sign-in sends a new installation to the setup page, which creates the administrator and signs in', async ({ app }) => {
  const { page, url } = app;
  await page.goto(`${url}/login`);
  await page.waitForURL((address) => address.pathname === '/setup');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(SETUP_MESSAGES.title);

  await page.getByTestId('setup-name').fill('Camille Martin');
  await page.getByTestId('setup-email').fill('camille.martin@exemple.fr');
  await page.getByTestId('setup-password').fill('Un mot de passe solide 2026');
  await page.getByTestId('setup-confirmation').fill('Un autre mot de passe 2026');
  await page.getByTestId('setup-submit').click();
  // Said next to the field, and nothing created.
  await expect(page.getByText(SETUP_MESSAGES.passwordsDiffer)).toBeVisible();
  await expect(page).toHaveURL(/\/setup$/);

  await page.getByTestId('setup-confirmation').fill('Un mot de passe solide 2026');
  await page.getByTestId('setup-submit').click();
  await page.waitForURL((address) => address.pathname === '/adverts');
  await expect(page.getByTestId('nav-admin')).toBeVisible();

  // The installation has its administrator: sign-in stays, and the setup page sends a visitor back to it.
  await page.context().clearCookies();
  await page.goto(`${url}/setup`);
  await page.waitForURL((address) => address.pathname === '/login');
  await expect(page.getByTestId('login-username')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

import type { Page } from '@playwright/test';
import { DESKTOP_MESSAGES, HOST_MESSAGES, MESSAGES } from '@shared/messages';
import { demoAccount, expect, signIn, test } from './fixtures';
import { signOut } from './helpers';

/** Any toast the page shows, whatever its kind. */
const toasts = (page: Page) => page.locator('.Toastify__toast');

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

test.describe('shell on the web host', () => {
  test('signs in without the keychain warning (a desktop concern); the About page says once that sessions live in the host', async ({
    app,
    signedIn,
  }) => {
    const { url } = app;
    const page = await signedIn('CSM');
    await expect(page.getByTestId('adverts-page')).toBeVisible();
    // The warning was a 5 s toast right after sign-in: the first screen is up, and no toast names a keychain.
    await expect(page.getByTestId('adverts-table')).toHaveCount(1);
    await expect(toasts(page).filter({ hasText: DESKTOP_MESSAGES.sessionNotPersistent })).toHaveCount(0);
    await expect(page.getByText('trousseau')).toHaveCount(0);

    await page.goto(`${url}/about`);
    await expect(page.getByTestId('about-session-persistence')).toHaveText(HOST_MESSAGES.webSessionInMemory);
    await expect(page.getByText('trousseau')).toHaveCount(0);
    await signOut(page);

    // A second sign-in: still no warning.
    await signIn(page, url, 'ADMIN');
    await expect(page.getByTestId('adverts-page')).toBeVisible();
    await expect(toasts(page).filter({ hasText: DESKTOP_MESSAGES.sessionNotPersistent })).toHaveCount(0);
    await signOut(page);
  });

  test('shows the Migrations button to those who may run a migration, not to SALES; SALES gets /403 on the page and a 403 from the server', async ({
    app,
  }) => {
    const { page, url } = app;
    for (const role of ['CSM', 'CSM_LEAD', 'ADMIN'] as const) {
      await signIn(page, url, role);
      await expect(page.getByTestId('adverts-page')).toBeVisible();
      await expect(page.getByTestId('adverts-migration'), role).toHaveCount(1);
      await signOut(page);
    }

    await signIn(page, url, 'SALES');
    await expect(page.getByTestId('adverts-page')).toBeVisible();
    // The list is there (export included), without the Migrations button.
    await expect(page.getByTestId('adverts-export')).toBeVisible();
    await expect(page.getByTestId('adverts-migration')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Migrations' })).toHaveCount(0);
    await page.goto(`${url}/adverts/migration`);
    await page.waitForURL((u) => u.pathname === '/403');
    // The server refuses SALES a run whatever a page shows (the authorization matrix covers every caller).
    const { email, password } = demoAccount('SALES');
    const signedIn = await fetch(`${app.apiUrl}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password }),
    });
    const token = ((await signedIn.json()) as { accessToken: { value: string } }).accessToken.value;
    const run = await fetch(`${app.apiUrl}/adverts/migration`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ kind: 'advert', id: 1 }] }),
    });
    expect(run.status).toBe(403);
    await signOut(page);
  });

  test('a role whose first call the server refuses gets the 403 page, not a half-loaded one; CSM_LEAD is not sent from a group to the ADMIN-only list', async ({
    app,
  }) => {
    const { page, url } = app;
    const refused: [Parameters<typeof signIn>[2], string][] = [
      ['CONTENT_CREATOR_LEAD', '/audiences'],
      ['CONTENT_CREATOR', '/projects'],
      ['CONTENT_CREATOR', '/targets'],
      ['CSM', '/debug/audiences/1'],
      ['SALES', '/adverts/edit/new'],
      ['SALES', '/articles/edit/new'],
      ['SALES', '/project/edit/new'],
    ];
    for (const [role, path] of refused) {
      await signIn(page, url, role);
      await page.goto(`${url}${path}`);
      await page.waitForURL((u) => u.pathname === '/403');
      await expect(page.getByTestId('forbidden'), `${role} on ${path}`).toHaveText(MESSAGES.accessDenied);
      await expect(page.getByText(MESSAGES.userNotAllowed)).toHaveCount(0);
      await signOut(page);
    }
    // What they may open still opens: SALES reads an advert, CSM_LEAD debugs a user and edits a group.
    await signIn(page, url, 'SALES');
    await page.goto(`${url}/projects`);
    await expect(page).toHaveURL(/\/projects$/);
    await signOut(page);
    // A group, made as an ADMIN would.
    const admin = demoAccount('ADMIN');
    const auth = await fetch(`${app.apiUrl}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: admin.email, password: admin.password }),
    });
    const adminToken = ((await auth.json()) as { accessToken: { value: string } }).accessToken.value;
    const created = await fetch(`${app.apiUrl}/v2/group`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Groupe des rôles', relationships: [] }),
    });
    const group = (await created.json()) as { id: number; label: string };
    const groupPath = `${url}/group/${group.label}/${group.id}`;
    await signIn(page, url, 'CSM_LEAD');
    await page.goto(groupPath);
    await expect(page.getByRole('textbox', { name: 'Nom' })).toBeVisible();
    await expect(page.getByRole('link', { name: '← Groupes' })).toHaveCount(0);
    await signOut(page);
    await signIn(page, url, 'ADMIN');
    await page.goto(groupPath);
    await expect(page.getByRole('link', { name: '← Groupes' })).toBeVisible();
    await signOut(page);
  });
});

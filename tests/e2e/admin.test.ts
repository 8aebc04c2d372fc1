import type { Page } from '@playwright/test';
import { MESSAGES } from '@shared/messages';
import { demoAccount, expect, lastMail, signIn, signInAs, test } from './fixtures';
import { changeAccountElsewhere, signOut } from './helpers';

const row = (page: Page, email: string) => page.locator(`tr[data-email="${email}"]`);

test.describe('account administration (web host, Chromium)', () => {
  test('lists accounts, searches, creates, edits, sets roles and deletes', async ({ app }) => {
    const { page, url } = app;
    // The first page answers late: the count shows a loader meanwhile, never '0 compte'.
    await page.route('**/__ipc/api*', async (route) => {
      const body = route.request().postDataJSON() as { payload?: { operation?: string } };
      if (body.payload?.operation === 'admin.accounts.list') await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await signIn(page, url, 'ADMIN');
    // Every role lands on the advert list (spec §2 Login page); Admin is one click away.
    await page.waitForURL((u) => u.pathname === '/adverts');
    await page.getByTestId('nav-admin').click();
    await page.waitForURL((u) => u.pathname === '/admin');
    await expect(page.getByTestId('admin-total')).toBeVisible();
    await expect(page.getByTestId('admin-total')).toHaveText('Chargement…');
    await expect(page.locator('.table-empty')).toHaveCount(0);
    await expect(page.locator('tbody tr')).toHaveCount(6, { timeout: 10_000 });
    await expect(page.getByTestId('admin-total')).toHaveText('6 comptes');
    await page.unroute('**/__ipc/api*');

    await test.step('Search on name, nickname or e-mail', async () => {
      await expect(page.getByTestId('admin-search')).toHaveAttribute('placeholder', 'Rechercher...');
      await page.getByTestId('admin-search').fill('sales@');
      await expect(page.locator('tbody tr')).toHaveCount(1);
      await page.getByTestId('admin-search').fill('');
      await expect(page.locator('tbody tr')).toHaveCount(6);
    });

    await test.step('Delete is hidden for accounts holding ADMIN', async () => {
      // Delete is hidden for accounts holding ADMIN; ADMIN cannot be removed from oneself.
      const admin = row(page, demoAccount('ADMIN').email);
      await expect(admin.getByRole('button', { name: 'Delete' })).toHaveCount(0);
      await admin.locator('.multi-select-button').click();
      await expect(admin.locator('input[data-testid$="-ADMIN"]')).toBeDisabled();
      await admin.locator('.multi-select-button').click();

      // Create.
      await page.getByTestId('admin-create').click();
      await expect(page.getByRole('dialog').locator('h2')).toHaveText('Ajouter un utilisateur');
      await page.getByTestId('account-name').fill('Inès Garnier');
      await page.getByTestId('account-nickname').fill('Inès');
      await page.getByTestId('account-email').fill('ines.garnier@exemple.fr');
      await page.getByRole('button', { name: 'Ajouter' }).click();
      await expect(row(page, 'ines.garnier@exemple.fr')).toHaveCount(1);
      // A long e-mail wraps inside its cell and stays left-aligned like the other cells.
      const emailLink = row(page, 'ines.garnier@exemple.fr').getByRole('button', { name: 'ines.garnier@exemple.fr' });
      expect(await emailLink.evaluate((node) => [getComputedStyle(node).textAlign, getComputedStyle(node).overflowWrap])).toEqual([
        'left',
        'anywhere',
      ]);
      expect(await lastMail(app, 'ines.garnier@exemple.fr')).toContain('/password/confirm?confirmationToken=');

      // A duplicate e-mail: the store error as an error toast; the dialog stays open, nothing lost.
      await page.getByTestId('admin-create').click();
      await page.getByTestId('account-name').fill('Autre');
      await page.getByTestId('account-email').fill('INES.garnier@exemple.fr');
      await page.getByRole('button', { name: 'Ajouter' }).click();
      await expect(page.locator('.Toastify__toast--error', { hasText: MESSAGES.emailAlreadyUsed })).toBeVisible();
      await expect(page.getByTestId('account-email-error')).toHaveText('E-mail : un compte utilise déjà cette adresse');
      await expect(page.getByTestId('account-name')).toHaveValue('Autre');
      // Bad fields, checked for real (main checks the contract, the server would say the same): the French message
      // beside the field it names, and what was typed stays.
      await page.getByTestId('account-name').fill('N'.repeat(201));
      await page.getByTestId('account-email').fill('pas-un-email');
      await page.getByRole('button', { name: 'Ajouter' }).click();
      await expect(page.getByTestId('account-name-error')).toHaveText('Nom : 200 caractères au plus');
      await expect(page.getByTestId('account-name')).toHaveAttribute('aria-invalid', 'true');
      await page.getByTestId('account-name').fill('Autre');
      await page.getByRole('button', { name: 'Ajouter' }).click();
      await expect(page.getByTestId('account-email-error')).toHaveText('E-mail : adresse e-mail invalide');
      await expect(page.getByTestId('account-email')).toHaveValue('pas-un-email');
      await page.getByRole('button', { name: 'Cancel' }).click();
    });

    await test.step('Edit through the username link', async () => {
      // Edit through the username link; the uuid is read-only.
      await row(page, 'ines.garnier@exemple.fr').getByRole('button', { name: 'ines.garnier@exemple.fr' }).click();
      await expect(page.getByRole('dialog').locator('h2')).toHaveText("Modifier l'utilisateur");
      await expect(page.getByTestId('account-uuid')).toHaveAttribute('readonly');
      await page.getByTestId('account-name').fill('Inès Garnier-Roy');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(row(page, 'ines.garnier@exemple.fr').locator('td').first()).toHaveText('Inès Garnier-Roy');
    });

    await test.step('Roles', async () => {
      // Roles: the multi-select shows the count.
      const ines = row(page, 'ines.garnier@exemple.fr');
      await expect(ines.locator('.multi-select-button')).toHaveText('Aucun rôle');
      await ines.locator('.multi-select-button').click();
      await ines.locator('input[data-testid$="-CSM"]').check();
      await expect(ines.locator('.multi-select-button')).toHaveText('1 rôle');
      await ines.locator('input[data-testid$="-SALES"]').check();
      await expect(ines.locator('.multi-select-button')).toHaveText('2 rôles');

      // Delete asks first.
      await page.keyboard.press('Escape');
      await page.locator('h1, .toolbar').first().click();
      await ines.getByRole('button', { name: 'Delete' }).click();
      const prompt = ines.getByRole('alertdialog');
      await expect(prompt).toContainText(MESSAGES.confirmDelete);
      // The prompt closes by itself after 5 s, and nothing is deleted.
      await expect(prompt).not.toBeAttached({ timeout: 7000 });
      await expect(ines).toHaveCount(1);
      await ines.getByRole('button', { name: 'Delete' }).click();
      await prompt.getByRole('button', { name: 'Oui' }).click();
      await expect(row(page, 'ines.garnier@exemple.fr')).toHaveCount(0);
      // The server agrees.
      await page.reload();
      await expect(page.locator('tbody tr')).toHaveCount(6);
    });
  });

  test('shows a failure that names a field next to that field, and the toast as well', async ({ app }) => {
    const { page } = app;
    // The answer of a server that names the field (src-shared ipcFailureSchema `field`), given at the page's
    // transport so this checks the form whatever the server's wording of the day.
    const failure = { ok: false, status: 400, errorMsg: 'Nom : 200 caractères au plus', field: 'name' };
    await page.route('**/__ipc/api*', async (route) => {
      const body = route.request().postDataJSON() as { payload?: { operation?: string } };
      if (body.payload?.operation === 'admin.accounts.create')
        await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(failure) });
      else await route.continue();
    });
    try {
      await page.getByTestId('admin-create').click();
      await page.getByTestId('account-name').fill('N'.repeat(201));
      await page.getByTestId('account-email').fill('long.nom@exemple.fr');
      await page.getByRole('button', { name: 'Ajouter' }).click();
      const message = page.getByTestId('account-name-error');
      await expect(message).toBeVisible();
      await expect(message).toHaveText(failure.errorMsg);
      const name = page.getByTestId('account-name');
      await expect(name).toHaveAttribute('aria-invalid', 'true');
      await expect(name).toHaveAttribute('aria-describedby', (await message.getAttribute('id'))!);
      await expect(page.getByTestId('account-email-error')).toHaveCount(0);
      await expect(page.locator('.Toastify__toast--error', { hasText: failure.errorMsg }).first()).toBeVisible();
      // Editing the field clears its message.
      await name.fill('Nom court');
      await expect(message).toHaveCount(0);
      await expect(name).not.toHaveAttribute('aria-invalid');
      await page.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await page.unroute('**/__ipc/api*');
    }
  });

  test('reloads the rows after a refused write, so the table matches the server', async ({ app }) => {
    const { page } = app;
    // Given ADMIN by someone else after the list loaded: the delete is refused, and the row then shows the truth.
    const creator = demoAccount('CONTENT_CREATOR').email;
    await changeAccountElsewhere(app, creator, ['CONTENT_CREATOR', 'ADMIN']);
    await row(page, creator).getByRole('button', { name: 'Delete' }).click();
    await row(page, creator).getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await expect(page.locator('.Toastify__toast--error', { hasText: MESSAGES.cannotDeleteAdmin })).toBeVisible();
    await expect(row(page, creator).locator('.multi-select-button')).toHaveText('2 rôles');
    await expect(row(page, creator).getByRole('button', { name: 'Delete' })).toHaveCount(0);

    // Deleted by someone else: a roles change is refused, and the row goes.
    const lead = demoAccount('CONTENT_CREATOR_LEAD').email;
    await changeAccountElsewhere(app, lead, null);
    await row(page, lead).locator('.multi-select-button').click();
    // click, not check: the refusal unticks the box at once, which check() would take for a failed click.
    await row(page, lead).locator('input[data-testid$="-SALES"]').click();
    await expect(page.locator('.Toastify__toast--error', { hasText: MESSAGES.accountNotFound })).toBeVisible();
    await expect(row(page, lead)).toHaveCount(0);
    await expect(page.getByTestId('admin-total')).toHaveText('5 comptes');
  });

  test('refreshes the session roles when admins change their own', async ({ app }) => {
    const { page } = app;
    const admin = row(page, demoAccount('ADMIN').email);
    await admin.locator('.multi-select-button').click();
    await admin.locator('input[data-testid$="-CSM_LEAD"]').check();
    await expect(admin.locator('.multi-select-button')).toHaveText('2 rôles');
    // In the app (the box ticks at once; the session follows once the server has answered and refreshed it)…
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-roles')).toContainText('ADMIN, CSM_LEAD');
    // …and in the stored session, which a reload reads.
    await page.reload();
    await expect(page.getByTestId('about-roles')).toContainText('ADMIN, CSM_LEAD');
  });

  test('runs the password reset from the login page to a new password, through the mailed link', async ({ app }) => {
    const { page, url } = app;
    const csm = demoAccount('CSM');
    await page.getByTestId('logout').click();
    await page.getByRole('button', { name: 'Oui' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByTestId('login-reset-switch').check();
    await page.getByTestId('login-username').fill(csm.email);
    await page.getByTestId('login-submit').click();
    await expect(page.locator('.Toastify__toast--success', { hasText: MESSAGES.resetAccepted })).toBeVisible();

    const link = (await lastMail(app, csm.email))!.match(/https?:\/\/\S+/)![0];
    expect(link.startsWith(`${url}/password/confirm?confirmationToken=`)).toBe(true);
    await page.goto(link);
    await page.getByTestId('confirm-password').fill('short');
    await page.getByTestId('confirm-submit').click();
    await expect(page.locator('.Toastify__toast--error', { hasText: MESSAGES.passwordTooShort })).toBeVisible();
    await page.getByTestId('confirm-password').fill('un nouveau mot de passe');
    await page.getByTestId('confirm-submit').click();
    await expect(page.locator('.Toastify__toast--success', { hasText: MESSAGES.passwordChanged })).toBeVisible();
    // Back to / after 1.2 s; anonymous, so the guard shows the login page.
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 5000 });
    await signInAs(page, url, csm.email, 'un nouveau mot de passe');
    expect(new URL(page.url()).pathname).toBe('/adverts');
  });

  test("says 'Invalid confirmation token' without a token, with a link back to sign-in", async ({ app }) => {
    await app.page.goto(`${app.url}/password/confirm`);
    await expect(app.page.getByTestId('confirm-error')).toHaveText(MESSAGES.invalidConfirmationToken);
    // With a refused token too, the page is no dead end.
    await app.page.goto(`${app.url}/password/confirm?confirmationToken=not-a-token`);
    await app.page.getByTestId('confirm-password').fill('un mot de passe correct');
    await app.page.getByTestId('confirm-submit').click();
    await expect(app.page.locator('.Toastify__toast--error').first()).toBeVisible();
    const back = app.page.getByTestId('back-to-login');
    await expect(back).toHaveText(MESSAGES.backToLogin);
    await expect(back).toHaveAttribute('href', '/login');
    // Still signed in as CSM from the reset test: /login then goes on to the first screen.
    await back.click();
    await app.page.waitForURL((u) => u.pathname === '/adverts');
  });

  test('sends the user to /login when the server ends the session', async ({ app }) => {
    const { page, url } = app;
    const sales = demoAccount('SALES');
    // Still signed in as CSM from the reset test: /login would go straight to the first screen.
    await page.goto(`${url}/`);
    await signOut(page);
    await signIn(page, url, 'SALES');
    // Someone resets the password elsewhere: every session of the account ends.
    const api = app.apiUrl;
    await fetch(`${api}/password/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: sales.email }),
    });
    const token = (await lastMail(app, sales.email))!.match(/confirmationToken=([\w-]+)/)![1];
    await fetch(`${api}/password/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ confirmationToken: token, password: 'changed somewhere else' }),
    });
    await page.goto(`${url}/about`);
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
  });
});

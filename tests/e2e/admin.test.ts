import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { demoAccount, lastMail, launchChromium, openWebApp, signIn, signInAs, type WebApp } from './fixtures';
import { changeAccountElsewhere, signOut } from './helpers';

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

const row = (email: string) => app.page.locator(`tr[data-email="${email}"]`);

describe('account administration (web host, Chromium)', () => {
  it('lists accounts, searches, creates, edits, sets roles and deletes', async () => {
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
    await page.getByTestId('admin-total').waitFor();
    expect(await page.getByTestId('admin-total').textContent()).toBe('Chargement…');
    expect(await page.locator('.table-empty').count()).toBe(0);
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 10_000 }).toBe(6);
    expect(await page.getByTestId('admin-total').textContent()).toBe('6 comptes');
    await page.unroute('**/__ipc/api*');

    // Search on name, nickname or e-mail.
    expect(await page.getByTestId('admin-search').getAttribute('placeholder')).toBe('Rechercher...');
    await page.getByTestId('admin-search').fill('sales@');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByTestId('admin-search').fill('');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(6);

    // Delete is hidden for accounts holding ADMIN; ADMIN cannot be removed from oneself.
    const admin = row(demoAccount('ADMIN').email);
    expect(await admin.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await admin.locator('.multi-select-button').click();
    expect(await admin.locator('input[data-testid$="-ADMIN"]').isDisabled()).toBe(true);
    await admin.locator('.multi-select-button').click();

    // Create.
    await page.getByTestId('admin-create').click();
    expect(await page.getByRole('dialog').locator('h2').textContent()).toBe('Ajouter un utilisateur');
    await page.getByTestId('account-name').fill('Inès Garnier');
    await page.getByTestId('account-nickname').fill('Inès');
    await page.getByTestId('account-email').fill('ines.garnier@exemple.fr');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await expect.poll(() => row('ines.garnier@exemple.fr').count()).toBe(1);
    // A long e-mail wraps inside its cell and stays left-aligned like the other cells.
    const emailLink = row('ines.garnier@exemple.fr').getByRole('button', { name: 'ines.garnier@exemple.fr' });
    expect(await emailLink.evaluate((node) => [getComputedStyle(node).textAlign, getComputedStyle(node).overflowWrap])).toEqual(['left', 'anywhere']);
    expect(await lastMail(app, 'ines.garnier@exemple.fr')).toContain('/password/confirm?confirmationToken=');

    // A duplicate e-mail: the store error as an error toast; the dialog stays open, nothing lost.
    await page.getByTestId('admin-create').click();
    await page.getByTestId('account-name').fill('Autre');
    await page.getByTestId('account-email').fill('INES.garnier@exemple.fr');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.locator('.Toastify__toast--error', { hasText: MESSAGES.emailAlreadyUsed }).waitFor();
    expect(await page.getByTestId('account-name').inputValue()).toBe('Autre');
    // Bad fields, checked for real (main checks the contract, the server would say the same): the French message
    // beside the field it names, and what was typed stays.
    await page.getByTestId('account-name').fill('N'.repeat(201));
    await page.getByTestId('account-email').fill('pas-un-email');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await expect.poll(() => page.getByTestId('account-name-error').textContent()).toBe('Nom : 200 caractères au plus');
    expect(await page.getByTestId('account-name').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('account-name').fill('Autre');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await expect.poll(() => page.getByTestId('account-email-error').textContent()).toBe('E-mail : adresse e-mail invalide');
    expect(await page.getByTestId('account-email').inputValue()).toBe('pas-un-email');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Edit through the username link; the uuid is read-only.
    await row('ines.garnier@exemple.fr').getByRole('button', { name: 'ines.garnier@exemple.fr' }).click();
    expect(await page.getByRole('dialog').locator('h2').textContent()).toBe("Modifier l'utilisateur");
    expect(await page.getByTestId('account-uuid').getAttribute('readonly')).not.toBeNull();
    await page.getByTestId('account-name').fill('Inès Garnier-Roy');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => row('ines.garnier@exemple.fr').locator('td').first().textContent()).toBe('Inès Garnier-Roy');

    // Roles: the multi-select shows the count.
    const ines = row('ines.garnier@exemple.fr');
    expect(await ines.locator('.multi-select-button').textContent()).toBe('Aucun rôle');
    await ines.locator('.multi-select-button').click();
    await ines.locator('input[data-testid$="-CSM"]').check();
    await expect.poll(() => ines.locator('.multi-select-button').textContent()).toBe('1 rôle');
    await ines.locator('input[data-testid$="-SALES"]').check();
    await expect.poll(() => ines.locator('.multi-select-button').textContent()).toBe('2 rôles');

    // Delete asks first.
    await page.keyboard.press('Escape');
    await page.locator('h1, .toolbar').first().click();
    await ines.getByRole('button', { name: 'Delete' }).click();
    const prompt = ines.getByRole('alertdialog');
    expect(await prompt.textContent()).toContain(MESSAGES.confirmDelete);
    // The prompt closes by itself after 5 s, and nothing is deleted.
    await prompt.waitFor({ state: 'detached', timeout: 7000 });
    expect(await ines.count()).toBe(1);
    await ines.getByRole('button', { name: 'Delete' }).click();
    await prompt.getByRole('button', { name: 'Oui' }).click();
    await expect.poll(() => row('ines.garnier@exemple.fr').count()).toBe(0);
    // The server agrees.
    await page.reload();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(6);
  });

  it('shows a failure that names a field next to that field, and the toast as well', async () => {
    const { page } = app;
    // The answer of a server that names the field (src-shared ipcFailureSchema `field`), given at the page's
    // transport so this checks the form whatever the server's wording of the day.
    const failure = { ok: false, status: 400, errorMsg: 'Nom : 200 caractères au plus', field: 'name' };
    await page.route('**/__ipc/api*', async (route) => {
      const body = route.request().postDataJSON() as { payload?: { operation?: string } };
      if (body.payload?.operation === 'admin.accounts.create') await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(failure) });
      else await route.continue();
    });
    try {
      await page.getByTestId('admin-create').click();
      await page.getByTestId('account-name').fill('N'.repeat(201));
      await page.getByTestId('account-email').fill('long.nom@exemple.fr');
      await page.getByRole('button', { name: 'Ajouter' }).click();
      const message = page.getByTestId('account-name-error');
      await message.waitFor();
      expect(await message.textContent()).toBe(failure.errorMsg);
      const name = page.getByTestId('account-name');
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await name.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
      expect(await page.getByTestId('account-email-error').count()).toBe(0);
      await page.locator('.Toastify__toast--error', { hasText: failure.errorMsg }).first().waitFor();
      // Editing the field clears its message.
      await name.fill('Nom court');
      expect(await message.count()).toBe(0);
      expect(await name.getAttribute('aria-invalid')).toBeNull();
      await page.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await page.unroute('**/__ipc/api*');
    }
  });

  it('reloads the rows after a refused write, so the table matches the server', async () => {
    const { page } = app;
    // Given ADMIN by someone else after the list loaded: the delete is refused, and the row then shows the truth.
    const creator = demoAccount('CONTENT_CREATOR').email;
    await changeAccountElsewhere(app, creator, ['CONTENT_CREATOR', 'ADMIN']);
    await row(creator).getByRole('button', { name: 'Delete' }).click();
    await row(creator).getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.locator('.Toastify__toast--error', { hasText: MESSAGES.cannotDeleteAdmin }).waitFor();
    await expect.poll(() => row(creator).locator('.multi-select-button').textContent()).toBe('2 rôles');
    expect(await row(creator).getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // Deleted by someone else: a roles change is refused, and the row goes.
    const lead = demoAccount('CONTENT_CREATOR_LEAD').email;
    await changeAccountElsewhere(app, lead, null);
    await row(lead).locator('.multi-select-button').click();
    // click, not check: the refusal unticks the box at once, which check() would take for a failed click.
    await row(lead).locator('input[data-testid$="-SALES"]').click();
    await page.locator('.Toastify__toast--error', { hasText: MESSAGES.accountNotFound }).waitFor();
    await expect.poll(() => row(lead).count()).toBe(0);
    expect(await page.getByTestId('admin-total').textContent()).toBe('5 comptes');
  });

  it('refreshes the session roles when admins change their own', async () => {
    const { page } = app;
    const admin = row(demoAccount('ADMIN').email);
    await admin.locator('.multi-select-button').click();
    await admin.locator('input[data-testid$="-CSM_LEAD"]').check();
    await expect.poll(() => admin.locator('.multi-select-button').textContent()).toBe('2 rôles');
    // In the app (the box ticks at once; the session follows once the server has answered and refreshed it)…
    await page.getByTestId('about-link').click();
    await expect.poll(() => page.getByTestId('about-roles').textContent()).toContain('ADMIN, CSM_LEAD');
    // …and in the stored session, which a reload reads.
    await page.reload();
    await expect.poll(() => page.getByTestId('about-roles').textContent()).toContain('ADMIN, CSM_LEAD');
  });

  it('runs the password reset from the login page to a new password, through the mailed link', async () => {
    const { page, url } = app;
    const csm = demoAccount('CSM');
    await page.getByTestId('logout').click();
    await page.getByRole('button', { name: 'Oui' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByTestId('login-reset-switch').check();
    await page.getByTestId('login-username').fill(csm.email);
    await page.getByTestId('login-submit').click();
    await page.locator('.Toastify__toast--success', { hasText: MESSAGES.resetAccepted }).waitFor();

    const link = (await lastMail(app, csm.email))!.match(/https?:\/\/\S+/)![0];
    expect(link.startsWith(`${url}/password/confirm?confirmationToken=`)).toBe(true);
    await page.goto(link);
    await page.getByTestId('confirm-password').fill('short');
    await page.getByTestId('confirm-submit').click();
    await page.locator('.Toastify__toast--error', { hasText: MESSAGES.passwordTooShort }).waitFor();
    await page.getByTestId('confirm-password').fill('un nouveau mot de passe');
    await page.getByTestId('confirm-submit').click();
    await page.locator('.Toastify__toast--success', { hasText: MESSAGES.passwordChanged }).waitFor();
    // Back to / after 1.2 s; anonymous, so the guard shows the login page.
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 5000 });
    await signInAs(page, url, csm.email, 'un nouveau mot de passe');
    expect(new URL(page.url()).pathname).toBe('/adverts');
  });

  it("says 'Invalid confirmation token' without a token, with a link back to sign-in", async () => {
    await app.page.goto(`${app.url}/password/confirm`);
    expect(await app.page.getByTestId('confirm-error').textContent()).toBe(MESSAGES.invalidConfirmationToken);
    // With a refused token too, the page is no dead end.
    await app.page.goto(`${app.url}/password/confirm?confirmationToken=not-a-token`);
    await app.page.getByTestId('confirm-password').fill('un mot de passe correct');
    await app.page.getByTestId('confirm-submit').click();
    await app.page.locator('.Toastify__toast--error').first().waitFor();
    const back = app.page.getByTestId('back-to-login');
    expect(await back.textContent()).toBe(MESSAGES.backToLogin);
    expect(await back.getAttribute('href')).toBe('/login');
    // Still signed in as CSM from the reset test: /login then goes on to the first screen.
    await back.click();
    await app.page.waitForURL((u) => u.pathname === '/adverts');
  });

  it('sends the user to /login when the server ends the session', async () => {
    const { page, url } = app;
    const sales = demoAccount('SALES');
    // Still signed in as CSM from the reset test: /login would go straight to the first screen.
    await page.goto(`${url}/`);
    await signOut(page);
    await signIn(page, url, 'SALES');
    // Someone resets the password elsewhere: every session of the account ends.
    const api = app.apiUrl;
    await fetch(`${api}/password/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: sales.email }) });
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

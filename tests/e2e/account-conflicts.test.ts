import { CONFLICT_MESSAGES as C } from '@shared/messages/conflicts';
import { demoAccount, expect, signIn, test } from './fixtures';
import { adminApi } from './population';

/**
 * Two administrators on one staff account (docs/architecture.md, "Versions and conflicts"): the other one saves
 * (through the API) while the dialog is open; the dialog's save is refused naming them, keeps what was typed,
 * takes their other change, and the user chooses for the field both changed.
 */
test('the account dialog keeps my values after a refused save and lets me choose per field', async ({ app }) => {
  const { page, url } = app;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, url, 'ADMIN');
  await page.goto(`${url}/admin`);
  const email = demoAccount('SALES').email;
  const row = page.locator(`tr[data-email="${email}"]`);
  await expect(row).toBeVisible();
  const api = await adminApi(app);
  const account = (await api('GET', `/admin/accounts?term=${encodeURIComponent(email)}`)).items[0];

  await row.getByRole('button', { name: email }).click();
  const dialog = page.getByTestId('account-dialog');
  await dialog.getByTestId('account-name').fill('Nom de la fenêtre');

  // Meanwhile the other administrator renames the account and changes its nickname.
  const other = await api('PUT', `/admin/accounts/${account.id}`, {
    name: 'Nom de l’autre',
    nickname: 'surnom-autre',
    username: email,
    version: account.version,
  });
  expect(other.version).toBe(account.version + 1);

  await dialog.getByTestId('account-dialog-submit').click();
  const panel = dialog.getByTestId('conflict-panel');
  await expect(panel.getByTestId('conflict-message')).toHaveText(/^Ce compte a été modifié par .+ à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/);
  await expect(dialog.getByTestId('account-name')).toHaveValue('Nom de la fenêtre');
  await expect(dialog.getByTestId('account-nickname')).toHaveValue('surnom-autre');
  await expect(panel.getByTestId('conflict-name').getByTestId('conflict-mine')).toHaveText('Nom de la fenêtre');
  await expect(panel.getByTestId('conflict-name').getByTestId('conflict-theirs')).toHaveText('Nom de l’autre');
  await page.screenshot({ path: test.info().outputPath('account-conflict-1366.png') });

  await panel.getByTestId('conflict-name').getByRole('button', { name: C.keepMine }).click();
  await dialog.getByTestId('account-dialog-submit').click();
  await expect(dialog).toHaveCount(0);
  const saved = (await api('GET', `/admin/accounts?term=${encodeURIComponent(email)}`)).items[0];
  expect(saved).toMatchObject({ name: 'Nom de la fenêtre', nickname: 'surnom-autre', version: account.version + 2 });
});

import type { Page } from '@playwright/test';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { createAudience } from './content-helpers';
import { demoAccount, expect, signIn, test } from './fixtures';

/**
 * The audience editor's name and type as staff walk them (docs/audiences.md): 'Sauvegarder' with no type, or with the
 * name emptied, is refused beside the field, with no 'Audience saved.' alongside and nothing renamed on the server.
 */
let audienceId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      audienceId = await createAudience(app, 'Cardiologues HTA', { expert: true, type: 'timeline' });
    },
  },
});

const toast = (page: Page, kind: 'success' | 'warning' | 'error', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

test('an audience is not saved with no type nor with its name emptied: said at the field, nothing replaced', async ({ app }) => {
  const { page, url } = app;
  await signIn(page, url, 'CSM_LEAD');
  await page.goto(`${url}/audiences/${audienceId}`);
  await expect(page.getByTestId('audience-editor')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('audience-name')).toHaveValue('Cardiologues HTA');

  // No type: the field says so, nothing is saved ('Audience saved.' never shows beside the error).
  await page.getByTestId('audience-type').selectOption('');
  await page.getByTestId('audience-save').click();
  await expect(page.getByTestId('audience-type-error')).toHaveText(AUDIENCE_MESSAGES.fieldRequired('Type'));
  await expect(page.getByTestId('audience-type')).toHaveAttribute('aria-invalid', 'true');
  await expect(toast(page, 'success', AUDIENCE_MESSAGES.audienceSaved)).toHaveCount(0);

  // The name emptied too: said at the name, which keeps what was typed (not the old name given back).
  await page.getByTestId('audience-name').fill('  ');
  await page.getByTestId('audience-save').click();
  await expect(page.getByTestId('audience-name-error')).toHaveText(AUDIENCE_MESSAGES.fieldRequired("Nom de l'audience"));
  await expect(page.getByTestId('audience-name')).toHaveValue('  ');
  await expect(toast(page, 'success', AUDIENCE_MESSAGES.audienceSaved)).toHaveCount(0);
  const stored = await (await fetch(`${app.apiUrl}/audiences?term=HTA`, { headers: await authOf(app.apiUrl) })).json();
  expect(stored.items.find((item: { id: number }) => item.id === audienceId)).toMatchObject({ name: 'Cardiologues HTA', type: 'timeline' });

  // Each error goes once its field is filled; then it saves.
  await page.getByTestId('audience-type').selectOption('story');
  await expect(page.getByTestId('audience-type-error')).toHaveCount(0);
  await page.getByTestId('audience-name').fill('Cardiologues HTA 2026');
  await expect(page.getByTestId('audience-name-error')).toHaveCount(0);
  await page.getByTestId('audience-save').click();
  await expect(toast(page, 'success', AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();
  await expect
    .poll(async () => {
      const listed = await (await fetch(`${app.apiUrl}/audiences?term=HTA`, { headers: await authOf(app.apiUrl) })).json();
      return listed.items.find((item: { id: number }) => item.id === audienceId)?.name;
    })
    .toBe('Cardiologues HTA 2026');
});

/** The demo CSM_LEAD's bearer header on the embedded API. */
async function authOf(apiUrl: string): Promise<Record<string, string>> {
  const { email, password } = demoAccount('CSM_LEAD');
  const response = await fetch(`${apiUrl}/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  return { authorization: `Bearer ${((await response.json()) as { accessToken: { value: string } }).accessToken.value}` };
}

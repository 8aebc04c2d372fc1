import type { Page } from '@playwright/test';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { expect, test } from './fixtures';
import { createAudience } from './content-helpers';

// Issue 38 item 9: a save that changes the audiences and a field is one call, applied in one transaction.
let audienceId = 0;
test.use({
  appOptions: {
    prepare: async (app) => {
      audienceId = await createAudience(app, 'E2E Un seul appel', { expert: true });
    },
  },
});

const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);

test('an advert save with a changed audience and a changed field is one adverts.update call', async ({ signedIn }) => {
  test.setTimeout(120_000);
  const page = await signedIn('CSM');
  await page.waitForURL((u) => u.pathname === '/adverts');
  await page.getByRole('link', { name: M.newPost }).click();
  await page.waitForURL((u) => u.pathname === '/adverts/edit/new');
  await field(page, 'name').fill('Une sauvegarde');
  await field(page, 'type').selectOption('post');
  await page.getByTestId('editor-save').click();
  await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname));
  await expect(page.locator('.Toastify__toast--success', { hasText: M.saved }).first()).toBeVisible();

  // Every write call from now on, with what it carried.
  const writes: { operation: string; payload: string }[] = [];
  page.on('request', (request) => {
    if (!request.url().includes('/__ipc/api')) return;
    const body = request.postDataJSON() as { payload?: { operation?: string } } | null;
    const operation = body?.payload?.operation ?? '';
    if (/^adverts\.(update|attach|create|updateProperty)$/.test(operation)) writes.push({ operation, payload: JSON.stringify(body?.payload) });
  });

  await page.getByTestId('audience-search').fill('E2E Un seul');
  await page.getByTestId('audience-results').getByRole('button', { name: 'E2E Un seul appel' }).click();
  await expect(page.getByTestId('attached-audiences').getByText('E2E Un seul appel')).toBeVisible();
  await field(page, 'name').fill('Une sauvegarde, un appel');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('editor-save')).toBeEnabled();
  await expect.poll(() => writes.map((write) => write.operation)).toEqual(['adverts.update']);
  expect(writes[0].payload).toContain(`"audienceIds":[${audienceId}]`);
  expect(writes[0].payload).toContain('Une sauvegarde, un appel');

  // Both are saved: read again from the server.
  await page.reload();
  await expect(field(page, 'name')).toHaveValue('Une sauvegarde, un appel');
  await expect(page.getByTestId('attached-audiences').getByText('E2E Un seul appel')).toBeVisible();
  expect(writes.map((write) => write.operation)).toEqual(['adverts.update']);
});

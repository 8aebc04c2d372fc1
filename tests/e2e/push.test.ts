import { PUSH_MESSAGES } from '@shared/messages/push';
import { expect, signIn, test } from './fixtures';
import { adminApi } from './population';

/** 5,500 French doctors with a push token: a campaign of 6 batches, about 9 s at the 1.8 s pace. */
const USERS = 5500;

test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      const call = await adminApi(app);
      await call(
        'POST',
        '/population/users',
        Array.from({ length: USERS }, (_, index) => ({
          externalId: `push-e2e-${index}`,
          area: 'french',
          professionId: 2,
          title: 'DOCTOR',
          os: index % 2 ? 'iOS' : 'Android',
          pushTokens: [{ platform: index % 2 ? 'iOS' : 'Android', token: `e2e-token-${index}` }],
        })),
      );
    },
  },
});

test.describe('push campaigns (web host, Chromium)', () => {
  test('CONTENT_CREATOR_LEAD counts, sends, follows the batches, reopens the page mid-campaign and finds it finished in the history', async ({
    app,
  }) => {
    test.setTimeout(180_000);
    const { page, url } = app;
    await signIn(page, url, 'CONTENT_CREATOR_LEAD');
    await page.getByRole('link', { name: PUSH_MESSAGES.menu }).click();
    await expect(page.getByRole('heading', { name: PUSH_MESSAGES.title })).toBeVisible();
    await expect(page.getByTestId('push-area')).toHaveValue('french');
    await expect(page.getByTestId('push-send')).toBeDisabled();

    // Field messages in French; a clause error names its place.
    await page.getByTestId('push-professions').selectOption({ label: 'Médecin' });
    await page.getByTestId('push-count').click();
    await expect(page.getByTestId('push-total')).toHaveText('5 500');
    await expect(page.getByTestId('push-iterations')).toHaveText('6');
    await expect(page.getByTestId('push-batch-size')).toHaveText('1 000');
    await expect(page.getByTestId('push-progress')).toHaveText('0 / 6');
    await page.getByTestId('push-send').click();
    await expect(page.getByTestId('push-title-error')).toHaveText(PUSH_MESSAGES.titleRequired);
    await expect(page.getByTestId('push-body-error')).toHaveText(PUSH_MESSAGES.bodyRequired);

    await page.getByTestId('push-title').fill('Nouvelles recommandations');
    await page.getByTestId('push-body').fill('La HAS publie ses recommandations sur le diabète.');
    await page.getByTestId('push-navigation').fill('https://example.org/has');
    await page.getByTestId('push-send').click();
    await expect(page.getByTestId('push-send')).toBeDisabled();
    await expect(page.getByTestId('push-progress')).toHaveText(/^[1-5] \/ 6$/, { timeout: 20_000 });

    // Closing the page does not stop the server's job; reopening shows the running campaign's progress.
    await page.goto(`${url}/adverts`);
    await page.goto(`${url}/push/create`);
    await expect(page.getByTestId('push-progress')).toHaveText(/^[2-6] \/ 6$/, { timeout: 20_000 });
    // Once every batch is out, the history says so and the offset returns to 0 (spec §4).
    const row = page.locator('[data-testid^="push-history-state-"]').first();
    await expect(row).toHaveText(PUSH_MESSAGES.stateDone, { timeout: 30_000 });
    await expect(page.getByTestId('push-progress')).toHaveText('0 / 6');
    await expect(page.getByTestId('push-send')).toBeDisabled();
    await page.locator('[data-testid^="push-history-open-"]').first().click();
    await expect(page.getByTestId('push-campaign-detail')).toContainText('Nouvelles recommandations');
    await expect(page.getByTestId('push-campaign-detail').locator('tbody tr')).toHaveCount(6);
  });
});

import { PUSH_MESSAGES } from '@shared/messages/push';
import { expect, signIn, test } from './fixtures';
import { lookAt } from './helpers';
import { adminApi } from './population';

/** 5,500 French doctors with a push token: a campaign of 6 batches, about 9 s at the 1.8 s pace. */
const USERS = 5500;
/** English pharmacists with a push token: more than the 10,000 above which Send asks first. */
const MANY = 10_500;

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
      // At most 10,000 users per call of the feed.
      for (let start = 0; start < MANY; start += 5000) {
        await call(
          'POST',
          '/population/users',
          Array.from({ length: Math.min(5000, MANY - start) }, (_, offset) => ({
            externalId: `push-e2e-en-${start + offset}`,
            area: 'english',
            professionId: 4,
            title: 'PROFESSIONAL',
            os: 'Android',
            pushTokens: [{ platform: 'Android', token: `e2e-en-token-${start + offset}` }],
          })),
        );
      }
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

    // Too long a text: by the field's label, at the field (the server says the same).
    await page.getByTestId('push-body').fill('x'.repeat(1001));
    await page.getByTestId('push-send').click();
    await expect(page.getByTestId('push-body-error')).toHaveText('Texte : 1000 caractères au plus');

    await page.getByTestId('push-title').fill('Nouvelles recommandations');
    await page.getByTestId('push-body').fill('La HAS publie ses recommandations sur le diabète.');
    // The link is opened by the app: a script, another protocol or free text is refused at the field, nothing sent.
    for (const wrong of ['javascript:alert(1)', 'ftp://x', 'voir le site de la HAS']) {
      await page.getByTestId('push-navigation').fill(wrong);
      await page.getByTestId('push-send').click();
      await expect(page.getByTestId('push-navigation-error')).toHaveText(PUSH_MESSAGES.navigationInvalid);
      await expect(page.getByTestId('push-progress')).toHaveText('0 / 6');
    }
    await lookAt(page, 'push-navigation-refused');
    await expect(page.locator('[data-testid^="push-history-state-"]')).toHaveCount(0);
    await page.getByTestId('push-navigation').fill('https://example.org/has');
    await expect(page.getByTestId('push-navigation-error')).toHaveCount(0);
    await page.getByTestId('push-send').click();
    // 5,500 users: no confirmation below 10,000.
    await expect(page.getByTestId('push-send')).toBeDisabled();
    await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
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
  test("fills the link with the deeplink generator's 'Utiliser', asks before sending to more than 10,000 users, and stops the campaign", async ({
    app,
  }) => {
    test.setTimeout(180_000);
    const { page, url } = app;
    await page.goto(`${url}/push/create`);
    await expect(page.getByRole('heading', { name: PUSH_MESSAGES.title })).toBeVisible();
    const history = page.locator('[data-testid^="push-history-row-"]');
    await expect(history).toHaveCount(1);

    // The advert editor's deeplink generator, its link taken by 'Utiliser'.
    await page.getByTestId('push-deeplink').click();
    const generator = page.getByTestId('deeplink-dialog');
    await expect(generator).toBeVisible();
    await generator.getByTestId('deeplink-target').selectOption('article');
    await generator.getByTestId('deeplink-id').fill('recommandations-2026');
    await generator.getByTestId('deeplink-create').click();
    const deeplink = await generator.getByTestId('deeplink-url-result').textContent();
    expect(deeplink).toContain('recommandations-2026');
    await generator.getByRole('button', { name: 'Utiliser' }).click();
    await expect(generator).toHaveCount(0);
    await expect(page.getByTestId('push-navigation')).toHaveValue(deeplink!);

    await page.getByTestId('push-title').fill('Nouveau traitement');
    await page.getByTestId('push-body').fill('Les nouvelles indications en pharmacie.');
    await page.getByTestId('push-area').selectOption('english');
    await page.getByTestId('push-count').click();
    await expect(page.getByTestId('push-total')).toHaveText('10 500');
    await expect(page.getByTestId('push-iterations')).toHaveText('11');

    // Above 10,000 users, Send asks first; 'Non' sends nothing.
    const question = PUSH_MESSAGES.confirmSend.replace('{count}', '10 500');
    await page.getByTestId('push-send').click();
    await expect(page.getByTestId('confirm-message')).toHaveText(question);
    await page.getByTestId('confirm-no').click();
    await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
    await expect(page.getByTestId('push-send')).toBeEnabled();
    await expect(page.getByTestId('push-progress')).toHaveText('0 / 11');
    await expect(history).toHaveCount(1);

    // 'Oui' sends; the campaign is then stopped before its last batches.
    await page.getByTestId('push-send').click();
    await expect(page.getByTestId('confirm-message')).toHaveText(question);
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('push-send')).toBeDisabled();
    await expect(history).toHaveCount(2);
    await expect(page.getByTestId('push-progress')).toHaveText(/^([0-9]|10) \/ 11$/);
    await page.getByTestId('push-cancel').click();
    const state = page.locator('[data-testid^="push-history-state-"]').first();
    await expect(state).toHaveText(PUSH_MESSAGES.stateCancelled);
    await expect(page.getByTestId('push-cancel')).toHaveCount(0);

    // The server kept the generated deeplink as the notification's navigation.
    await page.locator('[data-testid^="push-history-open-"]').first().click();
    const detail = page.getByTestId('push-campaign-detail');
    await expect(detail).toContainText('Nouveau traitement');
    await expect(detail).toContainText(deeplink!);
    await expect(page.getByTestId('push-detail-state')).toHaveText(PUSH_MESSAGES.stateCancelled);
  });
});

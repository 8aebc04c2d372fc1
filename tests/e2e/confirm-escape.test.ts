import { expect, signIn, test } from './fixtures';
import { csmApi } from './offline-helpers';

/** The inline delete prompt (ConfirmButton) closes on Escape, nothing deleted (issue 53 item 6). */

let advertId: number;

test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    fresh: true,
    prepare: async (app) => {
      const csm = await csmApi(app);
      advertId = (await csm.call('POST', '/advert/create', { advert: { name: 'À garder', type: 'post' } })).id;
    },
  },
});

test('Escape closes the inline delete prompt and deletes nothing', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto('/adverts');
  await page.getByTestId(`advert-delete-${advertId}`).click();
  const prompt = page.getByTestId(`advert-delete-${advertId}-prompt`);
  await expect(prompt).toBeVisible();
  await page.keyboard.press('Escape');
  // Before the prompt's own 5 s close: Escape closed it.
  await expect(prompt).toHaveCount(0, { timeout: 3_000 });
  await expect(page.getByTestId(`advert-delete-${advertId}`)).toBeVisible();
  const csm = await csmApi(app);
  expect((await csm.call('GET', `/v2/advert/${advertId}`)).name).toBe('À garder');
});

import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { createAudience } from './content-helpers';
import { expect, signIn, test } from './fixtures';
import { csmApi } from './offline-helpers';

/**
 * « Dépublier » never runs the checks for putting an advert online (adverts-articles.md §5, issue 53 item 3): with a
 * non-expert audience attached in the editor and not saved, unpublishing takes the advert offline, then saves the
 * audience on the offline advert.
 */

const complete = { logo: 'https://cdn.test/l.png', images: ['https://cdn.test/i.png'], author: 'Labo', source: 'https://labo.test', title: 'Titre' };
let advertId: number;

test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    fresh: true,
    prepare: async (app) => {
      const expert = await createAudience(app, 'E2E Experts dépublier', { expert: true });
      await createAudience(app, 'E2E Grand public dépublier', { expert: false });
      const csm = await csmApi(app);
      const advert = await csm.call('POST', '/advert/create', {
        advert: { name: 'Publicité à dépublier', type: 'post', ...complete },
        audienceIds: [expert],
      });
      advertId = advert.id;
      await csm.call('PUT', `/v2/advert/${advertId}/publish`, { publish: true, updateDates: false, version: advert.version });
    },
  },
});

test('Dépublier with an unsaved non-expert audience takes the advert offline and saves the audience', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto(`/adverts/edit/${advertId}`);
  await expect(page.getByTestId('publish-toggle')).toHaveText(M.unpublish);

  const name = 'E2E Grand public dépublier';
  await page.getByTestId('audience-search').fill(name);
  await page.getByTestId('audience-results').getByRole('button', { name }).click();
  await expect(page.getByTestId('attached-audiences').getByText(name)).toBeVisible();

  await page.getByTestId('publish-toggle').click();
  await expect(page.locator('.Toastify__toast--success', { hasText: M.contentOffline })).toBeVisible();
  await expect(page.locator('.Toastify__toast--error')).toHaveCount(0);
  await expect(page.getByTestId('publish-toggle')).toHaveText(M.publish);

  const csm = await csmApi(app);
  await expect
    .poll(async () => {
      const saved = await csm.call('GET', `/v2/advert/${advertId}`);
      return { published: saved.published, audiences: saved._$audiences.map((audience: { name: string }) => audience.name).sort() };
    })
    .toEqual({ published: false, audiences: ['E2E Experts dépublier', name] });
  await page.reload();
  await expect(page.getByTestId('publish-toggle')).toHaveText(M.publish);
  await expect(page.getByTestId('attached-audiences').getByText(name)).toBeVisible();
});

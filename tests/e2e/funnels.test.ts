import { expect, signIn, test } from './fixtures';
import { csmApi } from './offline-helpers';

/**
 * 'Funnels de campagne' in the advert editor (spec §2.2, §2.8): a CSM creates the advert's funnel, finds another
 * advert by a word of its name (the search box waits for a pause in typing, through the renderer's query kernel),
 * appends it, and is not offered the funnel's own adverts again.
 */
let startId: number;
let nextId: number;
let otherId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      const csm = await csmApi(app);
      startId = (await csm.call('POST', '/advert/create', { advert: { name: 'Funnel départ Aldébaran', type: 'post' } })).id;
      nextId = (await csm.call('POST', '/advert/create', { advert: { name: 'Funnel suite Zéphyrin', type: 'post' } })).id;
      otherId = (await csm.call('POST', '/advert/create', { advert: { name: 'Funnel hors série Véga', type: 'post' } })).id;
    },
  },
});

test('a CSM creates a funnel, finds an advert by a word of its name, appends it, and is not offered it again', async ({ app }) => {
  const { page, url } = app;
  await signIn(page, url, 'CSM');
  await page.goto(`${url}/adverts/edit/${startId}`);
  await page.getByTestId('section-funnels-toggle').click();
  await page.getByTestId('funnel-create').click();
  await expect(page.getByTestId('funnel')).toBeVisible();

  await page.getByTestId('funnel-search').pressSequentially('Zéphyr');
  await expect(page.getByTestId(`funnel-append-${nextId}`)).toHaveText(`#${nextId} Funnel suite Zéphyrin`);
  await page.getByTestId(`funnel-append-${nextId}`).click();
  await expect(page.getByTestId(`funnel-step-${nextId}`)).toBeVisible();
  await expect(page.getByTestId('funnel-search')).toHaveValue('');

  // A word of the three names offers only the advert not in the funnel yet.
  await page.getByTestId('funnel-search').fill('Funnel');
  await expect(page.getByTestId(`funnel-append-${otherId}`)).toBeVisible();
  await expect(page.locator('[data-testid^="funnel-append-"]')).toHaveCount(1);
});

import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { expect, signIn, test } from './fixtures';
import { csmApi } from './offline-helpers';
import { adminApi } from './population';

/**
 * A delete from the advert list sends the version the row was read with (docs/architecture.md, "Versions and
 * conflicts"): an advert renamed by someone else since the list was read is not deleted; the warning names who
 * changed it, the row stays and shows it as it is now, and a second delete, based on that, goes through.
 */
let advertId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      const csm = await csmApi(app);
      advertId = (await csm.call('POST', '/advert/create', { advert: { name: 'Liste conflit Orion', type: 'post' } })).id;
    },
  },
});

test('a stale delete from the list is refused with who changed the advert; the row stays, renamed, and a second delete goes', async ({ app }) => {
  const { page, url } = app;
  await signIn(page, url, 'CSM');
  await page.goto(`${url}/adverts`);
  // The list must hold the advert as it is before the rename: the search's own answer, not only the first page's.
  const searched = page.waitForResponse((response) => `${response.url()} ${response.request().postData() ?? ''}`.includes('conflit'));
  await page.getByTestId('adverts-search').fill('Liste conflit');
  await searched;
  const row = page.getByTestId(`advert-row-${advertId}`);
  await expect(row).toContainText('Liste conflit Orion');

  // Renamed elsewhere while the list is on screen.
  const admin = await adminApi(app);
  await admin('PUT', `/v2/advert/${advertId}/name`, { value: 'Liste conflit Orion renommée' });

  await page.getByTestId(`advert-delete-${advertId}`).click();
  await page.getByTestId(`advert-delete-${advertId}-prompt`).getByRole('button', { name: 'Oui' }).click();
  await expect(page.getByText(/^Cette publicité a été modifiée par .+ à \d{2}:\d{2} depuis que vous l'avez ouverte\.$/)).toBeVisible();
  await expect(row).toContainText('Liste conflit Orion renommée');
  expect((await admin('GET', `/v2/advert/${advertId}`)).name).toBe('Liste conflit Orion renommée');

  await page.getByTestId(`advert-delete-${advertId}`).click();
  await page.getByTestId(`advert-delete-${advertId}-prompt`).getByRole('button', { name: 'Oui' }).click();
  await expect(page.getByText(M.advertDeleted)).toBeVisible();
  await expect(row).toHaveCount(0);
});

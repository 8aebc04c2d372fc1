import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { expect, signIn, test } from './fixtures';
import { adminApi } from './population';

/**
 * An audience saved while the server does not answer (docs/architecture.md, "Versions and conflicts"): the banner
 * says so once, nothing typed is lost, and the save goes through in order when the server answers again.
 */

let audienceId: number;

test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      await api('POST', '/population/users', [{ externalId: 'offline-1', email: 'offline1@exemple.fr', professionId: 2, area: 'french', roles: [] }]);
      const doctor = (await api('GET', '/search?term=M%C3%A9decin&label=Profession&isGroup=true'))[0];
      const relationships = [{ node: { label: 'Profession', id: doctor.id } }];
      audienceId = (await api('POST', '/audience', { name: 'Audience hors ligne', type: 'timeline', area: 'french', relationships })).id;
    },
  },
});

test('an audience saved with no answer from the server shows the banner once and is saved when the server answers', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM_LEAD');
  await page.goto(`${app.url}/audiences/${audienceId}`);
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience hors ligne');

  // The server does not answer the audience's saves (as a cut network leaves them).
  const saves = '**/__ipc/api*';
  await page.route(saves, async (route) => {
    const operation = (route.request().postDataJSON() as { payload?: { operation?: string } }).payload?.operation ?? '';
    await (['audiences.update', 'audiences.setRelationships'].includes(operation) ? route.abort('connectionrefused') : route.fallback());
  });
  await page.getByTestId('audience-name').fill('Audience tapée hors ligne');
  await page.getByTestId('audience-save').click();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(M.offline);
  await expect(banner).toHaveCount(1);
  await expect(page.getByText(AUDIENCE_MESSAGES.audienceNotSaved)).toHaveCount(0);
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience tapée hors ligne');

  // The server answers again: the queued save goes through and the banner goes.
  await page.unroute(saves);
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  const api = await adminApi(app);
  await expect.poll(async () => (await api('GET', `/audience/${audienceId}`)).name).toBe('Audience tapée hors ligne');
});

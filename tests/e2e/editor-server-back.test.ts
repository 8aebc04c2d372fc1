import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { CONFLICT_MESSAGES as C } from '@shared/messages/conflicts';
import { expect, signIn, test } from './fixtures';
import { csmApi, killApi } from './offline-helpers';

/**
 * The advert editor once the server is back (issue 53 item 2): typed, the host stopped, Save: the banner says the
 * changes are kept; the host started again, the queued save is sent and said « Enregistré », the server holding it.
 */

let advertId: number;

test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    fresh: true,
    prepare: async (app) => {
      const csm = await csmApi(app);
      advertId = (await csm.call('POST', '/advert/create', { advert: { name: 'Avant la coupure', type: 'post' } })).id;
    },
  },
});

test('a save pressed while the host is stopped is sent once it is back, and said', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto(`/adverts/edit/${advertId}`);
  await expect(page.getByTestId('field-name')).toHaveValue('Avant la coupure');
  await page.getByTestId('field-name').fill('Tapé serveur arrêté');
  const restart = await killApi(app);
  await page.getByTestId('editor-save').click();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(C.offline);

  await restart();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('.Toastify__toast--success', { hasText: M.saved })).toBeVisible();
  const csm = await csmApi(app);
  expect((await csm.call('GET', `/v2/advert/${advertId}`)).name).toBe('Tapé serveur arrêté');
});

test('a session the server no longer knows once it is back leads to sign-in, the typed name kept', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto(`/adverts/edit/${advertId}`);
  await expect(page.getByTestId('field-name')).toHaveValue('Avant la coupure');
  await page.getByTestId('field-name').fill('Tapé avant la fin de session');
  // The sessions end with the server (every sign-in revoked): the restarted server knows none of them.
  const { sql } = await import('drizzle-orm');
  await app.host.embedded!.database.db.execute(sql`UPDATE refresh_tokens SET revoked_at = now()`);
  const restart = await killApi(app);
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('offline-banner')).toHaveText(C.offline);

  await restart();
  await page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
  await signIn(page, app.url, 'CSM');
  await page.goto(`/adverts/edit/${advertId}`);
  // The draft is kept: offered again on the advert (lib/local-drafts.ts), and resumed it holds what was typed.
  await page.getByTestId('draft-resume').click();
  await expect(page.getByTestId('field-name')).toHaveValue('Tapé avant la fin de session');
});

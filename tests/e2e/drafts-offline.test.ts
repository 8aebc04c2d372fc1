import type { Page } from '@playwright/test';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { ADVERT_SCREEN_NOTICES } from '@shared/messages/advert-screens';
import { expect, signIn, test } from './fixtures';
import { adminApi } from './population';
import { killApi } from './offline-helpers';

/**
 * Nothing typed is lost (docs/architecture.md, "Versions and conflicts"): a forced quit leaves a local draft that
 * the reopened advert offers back; a server killed during the typing and started again takes the save that waited.
 */

let advertId: number;

test.describe.configure({ mode: 'serial' });
test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      advertId = (await api('POST', '/advert/create', { advert: { name: 'Campagne de printemps', type: 'post', title: 'Titre de départ' } })).id;
    },
  },
});

async function openEditor(page: Page, url: string) {
  await page.goto(`${url}/adverts/edit/${advertId}`);
  await expect(page.getByTestId('field-name')).toHaveValue('Campagne de printemps');
}

const storedDrafts = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('backoffice.draft.')));

test('an advert reopened after a forced quit offers its draft back, and resuming it restores what was typed', async ({ app }) => {
  await signIn(app.page, app.url, 'CSM');
  await openEditor(app.page, app.url);
  await app.page.getByTestId('field-title').fill('Titre tapé avant la coupure');
  // Written once typing settles (DRAFT_WRITE_MS, within the spec's second), with the form's values only; the
  // wait is the suite's, since a loaded machine may take longer than the second to run it.
  await expect.poll(() => storedDrafts(app.page)).toHaveLength(1);

  // A forced quit: the tab goes without its beforeunload question, the session stays (same browser).
  const reopened = await app.context.newPage();
  await app.page.close();
  await openEditor(reopened, app.url);
  const offer = reopened.getByTestId('draft-offer');
  await expect(reopened.getByTestId('draft-resume')).toHaveText(/^Reprendre le brouillon du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/);
  await expect(offer.getByRole('button', { name: M.discardDraft })).toBeVisible();
  await expect(reopened.getByTestId('field-title')).toHaveValue('Titre de départ');
  await reopened.screenshot({ path: '/tmp/shots-conflicts/draft-offer-1366.png' });

  await reopened.getByTestId('draft-resume').click();
  await expect(offer).toHaveCount(0);
  await expect(reopened.getByTestId('field-title')).toHaveValue('Titre tapé avant la coupure');
  await reopened.getByTestId('editor-save').click();
  await expect(reopened.getByText(ADVERT_SCREEN_NOTICES.saved.text)).toBeVisible();
  // Saved: the draft is gone, and reopening offers nothing.
  await expect.poll(() => storedDrafts(reopened)).toHaveLength(0);
  await openEditor(reopened, app.url);
  await expect(reopened.getByTestId('field-title')).toHaveValue('Titre tapé avant la coupure');
  await expect(reopened.getByTestId('draft-offer')).toHaveCount(0);
  app.page = reopened;
});

test('a server killed during the typing and restarted loses nothing: the banner shows, then goes, and the save goes through', async ({ app }) => {
  const page = app.page;
  await openEditor(page, app.url);
  await page.getByTestId('field-name').fill('Campagne de printemps (revue)');
  const restart = await killApi(app);

  await page.getByTestId('field-title').fill('Titre tapé serveur arrêté');
  await page.getByTestId('editor-save').click();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(M.offline);
  // Said once, in the banner: no error toast beside it, and the header never says it was saved.
  await expect(page.getByText(ADVERT_SCREEN_NOTICES.saved.text)).toHaveCount(0);
  await expect.poll(() => storedDrafts(page)).toHaveLength(1);
  await page.screenshot({ path: '/tmp/shots-conflicts/offline-banner-1366.png' });
  // Still typing while the server is away: the retried save sends what is in the form then.
  await page.getByTestId('field-title').fill('Titre tapé serveur arrêté, suite');

  await restart();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  // On the server: what the user typed, both before and during the outage; the local draft is gone with the save.
  const api = await adminApi(app);
  const saved = JSON.stringify(await api('GET', `/v2/advert/${advertId}`));
  expect(saved).toContain('Titre tapé serveur arrêté, suite');
  expect(saved).toContain('Campagne de printemps (revue)');
  await expect.poll(() => storedDrafts(page)).toHaveLength(0);
  await expect(page.getByTestId('conflict-panel')).toHaveCount(0);
});

import type { Page } from '@playwright/test';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { AUDIENCE_MESSAGES, GROUP_MESSAGES } from '@shared/messages';
import { expect, signIn, test, type WebApp } from './fixtures';
import { adminApi } from './population';

/**
 * Nothing typed is lost in the other editors either (docs/architecture.md, "Versions and conflicts"): each keeps a
 * local draft while it differs from the saved record; a page killed mid-edit and opened again in the same storage
 * offers it back, flagged when the record changed since; resumed and saved, it meets the usual conflict, and once
 * saved the draft is gone.
 */

let audienceId: number;
let groupId: number;

test.describe.configure({ mode: 'serial' });
test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      // One doctor in the population, so the audience has a criterion to be saved with (spec §4).
      await api('POST', '/population/users', [{ externalId: 'draft-1', email: 'draft1@exemple.fr', professionId: 2, area: 'french', roles: [] }]);
      const doctor = (await api('GET', '/search?term=M%C3%A9decin&label=Profession&isGroup=true'))[0];
      const relationships = [{ node: { label: 'Profession', id: doctor.id } }];
      audienceId = (await api('POST', '/audience', { name: 'Audience de départ', type: 'timeline', area: 'french', relationships })).id;
      groupId = (await api('POST', '/v2/group', { name: 'Groupe de départ', label: 'OrGroup', relationships: [] })).id;
    },
  },
});

const storedDrafts = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('backoffice.draft.')));

/** Waits for the draft to be written (within a second of typing), then kills the page as a forced quit would. */
async function killMidEdit(app: WebApp): Promise<Page> {
  await expect.poll(() => storedDrafts(app.page), { timeout: 1_500 }).toHaveLength(1);
  const reopened = await app.context.newPage();
  await app.page.close();
  app.page = reopened;
  return reopened;
}

async function expectStaleOffer(page: Page) {
  await expect(page.getByTestId('draft-resume')).toHaveText(/^Reprendre le brouillon du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/);
  await expect(page.getByTestId('draft-offer').getByRole('button', { name: M.discardDraft })).toBeVisible();
  await expect(page.getByTestId('draft-offer-stale')).toHaveText(M.staleDraft);
}

test('the audience editor: a draft killed mid-edit comes back, stale once an admin changed the audience, and goes once saved', async ({ app }) => {
  await signIn(app.page, app.url, 'CSM_LEAD');
  const open = async (page: Page) => {
    await page.goto(`${app.url}/audiences/${audienceId}`);
    await expect(page.getByTestId('audience-editor')).toBeVisible();
  };
  await open(app.page);
  await app.page.getByTestId('audience-name').fill('Audience tapée avant la coupure');
  const page = await killMidEdit(app);

  // Meanwhile someone else puts the audience in the catalogue.
  const api = await adminApi(app);
  await api('PUT', `/audience/${audienceId}`, { isInCatalog: true });
  await open(page);
  await expectStaleOffer(page);
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience de départ');
  await page.getByTestId('draft-resume').click();
  await expect(page.getByTestId('draft-offer')).toHaveCount(0);
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience tapée avant la coupure');

  // Saved, the stale draft meets the conflict: my name stays, their catalogue flag comes in, nothing is lost.
  await page.getByTestId('audience-save').click();
  await expect(page.getByTestId('conflict-message')).toHaveText(
    /^Cette audience a été modifiée par Alice Admin à \d{2}:\d{2} depuis que vous l'avez ouverte\.$/,
  );
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience tapée avant la coupure');
  await expect(page.getByTestId('audience-catalog')).toBeChecked();
  await page.getByTestId('audience-save').click();
  await expect(page.getByText(AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();
  await expect.poll(() => storedDrafts(page)).toHaveLength(0);
  const saved = await api('GET', `/audience/${audienceId}`);
  expect([saved.name, saved.isInCatalog]).toEqual(['Audience tapée avant la coupure', true]);

  // Typed again and killed, the same version: offered without the stale line; discarded, it is gone.
  await page.getByTestId('audience-name').fill('Audience tapée une seconde fois');
  const again = await killMidEdit(app);
  await open(again);
  await expect(again.getByTestId('draft-resume')).toBeVisible();
  await expect(again.getByTestId('draft-offer-stale')).toHaveCount(0);
  await again.getByTestId('draft-discard').click();
  await expect(again.getByTestId('draft-offer')).toHaveCount(0);
  await expect(again.getByTestId('audience-name')).toHaveValue('Audience tapée avant la coupure');
  await expect.poll(() => storedDrafts(again)).toHaveLength(0);
});

test('the group editor: a draft killed mid-edit comes back, a stale one shows theirs beside mine, and saving clears it', async ({ app }) => {
  // Still signed in as CSM_LEAD (the file's tests share one browser storage).
  const open = async (page: Page, name: string) => {
    await page.goto(`${app.url}/group/OrGroup/${groupId}`);
    await expect(page.getByTestId('group-name')).toHaveValue(name);
  };
  await open(app.page, 'Groupe de départ');
  await app.page.getByTestId('group-name').fill('Groupe tapé avant la coupure');
  let page = await killMidEdit(app);

  // Reopened as it was: resumed and saved, the draft goes.
  await open(page, 'Groupe de départ');
  await expect(page.getByTestId('draft-resume')).toHaveText(/^Reprendre le brouillon du /);
  await expect(page.getByTestId('draft-offer-stale')).toHaveCount(0);
  await page.getByTestId('draft-resume').click();
  await expect(page.getByTestId('group-name')).toHaveValue('Groupe tapé avant la coupure');
  await page.getByTestId('group-save').click();
  await expect(page.getByText(GROUP_MESSAGES.groupSaved)).toBeVisible();
  await expect.poll(() => storedDrafts(page)).toHaveLength(0);

  // Killed again, and renamed elsewhere meanwhile: flagged stale, and its save shows theirs beside mine.
  await page.getByTestId('group-name').fill('Groupe tapé une seconde fois');
  page = await killMidEdit(app);
  const api = await adminApi(app);
  await api('PUT', `/v2/group/${groupId}`, { name: 'Groupe renommé ailleurs' });
  await open(page, 'Groupe renommé ailleurs');
  await expectStaleOffer(page);
  await page.getByTestId('draft-resume').click();
  await expect(page.getByTestId('group-name')).toHaveValue('Groupe tapé une seconde fois');
  await page.getByTestId('group-save').click();
  await expect(page.getByTestId('conflict-message')).toHaveText(
    /^Ce groupe a été modifié par Alice Admin à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/,
  );
  const row = page.getByTestId('conflict-name');
  await expect(row.getByTestId('conflict-mine')).toHaveText('Groupe tapé une seconde fois');
  await expect(row.getByTestId('conflict-theirs')).toHaveText('Groupe renommé ailleurs');
  await row.getByRole('button', { name: M.keepMine }).click();
  await page.getByTestId('group-save').click();
  await expect(page.getByText(GROUP_MESSAGES.groupSaved)).toBeVisible();
  await expect.poll(() => storedDrafts(page)).toHaveLength(0);
  expect((await api('GET', `/v2/group/OrGroup/${groupId}`)).name).toBe('Groupe tapé une seconde fois');
});

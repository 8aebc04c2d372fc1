import type { Browser, Page } from '@playwright/test';
import type { Role } from '@shared/roles';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { AUDIENCE_MESSAGES, GROUP_MESSAGES } from '@shared/messages';
import { PUSH_MESSAGES } from '@shared/messages/push';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { BAT_MESSAGES as B } from '@shared/messages/bat';
import { PNG } from '../fixtures/storage-files';
import { expect, signIn, test, type WebApp } from './fixtures';
import { adminApi } from './population';
import { csmApi } from './offline-helpers';
import { createPreviewAdvert, tokenOf } from './preview-fixtures';

/**
 * Nothing typed is lost in the other editors either (docs/architecture.md, "Versions and conflicts"): each keeps a
 * local draft while it differs from the saved record; a page killed mid-edit and opened again in the same storage
 * offers it back, flagged when the record changed since; resumed and saved, it meets the usual conflict, and once
 * saved the draft is gone.
 */

let audienceId: number;
let groupId: number;
let projectId: number;

test.describe.configure({ mode: 'serial' });
test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      // One doctor in the population, so the audience has a criterion to be saved with (spec §4).
      // With a push token, so a notification has someone to be sent to.
      const pushTokens = [{ platform: 'Android', token: 'draft-token-1' }];
      await api('POST', '/population/users', [
        { externalId: 'draft-1', email: 'draft1@exemple.fr', professionId: 2, area: 'french', roles: [], title: 'DOCTOR', os: 'Android', pushTokens },
      ]);
      const doctor = (await api('GET', '/search?term=M%C3%A9decin&label=Profession&isGroup=true'))[0];
      const relationships = [{ node: { label: 'Profession', id: doctor.id } }];
      audienceId = (await api('POST', '/audience', { name: 'Audience de départ', type: 'timeline', area: 'french', relationships })).id;
      groupId = (await api('POST', '/v2/group', { name: 'Groupe de départ', label: 'OrGroup', relationships: [] })).id;
      const csm = await csmApi(app);
      projectId = (
        await csm.call('POST', '/project', {
          name: 'Projet de départ',
          clientName: 'Client de départ',
          keyAccount: csm.userId,
          actor: 'Laboratoire',
          lines: 1,
        })
      ).id;
    },
  },
});

const storedDrafts = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('backoffice.draft.')));

/** Waits for the draft to be written (within a second of typing), then kills the page as a forced quit would. */
async function killMidEdit(app: WebApp): Promise<Page> {
  await expect.poll(() => storedDrafts(app.page)).toHaveLength(1);
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

/** Another account in its own browser storage (a kill keeps the storage: the next page opens in the same one). */
async function otherAccount(app: WebApp, browser: Browser, role: Role) {
  const context = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await signIn(page, app.url, role);
  return { context, page };
}

/** killMidEdit for a page of another context. */
async function killPage(page: Page, holding?: string): Promise<Page> {
  await expect.poll(() => storedDrafts(page)).toHaveLength(1);
  // The last change written too, when an earlier one left a draft already.
  if (holding)
    await expect
      .poll(() => page.evaluate(() => Object.entries(localStorage).find(([key]) => key.startsWith('backoffice.draft.'))?.[1] ?? ''))
      .toContain(holding);
  const reopened = await page.context().newPage();
  await page.close();
  return reopened;
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

test('the project header: a name typed and not saved comes back after a kill, a stale client meets the conflict, Enter clears it', async ({
  app,
}) => {
  const open = async (page: Page, name: string) => {
    await page.goto(`${app.url}/project/edit/${projectId}`);
    await expect(page.getByTestId('project-name')).toHaveValue(name);
  };
  await open(app.page, 'Projet de départ');
  await app.page.getByTestId('project-name').fill('Projet tapé avant la coupure');
  let page = await killMidEdit(app);

  await open(page, 'Projet de départ');
  await expect(page.getByTestId('draft-resume')).toHaveText(/^Reprendre le brouillon du /);
  await expect(page.getByTestId('draft-offer-stale')).toHaveCount(0);
  await page.getByTestId('draft-resume').click();
  await expect(page.getByTestId('project-name')).toHaveValue('Projet tapé avant la coupure');
  await page.getByTestId('project-name').press('Enter');
  await expect.poll(() => storedDrafts(page)).toHaveLength(0);
  const csm = await csmApi(app);
  expect((await csm.call('GET', `/project/${projectId}`)).name).toBe('Projet tapé avant la coupure');

  // The client typed, the page killed, and the project renamed elsewhere meanwhile.
  await page.getByTestId('project-clientName').fill('Client tapé avant la coupure');
  page = await killMidEdit(app);
  const { version } = await csm.call('GET', `/project/${projectId}`);
  await csm.call('PUT', '/project', { id: projectId, name: 'Projet renommé ailleurs', version });
  await open(page, 'Projet renommé ailleurs');
  await expectStaleOffer(page);
  await page.getByTestId('draft-resume').click();
  // Only what I had changed comes back: their new name stays.
  await expect(page.getByTestId('project-clientName')).toHaveValue('Client tapé avant la coupure');
  await expect(page.getByTestId('project-name')).toHaveValue('Projet renommé ailleurs');
  await page.getByTestId('project-clientName').press('Enter');
  await expect(page.getByText(/^Ce projet a été modifié par .+ à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/)).toBeVisible();
  await expect(page.getByTestId('project-clientName')).toHaveValue('Client tapé avant la coupure');
  await page.getByTestId('project-clientName').press('Enter');
  await expect.poll(async () => (await csm.call('GET', `/project/${projectId}`)).clientName).toBe('Client tapé avant la coupure');
  expect((await csm.call('GET', `/project/${projectId}`)).name).toBe('Projet renommé ailleurs');
  await expect.poll(() => storedDrafts(page)).toHaveLength(0);

  // The client typed again, killed, and changed elsewhere too: the draft is merged against the client it was typed
  // on, so theirs shows beside mine rather than mine silently replacing it.
  await page.getByTestId('project-clientName').fill('Client du brouillon');
  page = await killMidEdit(app);
  const current = await csm.call('GET', `/project/${projectId}`);
  await csm.call('PUT', '/project', { id: projectId, clientName: 'Client changé ailleurs', version: current.version });
  await open(page, 'Projet renommé ailleurs');
  await expectStaleOffer(page);
  await page.getByTestId('draft-resume').click();
  await expect(page.getByTestId('project-clientName')).toHaveValue('Client du brouillon');
  await page.getByTestId('project-clientName').press('Enter');
  const row = page.getByTestId('conflict-panel').getByTestId('conflict-clientName');
  await expect(row.getByTestId('conflict-mine')).toHaveText('Client du brouillon');
  await expect(row.getByTestId('conflict-theirs')).toHaveText('Client changé ailleurs');
  await expect(page.getByTestId('project-clientName')).toHaveValue('Client du brouillon');
  expect((await csm.call('GET', `/project/${projectId}`)).clientName).toBe('Client changé ailleurs');
});

test('the push composer: a notification typed and not sent comes back after a kill, and sending it clears the draft', async ({ app, browser }) => {
  const lead = await otherAccount(app, browser, 'CONTENT_CREATOR_LEAD');
  try {
    const open = async (page: Page) => {
      await page.goto(`${app.url}/push/create`);
      await expect(page.getByRole('heading', { name: PUSH_MESSAGES.title })).toBeVisible();
    };
    await open(lead.page);
    await lead.page.getByTestId('push-title').fill('Titre tapé avant la coupure');
    await lead.page.getByTestId('push-professions').selectOption({ label: 'Médecin' });
    await lead.page.getByTestId('push-body').fill('Texte tapé avant la coupure');
    // Killed once the draft holds the last change (each write holds the whole form).
    const page = await killPage(lead.page, 'Texte tapé avant la coupure');

    await open(page);
    await expect(page.getByTestId('push-title')).toHaveValue('');
    await expect(page.getByTestId('draft-resume')).toHaveText(/^Reprendre le brouillon du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/);
    // A notification has no version: its draft is never stale.
    await expect(page.getByTestId('draft-offer-stale')).toHaveCount(0);
    await page.getByTestId('draft-resume').click();
    await expect(page.getByTestId('push-title')).toHaveValue('Titre tapé avant la coupure');
    await expect(page.getByTestId('push-body')).toHaveValue('Texte tapé avant la coupure');
    await page.getByTestId('push-navigation').fill('https://example.org/brouillon');
    await page.getByTestId('push-count').click();
    await expect(page.getByTestId('push-total')).toHaveText('1');
    await page.getByTestId('push-send').click();
    await expect.poll(() => storedDrafts(page)).toHaveLength(0);
    await open(page);
    await expect(page.getByTestId('push-area')).toHaveValue('french');
    await expect(page.getByTestId('draft-offer')).toHaveCount(0);
  } finally {
    await lead.context.close();
  }
});

/** Appends `words` at the end of the proof's `index`-th text. */
async function typeInto(page: Page, index: number, words: string) {
  await page.getByTestId('bat-text-editable').nth(index).click();
  await page.keyboard.press('End');
  await page.keyboard.type(words);
}

const waitSaved = async (page: Page) => {
  await expect(page.getByTestId('bat-save-state')).toHaveAttribute('data-saving', 'false', { timeout: 15_000 });
  await expect(page.getByTestId('bat-save-state')).toHaveText(B.saved);
};

test('the BAT editor: a text refused as stale and the window killed comes back, merged onto their proof, and saved', async ({ app, browser }) => {
  const token = await tokenOf(app, 'CSM');
  const advertId = await createPreviewAdvert(app, token, 'post');
  const form = new FormData();
  form.append('advertId', String(advertId));
  form.append('file0', new Blob([new Uint8Array(PNG)]), 'capture.png');
  const uploaded = await fetch(`${app.apiUrl}/bat/screenshot/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(uploaded.status).toBe(200);
  const proof = `${app.url}/advert/bat/${advertId}`;

  const csm = await otherAccount(app, browser, 'CSM');
  const lead = await otherAccount(app, browser, 'CSM_LEAD');
  try {
    await csm.page.goto(proof);
    await csm.page.getByTestId('bat-add-text').click();
    await typeInto(csm.page, 0, 'Accroche');
    await waitSaved(csm.page);
    await csm.page.getByTestId('bat-add-text').click();
    await typeInto(csm.page, 1, 'Prix');
    await waitSaved(csm.page);

    // The CSM_LEAD opens the proof; the CSM then changes the first text.
    await lead.page.goto(proof);
    await expect(lead.page.getByTestId('bat-text-editable')).toHaveText(['Accroche', 'Prix']);
    await typeInto(csm.page, 0, ' du CSM');
    await waitSaved(csm.page);

    // The lead's save is refused: the draft keeps both texts; the window is killed.
    await typeInto(lead.page, 0, ' du lead');
    await typeInto(lead.page, 1, ' : 10 €');
    await expect(lead.page.getByTestId('bat-stale')).toBeVisible();
    // The stale line may show after the first text already: the second one must be in the draft too.
    const page = await killPage(lead.page, ': 10 €');

    await page.goto(proof);
    await expect(page.getByTestId('bat-text-editable')).toHaveText(['Accroche du CSM', 'Prix']);
    await expectStaleOffer(page);
    await page.getByTestId('draft-resume').click();
    // Merged onto their proof: the text only I changed is mine, the one we both changed is to decide.
    const panel = page.getByTestId('conflict-panel');
    await expect(panel.getByTestId('conflict-mine')).toHaveText(['Accroche du lead']);
    await expect(panel.getByTestId('conflict-theirs')).toHaveText(['Accroche du CSM']);
    await expect(page.getByTestId('bat-text-editable')).toHaveText(['Accroche du lead', 'Prix : 10 €']);
    await panel.getByRole('button', { name: M.keepMine }).click();
    await waitSaved(page);
    await expect.poll(() => storedDrafts(page)).toHaveLength(0);

    await csm.page.reload();
    await expect(csm.page.getByTestId('bat-text-editable')).toHaveText(['Accroche du lead', 'Prix : 10 €']);
  } finally {
    await csm.context.close();
    await lead.context.close();
  }
});

test('lab tags: a tag edited and not saved comes back after a kill, stale once the project was saved elsewhere, and Save clears it', async ({
  app,
  browser,
}) => {
  const sales = await otherAccount(app, browser, 'SALES');
  try {
    const lines = ['NAME;SURNAME;GENDER;CRIT_01;CRIT_02'];
    for (let i = 0; i < 30; i += 1) lines.push(`Nom${i};Prénom${i};${i % 2 ? 'M' : 'F'};${i % 3 === 0 ? 'fort' : 'faible'};IDF`);
    await sales.page.goto(`${app.url}/alphonse`);
    await sales.page.getByTestId('lab-new').click();
    await sales.page.getByTestId('lab-new-name').fill('Panel brouillon');
    const [chooser] = await Promise.all([sales.page.waitForEvent('filechooser'), sales.page.getByTestId('lab-new-create').click()]);
    await chooser.setFiles({ name: 'panel.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
    await sales.page.getByRole('link', { name: 'Panel brouillon' }).click();
    await expect(sales.page.getByTestId('lab-project-name')).toHaveText('Panel brouillon');
    const projectUrl = sales.page.url();

    await sales.page.getByTestId('lab-add-tag-Bon Usage').click();
    const dialog = sales.page.getByTestId('lab-tag-dialog');
    await dialog.getByTestId('lab-tag-name').fill('Forts prescripteurs');
    await dialog.getByTestId('lab-tag-query').fill("CRIT_01 = 'fort'");
    await expect(dialog.getByTestId('lab-tag-live-count')).toHaveText(LAB_MESSAGES.countLabel(10));
    await dialog.getByTestId('lab-tag-apply').click();
    await expect(dialog).not.toBeAttached();
    // Applied to the page, not saved: the window is killed.
    const page = await killPage(sales.page, 'Forts prescripteurs');

    await page.goto(projectUrl);
    await expect(page.getByTestId('lab-project-name')).toHaveText('Panel brouillon');
    await expect(page.getByTestId('lab-tag-row-Forts prescripteurs')).toHaveCount(0);
    await expect(page.getByTestId('draft-resume')).toHaveText(/^Reprendre le brouillon du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/);
    await expect(page.getByTestId('draft-offer-stale')).toHaveCount(0);
    await page.getByTestId('draft-resume').click();
    await expect(page.getByTestId('lab-tag-row-Forts prescripteurs')).toBeVisible();
    await page.getByTestId('lab-save').click();
    await expect(page.getByTestId('lab-tag-row-Forts prescripteurs').getByTestId('lab-tag-count')).toHaveText('10');
    await expect.poll(() => storedDrafts(page)).toHaveLength(0);
    await page.reload();
    await expect(page.getByTestId('lab-tag-row-Forts prescripteurs')).toBeVisible();
    await expect(page.getByTestId('draft-offer')).toHaveCount(0);

    // Renamed and not saved, the window killed, and the project saved elsewhere meanwhile: flagged stale.
    await page.getByTestId('lab-tag-row-Forts prescripteurs').getByTestId('lab-tag-edit').click();
    await page.getByTestId('lab-tag-dialog').getByTestId('lab-tag-name').fill('Très forts prescripteurs');
    await page.getByTestId('lab-tag-dialog').getByTestId('lab-tag-apply').click();
    const again = await killPage(page, 'Très forts prescripteurs');
    const api = await adminApi(app);
    const projectId = Number(new URL(projectUrl).pathname.split('/').at(-1));
    const current = await api('GET', `/alphonse/project/${projectId}`);
    await api('PUT', `/alphonse/project/${projectId}`, { name: 'Panel brouillon (revu)', version: current.version });
    await again.goto(projectUrl);
    await expect(again.getByTestId('lab-project-name')).toHaveText('Panel brouillon (revu)');
    await expectStaleOffer(again);
    await again.getByTestId('draft-resume').click();
    await expect(again.getByTestId('lab-tag-row-Très forts prescripteurs')).toBeVisible();
    // Saved on the version it was typed on: refused with who changed the project; my tag stays on the page.
    await again.getByTestId('lab-save').click();
    await expect(again.getByText(/^Ce projet a été modifié par Alice Admin à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/)).toBeVisible();
    await expect(again.getByTestId('lab-tag-row-Très forts prescripteurs')).toBeVisible();
    await again.getByTestId('lab-save').click();
    await expect(again.getByText(LAB_MESSAGES.projectSaved)).toBeVisible();
    await expect.poll(() => storedDrafts(again)).toHaveLength(0);
    const saved = await api('GET', `/alphonse/project/${projectId}`);
    expect([saved.name, saved.tags.map((tag: { name: string }) => tag.name)]).toEqual(['Panel brouillon (revu)', ['Très forts prescripteurs']]);
  } finally {
    await sales.context.close();
  }
});

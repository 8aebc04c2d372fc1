import type { Page } from '@playwright/test';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { ADVERT_SCREEN_NOTICES } from '@shared/messages/advert-screens';
import { AUDIENCE_MESSAGES, GROUP_MESSAGES } from '@shared/messages';
import { expect, signIn, test } from './fixtures';
import { adminApi } from './population';

/**
 * Two people on one advert (docs/architecture.md, "Versions and conflicts"), each in their own browser context
 * and account, as a CSM and a CSM_LEAD would be: neither loses what they typed.
 */

let advertId: number;
let audienceId: number;
let groupId: number;

test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      advertId = (await api('POST', '/advert/create', { advert: { name: 'Campagne partagée', type: 'post', title: 'Titre de départ' } })).id;
      // One doctor in the population, so the audience has a criterion to be saved with (spec §4).
      await api('POST', '/population/users', [
        { externalId: 'conflict-1', email: 'conflict1@exemple.fr', professionId: 2, area: 'french', roles: [] },
      ]);
      const doctor = (await api('GET', '/search?term=M%C3%A9decin&label=Profession&isGroup=true'))[0];
      const relationships = [{ node: { label: 'Profession', id: doctor.id } }];
      audienceId = (await api('POST', '/audience', { name: 'Audience partagée', type: 'timeline', area: 'french', relationships })).id;
      groupId = (await api('POST', '/v2/group', { name: 'Groupe partagé', label: 'OrGroup', relationships: [] })).id;
    },
  },
});

async function openEditor(page: Page, url: string) {
  await page.goto(`${url}/adverts/edit/${advertId}`);
  await expect(page.getByTestId('field-name')).toHaveValue(/Campagne partagée|Nom du CSM/);
}

test('a save based on an older version shows who changed the advert, keeps my values and lets me choose per field', async ({ app, browser }) => {
  const csm = app.page;
  await csm.setViewportSize({ width: 1366, height: 768 });
  await signIn(csm, app.url, 'CSM');
  const leadContext = await browser.newContext({
    baseURL: app.url,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1366, height: 768 },
  });
  const lead = await leadContext.newPage();
  try {
    await signIn(lead, app.url, 'CSM_LEAD');
    await openEditor(csm, app.url);
    await openEditor(lead, app.url);

    // The CSM renames and saves first.
    await csm.getByTestId('field-name').fill('Nom du CSM');
    await csm.getByTestId('editor-save').click();
    await expect(csm.getByText(ADVERT_SCREEN_NOTICES.saved.text)).toBeVisible();

    // The lead, on the version opened before, changes the name too and the title: the save is refused.
    await lead.getByTestId('field-name').fill('Nom du lead');
    await lead.getByTestId('field-title').fill('Titre du lead');
    await lead.getByTestId('editor-save').click();
    const panel = lead.getByTestId('conflict-panel');
    await expect(panel).toBeVisible();
    await expect(lead.getByTestId('conflict-message')).toHaveText(
      /^Cette publicité a été modifiée par Camille Martin à \d{2}:\d{2} depuis que vous l'avez ouverte\.$/,
    );
    await expect(lead.getByText(ADVERT_SCREEN_NOTICES.saved.text)).toHaveCount(0);
    // Nothing typed is lost: both of the lead's values are still in the form.
    await expect(lead.getByTestId('field-name')).toHaveValue('Nom du lead');
    await expect(lead.getByTestId('field-title')).toHaveValue('Titre du lead');
    // Only the name was changed by both: it is the one field to decide, theirs beside mine.
    const row = lead.getByTestId('conflict-name');
    await expect(row.getByTestId('conflict-mine')).toHaveText('Nom du lead');
    await expect(row.getByTestId('conflict-theirs')).toHaveText('Nom du CSM');
    await expect(panel.getByRole('row')).toHaveCount(2);
    await lead.screenshot({ path: test.info().outputPath('conflict-1366.png') });

    await row.getByRole('button', { name: M.takeTheirs }).click();
    await expect(lead.getByTestId('field-name')).toHaveValue('Nom du CSM');
    await lead.getByTestId('editor-save').click();
    await expect(lead.getByText(ADVERT_SCREEN_NOTICES.saved.text)).toBeVisible();
    await expect(panel).toHaveCount(0);

    // Both changes are on the server: the CSM's name and the lead's title.
    await csm.reload();
    await expect(csm.getByTestId('field-name')).toHaveValue('Nom du CSM');
    await expect(csm.getByTestId('field-title')).toHaveValue('Titre du lead');
  } finally {
    await leadContext.close();
  }
});

test('a field only the other person changed comes into my form, mine stays, and my next save keeps both', async ({ app, browser }) => {
  const csm = app.page;
  await openEditor(csm, app.url);
  const leadContext = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const lead = await leadContext.newPage();
  try {
    await signIn(lead, app.url, 'CSM_LEAD');
    await openEditor(lead, app.url);
    await lead.getByTestId('field-title').fill('Titre changé par le lead');
    await lead.getByTestId('editor-save').click();
    await expect(lead.getByText(ADVERT_SCREEN_NOTICES.saved.text)).toBeVisible();

    await csm.getByTestId('field-name').fill('Nom final du CSM');
    await csm.getByTestId('editor-save').click();
    await expect(csm.getByTestId('conflict-panel')).toBeVisible();
    // Nothing to decide: the lead's title came into the form, the CSM's name stayed.
    await expect(csm.getByTestId('conflict-panel').getByRole('table')).toHaveCount(0);
    await expect(csm.getByTestId('field-title')).toHaveValue('Titre changé par le lead');
    await expect(csm.getByTestId('field-name')).toHaveValue('Nom final du CSM');
    await csm.getByTestId('editor-save').click();
    await expect(csm.getByTestId('conflict-panel')).toHaveCount(0);

    await lead.reload();
    await expect(lead.getByTestId('field-name')).toHaveValue('Nom final du CSM');
    await expect(lead.getByTestId('field-title')).toHaveValue('Titre changé par le lead');
  } finally {
    await leadContext.close();
  }
});

/** A second person, in their own browser context, signed in as `role`. */
async function secondPerson(browser: import('@playwright/test').Browser, url: string, role: 'ADMIN' | 'CSM_LEAD') {
  const context = await browser.newContext({ baseURL: url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  await signIn(page, url, role);
  return { context, page };
}

test('two people on one audience: the second save names the first, keeps my name, and saves once I chose', async ({ app, browser }) => {
  const adminContext = await secondPerson(browser, app.url, 'ADMIN');
  const admin = adminContext.page;
  const lead = await secondPerson(browser, app.url, 'CSM_LEAD');
  try {
    for (const page of [admin, lead.page]) {
      await page.goto(`${app.url}/audiences/${audienceId}`);
      await expect(page.getByTestId('audience-name')).toHaveValue('Audience partagée');
    }
    await lead.page.getByTestId('audience-name').fill('Audience du lead');
    await lead.page.getByTestId('audience-save').click();
    await expect(lead.page.getByText(AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();

    await admin.getByTestId('audience-name').fill("Audience de l'admin");
    await admin.getByTestId('audience-save').click();
    await expect(admin.getByTestId('conflict-message')).toHaveText(
      /^Cette audience a été modifiée par Claire Durand à \d{2}:\d{2} depuis que vous l'avez ouverte\.$/,
    );
    await expect(admin.getByTestId('audience-name')).toHaveValue("Audience de l'admin");
    const row = admin.getByTestId('conflict-name');
    await expect(row.getByTestId('conflict-theirs')).toHaveText('Audience du lead');
    await row.getByRole('button', { name: M.keepMine }).click();
    await admin.getByTestId('audience-save').click();
    await expect(admin.getByText(AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();
    await expect(admin.getByTestId('conflict-panel')).toHaveCount(0);
    await lead.page.reload();
    await expect(lead.page.getByTestId('audience-name')).toHaveValue("Audience de l'admin");
  } finally {
    await lead.context.close();
    await adminContext.context.close();
  }
});

test('two people on one group: the second save is refused with the first person named, nothing typed is lost', async ({ app, browser }) => {
  const adminContext = await secondPerson(browser, app.url, 'ADMIN');
  const admin = adminContext.page;
  const other = await secondPerson(browser, app.url, 'ADMIN');
  try {
    for (const page of [admin, other.page]) {
      await page.goto(`${app.url}/group/OrGroup/${groupId}`);
      await expect(page.getByTestId('group-name')).toHaveValue('Groupe partagé');
    }
    await other.page.getByTestId('group-name').fill('Groupe renommé ailleurs');
    await other.page.getByTestId('group-save').click();
    await expect(other.page.getByText(GROUP_MESSAGES.groupSaved)).toBeVisible();

    await admin.getByTestId('group-name').fill('Groupe renommé ici');
    await admin.getByTestId('group-save').click();
    await expect(admin.getByTestId('conflict-message')).toHaveText(
      /^Ce groupe a été modifié par Alice Admin à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/,
    );
    await expect(admin.getByTestId('group-name')).toHaveValue('Groupe renommé ici');
    await admin.getByTestId('conflict-name').getByRole('button', { name: M.takeTheirs }).click();
    await expect(admin.getByTestId('group-name')).toHaveValue('Groupe renommé ailleurs');
    await admin.getByTestId('group-save').click();
    await expect(admin.getByText(GROUP_MESSAGES.groupSaved)).toBeVisible();
    await expect(admin.getByTestId('conflict-panel')).toHaveCount(0);
  } finally {
    await other.context.close();
    await adminContext.context.close();
  }
});

import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { GROUP_MESSAGES } from '@shared/messages';
import { expect, signIn, test } from './fixtures';
import { signOut } from './helpers';
import { csmApi, killApi } from './offline-helpers';
import { adminApi } from './population';

/**
 * The group editor and the project header lose nothing either (docs/architecture.md, "Versions and conflicts"): a
 * save the server does not answer waits (the banner says so once), goes through with the latest typing once the
 * server is back on the same data; a project header saved on an older version shows theirs beside yours.
 */

let groupId: number;
let projectId: number;

test.describe.configure({ mode: 'serial' });
test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      groupId = (await api('POST', '/v2/group', { name: 'Groupe de départ', label: 'OrGroup', relationships: [] })).id;
      const csm = await csmApi(app);
      const project = { name: 'Projet de départ', clientName: 'Client de départ', keyAccount: csm.userId, actor: 'Laboratoire', lines: 1 };
      projectId = (await csm.call('POST', '/project', project)).id;
    },
  },
});

test('a group saved while the server is stopped waits, then goes through with the latest typing', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'ADMIN');
  await page.goto(`${app.url}/group/OrGroup/${groupId}`);
  await expect(page.getByTestId('group-name')).toHaveValue('Groupe de départ');
  const restart = await killApi(app);

  await page.getByTestId('group-name').fill('Groupe tapé serveur arrêté');
  await page.getByTestId('group-save').click();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(M.offline);
  await expect(banner).toHaveCount(1);
  // Said once, in the banner: no error beside it, and never that it was saved.
  await expect(page.getByRole('alert').filter({ hasNotText: M.offline })).toHaveCount(0);
  await expect(page.getByText(GROUP_MESSAGES.groupSaved)).toHaveCount(0);
  await page.getByTestId('group-name').fill('Groupe tapé serveur arrêté, suite');

  await restart();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText(GROUP_MESSAGES.groupSaved)).toBeVisible();
  const api = await adminApi(app);
  expect((await api('GET', `/v2/group/OrGroup/${groupId}`)).name).toBe('Groupe tapé serveur arrêté, suite');
  await page.reload();
  await expect(page.getByTestId('group-name')).toHaveValue('Groupe tapé serveur arrêté, suite');
});

test('a project name saved while the server is stopped waits, then goes through with the latest typing', async ({ app }) => {
  const page = app.page;
  // The file's page is still the administrator's (the group test): projects are written by CSMs.
  await signOut(page);
  await signIn(page, app.url, 'CSM');
  await page.goto(`${app.url}/project/edit/${projectId}`);
  await expect(page.getByTestId('project-name')).toHaveValue('Projet de départ');
  const restart = await killApi(app);

  await page.getByTestId('project-name').fill('Projet tapé serveur arrêté');
  await page.getByTestId('project-name').press('Enter');
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(M.offline);
  await expect(banner).toHaveCount(1);
  await expect(page.getByRole('alert').filter({ hasNotText: M.offline })).toHaveCount(0);
  await page.getByTestId('project-name').fill('Projet tapé serveur arrêté, suite');

  await restart();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  const csm = await csmApi(app);
  expect((await csm.call('GET', `/project/${projectId}`)).name).toBe('Projet tapé serveur arrêté, suite');
  await page.reload();
  await expect(page.getByTestId('project-name')).toHaveValue('Projet tapé serveur arrêté, suite');
});

test('two people on one project header: theirs beside mine, their other field taken, neither side lost', async ({ app, browser }) => {
  // Still the CSM of the previous test; the other person is the CSM lead (administrators do not write projects).
  const mine = app.page;
  const context = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1366, height: 768 } });
  try {
    const theirs = await context.newPage();
    await signIn(theirs, app.url, 'CSM_LEAD');
    for (const page of [mine, theirs]) {
      await page.goto(`${app.url}/project/edit/${projectId}`);
      await expect(page.getByTestId('project-name')).toHaveValue('Projet tapé serveur arrêté, suite');
    }
    await theirs.getByTestId('project-name').fill('Nom changé ailleurs');
    await theirs.getByTestId('project-name').press('Enter');
    await expect(theirs.getByTestId('project-name')).not.toBeFocused();
    await theirs.getByTestId('project-clientName').fill('Client changé ailleurs');
    await theirs.getByTestId('project-clientName').press('Enter');
    await expect(theirs.getByTestId('project-clientName')).not.toBeFocused();

    await mine.getByTestId('project-name').fill('Nom changé ici');
    await mine.getByTestId('project-name').press('Enter');
    await expect(mine.getByTestId('conflict-message')).toHaveText(/^Ce projet a été modifié par .+ à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/);
    const row = mine.getByTestId('conflict-name');
    await expect(row.getByTestId('conflict-mine')).toHaveText('Nom changé ici');
    await expect(row.getByTestId('conflict-theirs')).toHaveText('Nom changé ailleurs');
    // Mine stays typed; the field only they changed shows theirs.
    await expect(mine.getByTestId('project-name')).toHaveValue('Nom changé ici');
    await expect(mine.getByTestId('project-clientName')).toHaveValue('Client changé ailleurs');
    await expect(mine.getByTestId('conflict-clientName')).toHaveCount(0);
    await mine.screenshot({ path: '/tmp/shots-editors-offline/project-header-conflict-1366.png' });

    await row.getByRole('button', { name: M.keepMine }).click();
    await mine.getByTestId('project-name').press('Enter');
    await expect(mine.getByTestId('conflict-panel')).toHaveCount(0);
    const csm = await csmApi(app);
    await expect.poll(async () => (await csm.call('GET', `/project/${projectId}`)).name).toBe('Nom changé ici');
    expect((await csm.call('GET', `/project/${projectId}`)).clientName).toBe('Client changé ailleurs');
    await theirs.reload();
    await expect(theirs.getByTestId('project-name')).toHaveValue('Nom changé ici');
    await expect(theirs.getByTestId('project-clientName')).toHaveValue('Client changé ailleurs');
  } finally {
    await context.close();
  }
});

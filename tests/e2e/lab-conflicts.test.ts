import type { Browser, Page } from '@playwright/test';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { toBase64 } from '@shared/rules/laboratory';
import { api, signInToApi } from '../helpers/api';
import { demoAccount, expect, signIn, test, type WebApp } from './fixtures';
import { killApi } from './offline-helpers';

/**
 * Two people on one laboratory project (docs/laboratory.md, "Two people on one project"), each in a browser context
 * and account of their own: a Save based on an older version of the project, or a tag's delete based on an older
 * version of the tag, shows who changed it and theirs beside yours; a Save the server does not answer waits.
 */

let projectId: number;

/** A panel of 30 members: CRIT_01 'fort' on every third line. */
function panel(): string {
  const lines = ['NAME;SURNAME;GENDER;CRIT_01;CRIT_02'];
  for (let i = 0; i < 30; i += 1) lines.push(`Nom${i};Prénom${i};${i % 2 ? 'M' : 'F'};${i % 3 === 0 ? 'fort' : 'faible'};IDF`);
  return lines.join('\r\n');
}

async function adminCall(app: WebApp) {
  const { email, password } = demoAccount('ADMIN');
  const { token } = await signInToApi(app.apiUrl, email, password);
  return { token, call: (method: string, path: string, body?: unknown): Promise<any> => api({ apiUrl: app.apiUrl, token }, method, path, body) };
}

test.describe.configure({ mode: 'serial' });
test.use({
  viewport: { width: 1366, height: 768 },
  appOptions: {
    prepare: async (app) => {
      const { token, call } = await adminCall(app);
      const form = new FormData();
      form.append('projectName', 'Panel partagé');
      form.append('file', new Blob([panel()]), 'panel.csv');
      const created = await fetch(`${app.apiUrl}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      projectId = ((await created.json()) as { id: number }).id;
      const tag = (name: string, query: string) => ({
        name,
        type: 'Bon Usage',
        level: 'UNDERSTAND',
        content: '',
        linkTitle: '',
        link: '',
        query: toBase64(query),
        params: toBase64('{}'),
      });
      await call('PUT', `/alphonse/project/${projectId}`, { tags: [tag('Forts', "CRIT_01 = 'fort'"), tag('Faibles', "CRIT_01 = 'faible'")] });
    },
  },
});

async function salesContext(app: WebApp, browser: Browser) {
  const context = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await signIn(page, app.url, 'SALES');
  return { context, page };
}

async function openProject(page: Page, url: string) {
  await page.goto(`${url}/alphonse/project/${projectId}`);
  await expect(page.getByTestId('lab-project-name')).toHaveText('Panel partagé');
}

/** Opens a tag's modal from its row, fills the fields given and applies them to the page. */
async function editTag(page: Page, row: string, fields: { name?: string; query?: string; level?: string; count?: string }) {
  await page.getByTestId(`lab-tag-row-${row}`).getByTestId('lab-tag-edit').click();
  const dialog = page.getByTestId('lab-tag-dialog');
  if (fields.name !== undefined) await dialog.getByTestId('lab-tag-name').fill(fields.name);
  if (fields.level !== undefined) await dialog.getByTestId('lab-tag-level').selectOption(fields.level);
  if (fields.query !== undefined) await dialog.getByTestId('lab-tag-query').fill(fields.query);
  if (fields.count !== undefined) await expect(dialog.getByTestId('lab-tag-live-count')).toHaveText(fields.count);
  await expect(dialog.getByTestId('lab-tag-apply')).toBeEnabled();
  await dialog.getByTestId('lab-tag-apply').click();
  await expect(dialog).not.toBeAttached();
}

test('a Save based on an older version shows who changed the project, keeps my tags and lets me choose per field', async ({ app, browser }) => {
  const admin = app.page;
  await signIn(admin, app.url, 'ADMIN');
  const sales = await salesContext(app, browser);
  try {
    await openProject(admin, app.url);
    await openProject(sales.page, app.url);

    // The administrator renames the tag and widens its query, and saves first.
    await editTag(admin, 'Forts', { name: "Forts (avis de l'admin)", query: "CRIT_02 = 'IDF'", count: LAB_MESSAGES.countLabel(30) });
    await admin.getByTestId('lab-save').click();
    await expect(admin.getByText(LAB_MESSAGES.projectSaved)).toBeVisible();

    // The salesperson, on the version opened before, renames it too and changes its level: refused.
    const page = sales.page;
    await editTag(page, 'Forts', { name: 'Forts (avis des ventes)', level: 'SURPRISE' });
    await page.getByTestId('lab-save').click();
    const panelView = page.getByTestId('conflict-panel');
    await expect(panelView).toBeVisible();
    await expect(page.getByTestId('conflict-message')).toHaveText(
      /^Ce projet a été modifié par Alice Admin à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/,
    );
    await expect(page.getByTestId('lab-not-saved')).toHaveText(M.notSaved);
    await expect(page.getByText(LAB_MESSAGES.projectSaved)).toHaveCount(0);
    // Nothing typed is lost: my name and level are on the page; their query, which only they changed, too.
    const mine = page.getByTestId('lab-tag-row-Forts (avis des ventes)');
    await expect(mine).toContainText('SURPRISE');
    await expect(mine).toContainText("CRIT_02 = 'IDF'");
    // The name is the one field both changed: theirs beside mine.
    await expect(panelView.getByRole('row')).toHaveCount(2);
    await expect(panelView.getByTestId('conflict-mine')).toHaveText('Forts (avis des ventes)');
    await expect(panelView.getByTestId('conflict-theirs')).toHaveText("Forts (avis de l'admin)");
    await expect(panelView.getByRole('rowheader')).toHaveText(`Forts (avis des ventes) · ${LAB_MESSAGES.tagName}`);
    await page.screenshot({ path: '/tmp/lab-conflict-1366.png' });
    await page.screenshot({ path: test.info().outputPath('lab-conflict-1366.png') });

    await panelView.getByRole('button', { name: M.keepMine }).click();
    await expect(panelView.getByRole('row')).toHaveCount(0);
    await page.getByTestId('lab-save').click();
    await expect(page.getByText(LAB_MESSAGES.projectSaved)).toBeVisible();
    await expect(panelView).toHaveCount(0);
    const { call } = await adminCall(app);
    const saved = (await call('GET', `/alphonse/project/${projectId}`)).tags.find((tag: { name: string }) => tag.name.startsWith('Forts'));
    expect([saved.name, saved.level, saved.usersCount]).toEqual(['Forts (avis des ventes)', 'SURPRISE', 30]);
  } finally {
    await sales.context.close();
  }
});

test("a tag's delete based on an older version of the tag is refused with who changed it; the tag stays", async ({ app, browser }) => {
  const sales = await salesContext(app, browser);
  try {
    const page = sales.page;
    await openProject(page, app.url);
    // Meanwhile the administrator changes the tag through the API (the project's version is not sent).
    const { call } = await adminCall(app);
    const project = await call('GET', `/alphonse/project/${projectId}`);
    const tags = project.tags.map(({ projectId: _p, usersCount: _c, ...tag }: Record<string, unknown>) =>
      tag.name === 'Faibles' ? { ...tag, content: 'Revu par l’admin' } : tag,
    );
    await call('PUT', `/alphonse/project/${projectId}`, { tags });

    await page.getByTestId('lab-tag-row-Faibles').getByTestId('lab-tag-delete').click();
    await expect(page.getByTestId('conflict-message')).toHaveText(
      /^Ce tag a été modifié par Alice Admin à \d{2}:\d{2} depuis que vous l'avez ouvert\.$/,
    );
    await expect(page.getByText(LAB_MESSAGES.tagDeleted)).toHaveCount(0);
    await expect(page.getByTestId('lab-tag-row-Faibles')).toBeVisible();
    // Reloaded, the delete is based on their version and goes.
    await page.getByTestId('conflict-reload').click();
    await page.getByTestId('lab-tag-row-Faibles').getByTestId('lab-tag-delete').click();
    await expect(page.getByText(LAB_MESSAGES.tagDeleted)).toBeVisible();
    await expect(page.getByTestId('lab-tag-row-Faibles')).toHaveCount(0);
  } finally {
    await sales.context.close();
  }
});

test('a Save made while the server is stopped waits under the banner, then goes through once it is back', async ({ app, browser }) => {
  const sales = await salesContext(app, browser);
  try {
    const page = sales.page;
    await openProject(page, app.url);
    const restart = await killApi(app);

    await editTag(page, 'Forts (avis des ventes)', { name: 'Forts, serveur arrêté' });
    await page.getByTestId('lab-save').click();
    const banner = page.getByTestId('offline-banner');
    await expect(banner).toHaveText(M.offline);
    await expect(banner).toHaveCount(1);
    await expect(page.getByText(LAB_MESSAGES.projectSaved)).toHaveCount(0);
    await expect(page.getByText(LAB_MESSAGES.failed)).toHaveCount(0);
    await expect(page.getByTestId('lab-tag-row-Forts, serveur arrêté')).toBeVisible();

    await restart();
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText(LAB_MESSAGES.projectSaved)).toBeVisible();
    const { call } = await adminCall(app);
    const names = (await call('GET', `/alphonse/project/${projectId}`)).tags.map((tag: { name: string }) => tag.name);
    expect(names).toEqual(['Forts, serveur arrêté']);
  } finally {
    await sales.context.close();
  }
});

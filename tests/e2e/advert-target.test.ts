import type { Page } from '@playwright/test';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { DELAY_REASONS, SECONDS_PER_DAY } from '@shared/rules/campaigns';
import { createAudience } from './content-helpers';
import { demoAccount, expect, signIn, test } from './fixtures';
import { api, signInToApi } from '../helpers/api';

/**
 * The advert ↔ target link (docs/projects.md, Targets), as the user walks them: 'Créer une publicité' from an action, the advert saved is linked
 * to it, 'Page projet' opens the action's project, and an action quoted more than 15 days ago makes 'Démarrer la
 * campagne' ask 'Quelle est la raison du retard :'.
 */

let apiUrl: string;
let token: string;
let audienceId: number;
let project: { id: number; name: string; targets: { id: number; actionCode: string }[] };
const quoted = Math.floor(Date.now() / 1000) - 30 * SECONDS_PER_DAY;

const call = (method: string, path: string, body?: unknown) => api({ apiUrl, token }, method, path, body);

test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      const { email, password } = demoAccount('CSM');
      const answer = await signInToApi(app.apiUrl, email, password);
      token = answer.token;
      // Two lines, so that the project id and the action id differ (the old 'Page projet' went to the action's id).
      project = await call('POST', '/project', {
        name: 'Relance HTA',
        clientName: 'Sanofa',
        keyAccount: answer.userId,
        actor: 'Laboratoire',
        lines: 2,
      });
      await call('PUT', `/target/${project.targets[1].id}/properties`, {
        type: 'post',
        status: '2. en ligne',
        initialQuotationDate: quoted,
        revenue: 9000,
      });
      audienceId = await createAudience(app, 'E2E Cardiologues experts', { expert: true });
    },
  },
});

const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const toast = (page: Page, kind: 'success' | 'error' | 'warning', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

test.describe('advert created from an action (web host, Chromium)', () => {
  test.describe.configure({ timeout: 240_000 });
  test("links the saved advert to its action, opens the action's project, and asks the delay reason of a late campaign", async ({ app }) => {
    const { page, url, context } = app;
    const target = project.targets[1];
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/project/edit/${project.id}`);
    await expect(page.getByTestId('target-grid')).toBeVisible();

    // 'Créer une publicité' opens the new advert in another tab, named after the client, project and action.
    const [editor] = await Promise.all([context.waitForEvent('page'), page.getByTestId('target-new-advert-1').click()]);
    editor.setDefaultTimeout(20_000);
    await editor.waitForURL((u) => u.pathname.startsWith('/adverts/edit/project-'));
    // The action code ends like a file name ('…-1.2'): the web host still serves the page.
    await expect(field(editor, 'name')).toHaveValue(`SANOFA - Relance HTA - ${target.actionCode}`);
    // A new advert is linked once saved, not before.
    await expect(editor.getByTestId('project-page')).toHaveCount(0);

    await field(editor, 'name').fill('Relance HTA — post cardiologues');
    await field(editor, 'type').selectOption('post');
    await editor.getByTestId('editor-save').click();
    await editor.waitForURL((u) => /^\/adverts\/edit\/\d+$/.test(u.pathname));
    const advertId = Number(new URL(editor.url()).pathname.split('/').pop());
    await expect(editor.getByTestId('project-page')).toBeVisible();
    // Both sides hold the link: the action names the advert, the advert its action with the real quotation date.
    await expect.poll(async () => (await call('GET', `/project/${project.id}`)).targets[1].advertId).toBe(advertId);
    expect((await call('GET', `/v2/advert/${advertId}`))._$target).toMatchObject({
      id: target.id,
      projectId: project.id,
      initialQuotationDate: quoted,
    });

    // What a post needs to go online, and an expert audience.
    await field(editor, 'logo').fill('https://cdn.exemple.fr/logo.png');
    await field(editor, 'images').fill('https://cdn.exemple.fr/visuel.png');
    await field(editor, 'author').fill('Laboratoires Sanofa');
    await field(editor, 'source').fill('https://www.exemple.fr/hta');
    await field(editor, 'title').fill('HTA : relancer le suivi');
    // Check first, then ask: without an audience the start is refused before any question, so no reason is lost.
    await editor.getByRole('button', { name: M.startCampaign }).click();
    await expect(toast(editor, 'error', ADVERT_MESSAGES.noAudience)).toBeVisible();
    await expect(editor.getByTestId('delay-reason-dialog')).toHaveCount(0);
    expect((await call('GET', `/v2/advert/${advertId}`)).publishedAt).toBeNull();
    await editor.getByTestId('audience-search').fill('E2E');
    await editor.getByTestId(`audience-result-${audienceId}`).click();
    // Attached, it is not offered again (docs/projects.md).
    await expect(editor.getByTestId(`attached-audience-${audienceId}`)).toBeVisible();
    await expect(editor.getByTestId(`audience-result-${audienceId}`)).toHaveCount(0);
    await editor.getByTestId('editor-save').click();
    await expect(toast(editor, 'success', M.saved)).toBeVisible();

    // Quoted 30 days ago: 'Démarrer la campagne' asks why first; Annuler starts nothing.
    await editor.getByRole('button', { name: M.startCampaign }).click();
    const dialog = editor.getByTestId('delay-reason-dialog');
    await expect(dialog.getByRole('heading', { name: M.delayReasonTitle })).toBeVisible();
    await editor.getByTestId('delay-reason-cancel').click();
    await expect(dialog).not.toBeAttached();
    expect((await call('GET', `/v2/advert/${advertId}`)).publishedAt).toBeNull();

    // Someone changes the advert while the question is open: the start is refused (their change is shown), and
    // the reason chosen is offered again at the next start, not lost.
    const reason = DELAY_REASONS[3];
    await editor.getByRole('button', { name: M.startCampaign }).click();
    await expect(dialog.getByRole('heading', { name: M.delayReasonTitle })).toBeVisible();
    await call('PUT', `/v2/advert/${advertId}/subtitle`, { value: 'Partenariat Sanofa' });
    await editor.getByTestId(`delay-reason-${reason.key}`).click();
    await editor.getByTestId('delay-reason-confirm').click();
    await expect(editor.getByTestId('conflict-panel')).toBeVisible();
    expect((await call('GET', `/v2/advert/${advertId}`)).publishedAt).toBeNull();
    await editor.getByRole('button', { name: M.startCampaign }).click();
    await expect(dialog.getByRole('heading', { name: M.delayReasonTitle })).toBeVisible();
    await expect(editor.getByTestId(`delay-reason-${reason.key}`)).toHaveAttribute('aria-pressed', 'true');
    await editor.getByTestId('delay-reason-confirm').click();
    await expect(editor.getByTestId('campaign-status')).toHaveText('publié');
    expect((await call('GET', `/v2/advert/${advertId}`)).subtitle).toBe('Partenariat Sanofa');
    // The reason and the delay are the action's.
    expect((await call('GET', `/project/${project.id}`)).targets[1]).toMatchObject({ advertId, delayReason: reason.key, releaseDateDiff: 30 });

    // 'Page projet' opens the action's project (not /project/edit/{action id}).
    await editor.getByTestId('project-page').click();
    await editor.waitForURL((u) => u.pathname === `/project/edit/${project.id}`);
    await expect(editor.getByTestId('target-grid')).toBeVisible();
    await expect(editor.getByTestId('project-name')).toHaveValue('Relance HTA');
    await editor.getByTestId('project-name').hover();
    await expect(editor.getByTestId('cell-1-link')).toHaveText(String(advertId));
    await editor.close();
  });
});

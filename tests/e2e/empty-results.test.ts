import type { Page } from '@playwright/test';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { STORY_MESSAGES as S } from '@shared/messages/story';
import { demoAccount, expect, signIn, test } from './fixtures';
import { signOut } from './helpers';

/**
 * What staff expect to see, walked as they did: the advert search dialog of the target grid says
 * 'Aucun résultat'; the ad-blocker alert shows in the advert editor too; the story creator has its screenshot button,
 * whose capture goes to the BAT.
 */

let apiUrl: string;
let token: string;
let project: { id: number; targets: { id: number }[] };

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      const { email, password } = demoAccount('CSM');
      const session = await api('POST', '/authenticate', { username: email, password });
      token = session.accessToken.value;
      project = await api('POST', '/project', {
        name: 'Résultats vides',
        clientName: 'Sanofa',
        keyAccount: session.userId,
        actor: 'Laboratoire',
        lines: 1,
      });
      await api('PUT', `/target/${project.targets[0].id}/properties`, { type: 'post' });
    },
  },
});

test.describe('empty results, ad-blocker alert and story capture (web host, Chromium)', () => {
  test.describe.configure({ timeout: 180_000 });

  test("the target grid's advert search says 'Aucun résultat' when nothing matches", async ({ app }) => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/project/edit/${project.id}`);
    await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('target-attach-0').click();
    const dialog = page.getByTestId('advert-search-dialog');
    await dialog.getByRole('searchbox', { name: 'Rechercher une publicité' }).fill('zzzz-aucune-publicité');
    await expect(dialog.getByTestId('advert-search-no-result')).toHaveText(PROJECT_MESSAGES.noResult);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await signOut(page);
  });

  test('the ad-blocker alert shows in the advert editor; the story creator captures its screen to the BAT', async ({ app }) => {
    const { page, url } = app;
    // A blocker hides the elements with advert class names: the bait is hidden as it would be (an attribute, not an
    // inline style, which the page's CSP refuses).
    await page.addInitScript(() => {
      const hideBaits = () => document.querySelectorAll<HTMLElement>('.adsbox').forEach((node) => (node.hidden = true));
      new MutationObserver(hideBaits).observe(document, { childList: true, subtree: true });
    });
    await signIn(page, url, 'CSM');
    const advert = await api('POST', '/advert/create', { advert: { name: 'Story capture e2e', type: 'story' } });
    await page.goto(`${url}/adverts/edit/${advert.id}`);
    await expect(page.getByTestId('editor')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('adblock-alert')).toHaveText(M.adBlocker);

    if ((await page.getByTestId('section-cta').getAttribute('open')) === null) await page.getByTestId('section-cta-toggle').click();
    await expect(page.getByTestId('story-capture')).toHaveCount(0);
    await page.getByTestId('story-add-screen').click();
    await expect(page.getByTestId('story-capture')).toHaveText(S.captureScreen, { timeout: 15_000 });
    await page.getByTestId('story-capture').click();
    await expect(toast(page, 'success', PREVIEW_MESSAGES.captureAvailable)).toBeVisible({ timeout: 20_000 });
    await expect.poll(async () => (await api('GET', `/bat/fetch/${advert.id}`)).screenshots?.length ?? 0, { timeout: 10_000 }).toBe(1);
  });
});

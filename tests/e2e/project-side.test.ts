import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { BRIEFING_SECTIONS } from '@shared/rules/project-comments';
import { demoAccount, expect, signIn, test } from './fixtures';
import { signOut } from './helpers';
import { api, signInToApi } from '../helpers/api';

/**
 * The project page's furniture: comments and briefing sidebar, timeline overlay, quote import
 * of an existing project, and the SALES read-only view. One web host for the file.
 */

/** The file's embedded API, for the helpers that put data in place. */
let apiUrl: string;
let project: { id: number; targets: { id: number; actionCode: string }[] };

/** Epoch seconds of a UTC day. */
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

const QUOTE_FILE = [
  'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT;Date de signature',
  'DEV-2026-0042;Laboratoires Sanofa;Post sponsorisé cardio;2;4 500,00;12/01/2026',
  'DEV-2026-0042;Laboratoires Sanofa;Notification push;1;1200;12/01/2026',
].join('\r\n');

const sessions: Record<string, { token: string; userId: number }> = {};

async function session(role: 'CSM' | 'CSM_LEAD' | 'SALES' | 'ADMIN') {
  if (!sessions[role]) {
    const { email, password } = demoAccount(role);
    sessions[role] = await signInToApi(apiUrl, email, password);
  }
  return sessions[role];
}

/** Calls the embedded API as a demo account (what the page shows is checked against it). */
async function apiAs(role: 'CSM' | 'CSM_LEAD' | 'SALES' | 'ADMIN', method: string, path: string, body?: unknown) {
  const { token } = await session(role);
  return api({ apiUrl, token }, method, path, body);
}

async function seed() {
  const { userId } = await session('CSM');
  project = await apiAs('CSM', 'POST', '/project', { name: 'Cardio HTA', clientName: 'Sanofa', keyAccount: userId, actor: 'Laboratoire', lines: 3 });
  const [twoMonths, startOnly, short] = project.targets;
  await apiAs('CSM', 'PUT', `/target/${twoMonths.id}/properties`, { type: 'post', startDate: day('2026-03-01'), endDate: day('2026-04-30') });
  // A notification keeps an empty end: it lasts 2,629,743 s on the timeline.
  await apiAs('CSM', 'PUT', `/target/${startOnly.id}/properties`, { type: 'notification', startDate: day('2026-05-16') });
  await apiAs('CSM', 'PUT', `/target/${short.id}/properties`, { type: 'video', startDate: day('2026-02-01'), endDate: day('2026-02-15') });
  await apiAs('CSM_LEAD', 'POST', '/newcomment', { projectId: project.id, content: 'Avis de Claire' });
  // The quote export is an administrator's import.
  await apiAs('ADMIN', 'POST', '/estimates/import', { csv: QUOTE_FILE });
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      await seed();
    },
  },
});

type Comment = { id: number; content: string; author: number; updatedAt: number };
const loadProject = () =>
  apiAs('CSM', 'GET', `/project/${project.id}`) as Promise<{ comments: Comment[]; briefing: { content: unknown } | null; targets: unknown[] }>;

test.describe('project sidebar, timeline and quote import (web host, Chromium)', () => {
  test('comments (own only editable), writes a briefing, cancels, opens the timeline and imports a quote', async ({ app }) => {
    test.setTimeout(240_000);
    const { page, url } = app;
    await signIn(page, url, 'CSM');

    await test.step('#comment opens the sidebar on the comments tab', async () => {
      await page.goto(`${url}/project/edit/${project.id}#comment`);
      const panel = page.getByTestId('project-side-panel');
      await expect(panel).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('side-tab-comments')).toHaveAttribute('aria-selected', 'true');

      // Another author's comment: no edit menu.
      const [theirs] = (await loadProject()).comments;
      const theirItem = page.getByTestId(`comment-${theirs.id}`);
      await expect(theirItem).toBeVisible();
      await expect(theirItem).toHaveAttribute('data-own', 'false');
      await expect(page.getByTestId(`comment-edit-${theirs.id}`)).toHaveCount(0);

      // Own comment: added, edited; saving unchanged text sends nothing.
      await page.getByTestId('comment-new').fill('Premier retour client');
      await page.getByTestId('comment-add').click();
      await expect.poll(async () => (await loadProject()).comments.length, { timeout: 15_000 }).toBe(2);
      const mine = (await loadProject()).comments.find((comment) => comment.id !== theirs.id)!;
      await page.getByTestId(`comment-edit-${mine.id}`).click();
      await page.getByTestId(`comment-input-${mine.id}`).fill('Premier retour client, relancer lundi');
      await page.getByTestId(`comment-save-${mine.id}`).click();
      await expect(page.getByTestId(`comment-${mine.id}`).getByText('Premier retour client, relancer lundi')).toBeVisible({ timeout: 15_000 });
      const edited = (await loadProject()).comments.find((comment) => comment.id === mine.id)!;
      expect(edited.content).toBe('Premier retour client, relancer lundi');
      await page.getByTestId(`comment-edit-${mine.id}`).click();
      await page.getByTestId(`comment-save-${mine.id}`).click();
      await expect(page.getByTestId(`comment-edit-${mine.id}`)).toBeVisible();
      expect((await loadProject()).comments.find((comment) => comment.id === mine.id)!.updatedAt).toBe(edited.updatedAt);
      // Deleting one's own comment asks first (the prompt closes by itself after 5 s).
      await page.getByTestId('comment-new').fill('À supprimer');
      await page.getByTestId('comment-add').click();
      await expect.poll(async () => (await loadProject()).comments.length, { timeout: 15_000 }).toBe(3);
      const doomed = (await loadProject()).comments.find((comment) => comment.content === 'À supprimer')!;
      await page.getByTestId(`comment-delete-${doomed.id}`).click();
      await page.getByTestId(`comment-delete-${doomed.id}-prompt`).getByRole('button', { name: 'Oui' }).click();
      await expect(page.getByTestId(`comment-${doomed.id}`)).not.toBeAttached({ timeout: 15_000 });
      expect((await loadProject()).comments.map((comment) => comment.id)).toEqual([theirs.id, mine.id]);

      // Briefing: the default template with the seven sections, then bold text and a bulleted list.
      await page.getByTestId('side-tab-briefing').click();
      const read = page.getByTestId('briefing-read');
      for (const section of BRIEFING_SECTIONS) await expect(read.getByText(section, { exact: true })).toBeVisible();
      await read.click();
      const content = page.getByTestId('briefing-content');
      await content.click();
      await page.keyboard.press('Control+End');
      await page.getByTestId('briefing-bold').click();
      await page.keyboard.type('Important');
      await page.getByTestId('briefing-bold').click();
      await page.keyboard.press('Enter');
      await page.getByTestId('briefing-bullets').click();
      await page.keyboard.type('Point un');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Point deux');
      // An empty item leaves the list; then italic text and a link on a selected phrase.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await page.getByTestId('briefing-italic').click();
      await page.keyboard.type('Nuance');
      await page.getByTestId('briefing-italic').click();
      await page.keyboard.press('Enter');
      await page.keyboard.type('Voir le site');
      await page.keyboard.press('Shift+Home');
      await page.getByTestId('briefing-link').click();
      await page.getByTestId('briefing-link-url').fill('https://example.org/brief');
      await page.getByTestId('briefing-link-url').press('Enter');
      await expect(content.locator('a', { hasText: 'Voir le site' })).toBeVisible();
      await page.getByTestId('briefing-save').click();
      await expect(read.locator('strong', { hasText: 'Important' })).toBeVisible({ timeout: 15_000 });
      await expect(read.locator('ul li')).toHaveText(['Point un', 'Point deux']);
      expect(await read.locator('em').allTextContents()).toEqual(['Nuance']);
      await expect(read.locator('a', { hasText: 'Voir le site' })).toHaveAttribute('href', 'https://example.org/brief');
      const saved = JSON.stringify((await loadProject()).briefing?.content);
      expect(saved).toContain('"text":"Important"');
      expect(saved).toMatch(/"format":1,[^}]*"text":"Important"|"text":"Important"[^}]*"format":1/);
      expect(saved).toContain('"listType":"bullet"');

      // Cancel restores the saved briefing; closing the sidebar cancels too.
      await read.click();
      await content.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('À jeter');
      await expect(content.getByText('À jeter')).toBeVisible();
      await page.getByTestId('briefing-cancel').click();
      await expect(read.locator('strong', { hasText: 'Important' })).toBeVisible();
      await expect(read.getByText('À jeter')).toHaveCount(0);
      await read.click();
      await expect(content.locator('strong', { hasText: 'Important' })).toBeVisible();
      await content.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Brouillon');
      await page.getByTestId('side-panel-close').click();
      await expect(panel).not.toBeAttached();
      await page.getByTestId('project-comments-toggle').click();
      await page.getByTestId('side-tab-briefing').click();
      await expect(read.locator('strong', { hasText: 'Important' })).toBeVisible();
      await expect(read.getByText('Brouillon')).toHaveCount(0);
      expect(JSON.stringify((await loadProject()).briefing?.content)).toBe(saved);
      await page.getByTestId('side-panel-close').click();

      // Timeline: Nov 2025 (3 months before 01/02/2026) to Sep 2026 (3 after the start-only end, mid-June); a bar per action.
      await page.getByTestId('project-timeline-open').click();
      const overlay = page.getByTestId('timeline-overlay');
      await expect(overlay).toBeVisible();
      const [twoMonths, startOnly, short] = project.targets;
      for (const target of project.targets) await expect(page.getByTestId(`timeline-bar-${target.id}`)).toBeVisible({ timeout: 15_000 });
      const months = await page.getByTestId('timeline-months').locator('.timeline-month').allTextContents();
      expect(months[0]).toBe('nov. 2025');
      expect(months.at(-1)).toBe('sept. 2026');
      expect(months).toHaveLength(11);
      const monthWidth = (await page.getByTestId('timeline-months').locator('.timeline-month').first().boundingBox())!.width;
      const width = async (id: number) => (await page.getByTestId(`timeline-bar-${id}`).boundingBox())!.width / monthWidth;
      expect(await width(twoMonths.id)).toBeCloseTo(2, 1);
      // 16/05 + 2,629,743 s ends on 16/06: the 16th to the 16th counts 1 + 1/30 month.
      expect(await width(startOnly.id)).toBeCloseTo(1 + 1 / 30, 1);
      expect(await width(short.id)).toBeCloseTo(0.5, 1);

      // A timeline comment is saved after the typing stops (500 ms), created once then updated.
      const timelineComments = async () =>
        (
          (await apiAs('CSM', 'POST', '/projects/timeline', { ids: [project.id] })) as { targets: { id: number; comments: Comment[] }[] }[]
        )[0].targets.find((target) => target.id === short.id)!.comments;
      await page.getByTestId(`timeline-comment-input-${short.id}`).pressSequentially('Tournage ok', { delay: 30 });
      await expect.poll(async () => (await timelineComments()).map((comment) => comment.content), { timeout: 15_000 }).toEqual(['Tournage ok']);
      await page.getByTestId(`timeline-comment-input-${short.id}`).pressSequentially(', montage en cours', { delay: 30 });
      await expect
        .poll(async () => (await timelineComments()).map((comment) => comment.content), { timeout: 15_000 })
        .toEqual(['Tournage ok, montage en cours']);
      await page.getByTestId('timeline-close').click();
      await expect(overlay).not.toBeAttached();

      // The sidebar lists the action's comment.
      await page.getByTestId('project-comments-toggle').click();
      await expect(page.getByTestId(`side-target-comments-${short.id}`).getByText('Tournage ok, montage en cours')).toBeVisible({ timeout: 15_000 });
      await page.getByTestId('side-panel-close').click();
    });

    await test.step('Quote import into the project', async () => {
      // Quote import into the project: an unknown quote, then the quote's two lines added as actions.
      await page.getByTestId('project-import-estimate').click();
      const dialog = page.getByTestId('estimate-import-dialog');
      await expect(dialog).toBeVisible();
      await expect(page.getByTestId('estimate-import-submit')).toBeDisabled();
      await page.getByTestId('estimate-import-id').fill('DEV-0000');
      await page.getByTestId('estimate-import-submit').click();
      await expect(page.getByText(PROJECT_MESSAGES.estimateNotFound)).toBeVisible({ timeout: 15_000 });
      await page.getByTestId('estimate-import-id').fill('DEV-2026-0042');
      await page.getByTestId('estimate-import-submit').click();
      await expect(page.getByText(PROJECT_MESSAGES.estimateImported)).toBeVisible({ timeout: 15_000 });
      await expect(dialog).not.toBeAttached();
      expect((await loadProject()).targets).toHaveLength(5);
      // The page shows the new actions at once.
      await expect(page.getByTestId('target-row-4')).toBeVisible({ timeout: 15_000 });
    });
  });

  test("SALES edits the briefing (spec §6 does not block it) but cannot import a quote nor edit others' comments", async ({ app }) => {
    const { page, url } = app;
    await signOut(page);
    await signIn(page, url, 'SALES');
    await page.goto(`${url}/project/edit/${project.id}`);
    await page.getByTestId('project-comments-toggle').click({ timeout: 20_000 });
    const mine = (await loadProject()).comments.find((comment) => comment.content.startsWith('Premier retour'))!;
    await expect(page.getByTestId(`comment-${mine.id}`)).toBeVisible();
    await expect(page.getByTestId(`comment-edit-${mine.id}`)).toHaveCount(0);
    await page.getByTestId('side-tab-briefing').click();
    const read = page.getByTestId('briefing-read');
    await expect(read.locator('strong', { hasText: 'Important' })).toBeVisible();
    await read.click();
    await expect(page.getByTestId('briefing-editor')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('project-import-estimate')).toHaveCount(0);
  });
});

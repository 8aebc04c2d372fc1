import type { Page } from '@playwright/test';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { DEFAULT_TARGET_LIST_STATUSES, TARGET_STATUSES } from '@shared/rules/projects';
import { MP4 } from '../fixtures/storage-files';
import { demoAccount, expect, signIn, test } from './fixtures';

/**
 * The smaller findings of the walk of projects and tools: a too-long name said at its field, a refused briefing
 * link explained, the /targets status menu's default ticks in the spec's order, a long name shown whole in the
 * editor's header, and a document upload that does not call itself an image.
 */

const LONG_NAME = 'Campagne nationale de sensibilisation cardiologie et hypertension 2026';
let projectId: number;

// Each test on its own host, signed in by itself: none depends on another's steps.
test.use({
  appOptions: {
    fresh: true,
    prepare: async (app) => {
      const { email, password } = demoAccount('CSM');
      const call = async (method: string, path: string, body: unknown, token?: string) => {
        const response = await fetch(`${app.apiUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
        return response.json();
      };
      const session = await call('POST', '/authenticate', { username: email, password });
      const token = session.accessToken.value;
      const project = await call(
        'POST',
        '/project',
        { name: LONG_NAME, clientName: 'Sanofa', keyAccount: session.userId, actor: 'Laboratoire', lines: 3 },
        token,
      );
      projectId = project.id;
      // Three statuses out of the spec's order, so the menu must sort them.
      for (const [index, status] of ['6. feedback réalisé', '2. en ligne', '3.1 Urgent - Stats à sortir'].entries())
        await call('PUT', `/target/${project.targets[index].id}/properties`, { status }, token);
    },
  },
});

async function openProject(page: Page, url: string) {
  await page.goto(`${url}/project/edit/${projectId}`);
  await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
}

test('the header shows a long name whole and says at the field that a name over 200 characters is too long', async ({ app }) => {
  const page = app.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.url, 'CSM');
  await openProject(page, app.url);
  const name = page.getByTestId('project-name');
  await expect(name).toHaveValue(LONG_NAME);
  // Not cut: the field is as wide as its text.
  expect(await name.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth)).toBe(true);

  await name.fill('N'.repeat(201));
  await name.press('Enter');
  await expect(page.getByTestId('project-name-error')).toHaveText(PROJECT_MESSAGES.headerTooLong('Nom du projet', 200));
  await expect(name).toHaveAttribute('aria-invalid', 'true');
});

test('a javascript: link in the briefing is refused with the reason', async ({ app }) => {
  const page = app.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.url, 'CSM');
  await openProject(page, app.url);
  await page.getByTestId('project-comments-toggle').click();
  await page.getByTestId('side-tab-briefing').click();
  await page.getByTestId('briefing-read').click();
  await page.getByTestId('briefing-content').click();
  await page.keyboard.type('Voir');
  await page.keyboard.press('Shift+Home');
  await page.getByTestId('briefing-link').click();
  await page.getByTestId('briefing-link-url').fill('javascript:alert(1)');
  await expect(page.getByTestId('briefing-link-error')).toHaveText(PROJECT_MESSAGES.briefingLinkRefused);
  await expect(page.getByTestId('briefing-link-apply')).toBeDisabled();
  await page.getByTestId('briefing-link-url').fill('https://example.org');
  await expect(page.getByTestId('briefing-link-error')).toHaveCount(0);
});

test('the /targets status menu ticks the default statuses and lists them in the spec order', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto(`${app.url}/targets`);
  await page.getByTestId('targets-column-status').click();
  const menu = page.getByTestId('targets-menu-status');
  const labels = menu.locator('label[title]');
  await expect(labels).toHaveCount(3);
  const shown = (await labels.allTextContents()).map((text) => text.trim());
  expect(shown).toEqual([...shown].sort((a, b) => TARGET_STATUSES.indexOf(a as never) - TARGET_STATUSES.indexOf(b as never)));
  for (const status of shown) {
    const box = menu.locator(`label[title="${status}"] input`);
    if ((DEFAULT_TARGET_LIST_STATUSES as string[]).includes(status)) await expect(box).toBeChecked();
    else await expect(box).not.toBeChecked();
  }
});

test('a document that is not an image is said imported as a file', async ({ app }) => {
  const page = app.page;
  await signIn(page, app.url, 'CSM');
  await page.goto(`${app.url}/document/upload`);
  await page.getByTestId('folder-assets/clients/Pharmavie').click();
  await expect(page.getByTestId('current-folder')).toHaveText('assets/clients/Pharmavie');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('upload-document').click()]);
  await chooser.setFiles({ name: 'spot.mp4', mimeType: 'video/mp4', buffer: MP4 });
  await expect(page.getByText(STORAGE_MESSAGES.fileImported)).toBeVisible();
  await expect(page.getByText(STORAGE_MESSAGES.imageImported)).toHaveCount(0);
});

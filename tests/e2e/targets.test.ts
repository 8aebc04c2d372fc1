import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, expect, signIn, test } from './fixtures';

/** The file's embedded API, for the helpers that put data in place. */
let apiUrl: string;
let project: { id: number; targets: { id: number; actionCode: string }[] };

/** Calls the embedded API as the demo CSM (the project screens that would create these are another slice). */
async function seed() {
  const { email, password } = demoAccount('CSM');
  const post = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const session = await post('POST', '/authenticate', { username: email, password });
  const token = session.accessToken.value as string;
  project = await post(
    'POST',
    '/project',
    { name: 'Cardio HTA', clientName: 'Sanofa', keyAccount: session.userId, actor: 'Laboratoire', lines: 3 },
    token,
  );
  const [online, stats, offline] = project.targets;
  await post(
    'PUT',
    `/target/${online.id}/properties`,
    { status: '2. en ligne', type: 'post', goal: { views: 12000 }, populationSample: 'Cardiologues' },
    token,
  );
  // A target links only an advert that exists.
  const advert = await post('POST', '/advert/create', { advert: { name: 'Vidéo HTA', type: 'video' } }, token);
  await post('PUT', `/target/${stats.id}/properties`, { status: '3. stats à sortir', type: 'video', advertId: advert.id }, token);
  await post('PUT', `/target/${offline.id}/properties`, { type: 'quiz' }, token);
  await post('POST', '/newcomment', { projectId: project.id, content: 'Client réactif' }, token);
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

const tableRows = (page: Page) => page.locator('tbody tr');

test.describe('targets list (web host, Chromium)', () => {
  test('shows the online-to-stats actions by status DESC, searches, filters a column, copies rows and exports CSV', async ({ app }) => {
    test.setTimeout(180_000);
    const { page, url, context } = app;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/targets`);
    const [online, stats, offline] = project.targets;

    // Default filter: the offline line is left out; status DESC puts "3. stats à sortir" first.
    await expect(tableRows(page)).toHaveCount(2, { timeout: 20_000 });
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-action-code', stats.actionCode);
    await expect(page.getByTestId(`target-row-${online.id}`)).toContainText('12 000 vues');
    await expect(page.getByTestId(`target-comments-${online.id}`)).toHaveCount(1);
    await expect(page.getByTestId(`target-row-${offline.id}`)).toHaveCount(0);
    await expect(page.getByTestId('targets-csm').locator('option').first()).toHaveText('Tous');

    // Term search (action code).
    await page.getByTestId('targets-search').fill(online.actionCode.toLowerCase());
    await expect(tableRows(page)).toHaveCount(1);
    await page.getByTestId('targets-search').fill('');
    await expect(tableRows(page)).toHaveCount(2);

    // Column dropdown: values of the column, 'Select All', the 15-item note, Enter filters.
    await page.getByTestId('targets-column-type').click();
    const menu = page.getByTestId('targets-menu-type');
    await expect(menu.getByText('Ascending')).toBeVisible();
    await expect(menu.getByText(PROJECT_MESSAGES.resultsLimited)).toHaveCount(1);
    await expect(menu.getByText(PROJECT_MESSAGES.selectAll)).toHaveCount(1);
    await page.getByTestId('targets-filter-type').fill('vid');
    await menu.getByLabel('video').check();
    await page.getByTestId('targets-filter-type').press('Enter');
    await expect(tableRows(page)).toHaveCount(1);
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-action-code', stats.actionCode);

    // Order by the column, ascending.
    await page.getByTestId('targets-column-type').click();
    await expect(page.getByTestId('targets-filter-type')).toBeVisible();
    await page.getByTestId('targets-menu-type').getByLabel('video').uncheck();
    await page.getByTestId('targets-filter-type').press('Enter');
    await expect(tableRows(page)).toHaveCount(2);
    await page.getByTestId('targets-column-type').click();
    await page.getByTestId('targets-menu-type').getByText('Ascending').click();
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-action-code', online.actionCode);

    // A row checkbox copies the selection as tab-separated text.
    await page.getByTestId(`target-select-${online.id}`).check();
    await expect(page.getByText(PROJECT_MESSAGES.actionsCopied)).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\t').slice(0, 5)).toEqual(['Cardio HTA', '', online.actionCode, '2. en ligne', 'post']);

    // CSV export of everything matching, streamed through the host to a download.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('targets-export').click()]);
    expect(download.suggestedFilename()).toBe('actions.csv');
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines[0].startsWith('\uFEFFprojectName;clientName;advertId;advertSource;actionCode;status;keyAccount;type')).toBe(true);
    expect(lines).toHaveLength(3);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(';')[4])
        .sort(),
    ).toEqual([online.actionCode, stats.actionCode].sort());
  });
});

test.describe('targets list readability', () => {
  test('Enter in a column filter applies the search typed, numbers have separators, headers are French, dates stay on one line', async ({
    app,
    browser,
  }) => {
    const { url } = app;
    const [online] = project.targets;
    // A window of its own, narrow: cells used to break inside dates and codes ('07/09/20↵26').
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    // Put a population and dates on the online action, as the project grid would.
    const { email, password } = demoAccount('CSM');
    const session = await (
      await fetch(`${app.apiUrl}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password }),
      })
    ).json();
    const updated = await fetch(`${app.apiUrl}/target/${online.id}/properties`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken.value}` },
      body: JSON.stringify({
        populationSize: 95000,
        startDate: Date.UTC(2026, 8, 7) / 1000,
        endDate: Date.UTC(2026, 9, 7) / 1000,
        checkDate: Date.UTC(2026, 9, 20) / 1000,
      }),
    });
    expect(updated.status).toBe(200);

    await signIn(page, url, 'CSM');
    await page.goto(`${url}/targets`);
    await expect(tableRows(page)).toHaveCount(2, { timeout: 20_000 });

    await test.step("The spec's columns under French headers, those of the project grid", async () => {
      const headers = await page.locator('thead th').allTextContents();
      expect(headers.slice(1).map((text) => text.replace(/[▲▼▾]/g, '').trim())).toEqual([
        'Projet',
        'Pub / outil',
        'Code action',
        'Statut',
        'Type',
        'Spé',
        'Ciblage',
        'Population',
        'Début',
        'Fin',
        'Objectif',
        'Deadline sortie KPIs',
      ]);
    });

    await test.step('Numbers with thousands separators, like the goals', async () => {
      const row = page.getByTestId(`target-row-${online.id}`);
      await expect(row.locator('td.targets-cell-populationSize')).toHaveText('95 000');
      await expect(row.locator('td.targets-cell-goal')).toHaveText('12 000 vues');

      // Dates and codes on one line: the text is one line high.
      const date = row.locator('td.targets-cell-startDate .targets-text');
      await expect(date).toHaveText('07/09/2026');
      await date.screenshot({ path: join(tmpdir(), `targets-date-cell-${process.pid}.png`) });
      const lineHeight = await date.evaluate((element) => {
        const style = getComputedStyle(element);
        return style.lineHeight === 'normal' ? parseFloat(style.fontSize) * 1.25 : parseFloat(style.lineHeight);
      });
      for (const cell of [date, row.locator('td.targets-cell-actionCode .targets-text'), row.locator('td.targets-cell-checkDate .targets-text')]) {
        const box = (await cell.boundingBox())!;
        expect(box.height, (await cell.textContent()) ?? '').toBeLessThan(lineHeight * 1.5);
      }
    });

    await test.step('Enter in the filter, no box ticked', async () => {
      // Enter in the filter, no box ticked: filters on what was typed (it used to clear the filter).
      await page.getByTestId('targets-column-populationSample').click();
      await page.getByTestId('targets-filter-populationSample').fill('cardio');
      await expect(page.getByTestId('targets-menu-populationSample').getByLabel('Cardiologues')).toBeVisible();
      await page.getByTestId('targets-filter-populationSample').press('Enter');
      await expect(tableRows(page)).toHaveCount(1);
      await expect(page.locator('tbody tr').first()).toHaveAttribute('data-action-code', online.actionCode);
      await expect(page.getByTestId('targets-menu-populationSample')).toHaveCount(0);
      // And straight after typing, before the values list came back.
      await page.getByTestId('targets-column-populationSample').click();
      await page.getByTestId('targets-menu-populationSample').getByLabel('Cardiologues').uncheck();
      await page.getByTestId('targets-filter-populationSample').press('Enter');
      await expect(tableRows(page)).toHaveCount(2);
      await page.getByTestId('targets-column-actionCode').click();
      await page.getByTestId('targets-filter-actionCode').fill(online.actionCode.toLowerCase());
      await page.getByTestId('targets-filter-actionCode').press('Enter');
      await expect(tableRows(page)).toHaveCount(1);
      await expect(page.locator('tbody tr').first()).toHaveAttribute('data-action-code', online.actionCode);
      await context.close();
    });
  });
});

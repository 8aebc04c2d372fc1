import type { Page } from '@playwright/test';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, expect, signIn, test } from './fixtures';

/**
 * Two people on one row of a project's target grid (docs/architecture.md, "Versions and conflicts"), each in their
 * own browser context and account: the cells only one of them changed go through, the cell both changed is marked
 * at the cell with both values, never overwritten silently.
 */

let projectId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      const { email, password } = demoAccount('CSM');
      const call = async (path: string, body: unknown, token?: string) => {
        const response = await fetch(`${app.apiUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
        return response.json();
      };
      const session = await call('/authenticate', { username: email, password });
      const project = await call(
        '/project',
        { name: 'Grille partagée', clientName: 'Sanofa', keyAccount: session.userId, actor: 'Laboratoire', lines: 2 },
        session.accessToken.value,
      );
      projectId = project.id;
    },
  },
});

const cell = (page: Page, row: number, column: string) => page.getByTestId(`cell-${row}-${column}`);

async function setCell(page: Page, column: string, value: string) {
  await cell(page, 0, column).hover();
  await page.getByTestId(`edit-${column}`).fill(value);
  await page.getByTestId(`edit-${column}`).press('Enter');
}

test('two people edit one target row: untouched cells go through, the cell both changed is marked with both values', async ({ app, browser }) => {
  test.setTimeout(120_000);
  const csm = app.page;
  await signIn(csm, app.url, 'CSM');
  const leadContext = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const lead = await leadContext.newPage();
  try {
    await signIn(lead, app.url, 'CSM_LEAD');
    for (const page of [csm, lead]) {
      await page.goto(`${app.url}/project/edit/${projectId}`);
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
    }

    // The CSM changes the sample first.
    await setCell(csm, 'populationSample', 'Cardiologues');
    await csm.getByTestId('project-name').hover();
    await expect(cell(csm, 0, 'populationSample')).toHaveText('Cardiologues', { timeout: 15_000 });

    // The lead, on the grid as loaded before, changes the sample too, then the population category nobody touched.
    await setCell(lead, 'populationSample', 'Généralistes');
    await expect(lead.getByText(PROJECT_MESSAGES.cellsChangedMeanwhile('Camille Martin', 1))).toBeVisible({ timeout: 15_000 });
    const conflicted = cell(lead, 0, 'populationSample');
    await expect(conflicted).toHaveClass(/cell-conflict/);
    await expect(conflicted).toHaveAttribute(
      'title',
      `${CONFLICT_MESSAGES.theirValue} : Cardiologues — ${CONFLICT_MESSAGES.yourValue} : Généralistes`,
    );
    await setCell(lead, 'populationCategory', 'Spécialistes');
    await lead.getByTestId('project-name').hover();
    await expect(cell(lead, 0, 'populationCategory')).toHaveText('Spécialistes', { timeout: 15_000 });
    await expect(cell(lead, 0, 'populationCategory')).not.toHaveClass(/cell-conflict/);

    // On reload each sees the CSM's sample (never overwritten silently) and the lead's category.
    for (const page of [csm, lead]) {
      await page.reload();
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
      await expect(cell(page, 0, 'populationSample')).toHaveText('Cardiologues');
      await expect(cell(page, 0, 'populationCategory')).toHaveText('Spécialistes');
    }
  } finally {
    await leadContext.close();
  }
});

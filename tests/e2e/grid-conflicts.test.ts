import type { Page } from '@playwright/test';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { expect, signIn, test } from './fixtures';
import { createGridProject } from './project-helpers';

/**
 * Two people on one row of a project's target grid (docs/architecture.md, "Versions and conflicts"), each in their
 * own browser context and account: the cells only one of them changed go through, the cell both changed is marked
 * at the cell with both values, never overwritten silently.
 */

let projectId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      projectId = await createGridProject(app, 'Grille partagée', 2);
    },
  },
});

const cell = (page: Page, row: number, column: string) => page.getByTestId(`cell-${row}-${column}`);

async function setCell(page: Page, column: string, value: string, row = 0) {
  await cell(page, row, column).hover();
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

/** The two boxes share no point: the review stands beside the grid, never over its cells. */
async function beside(page: Page) {
  const grid = await page.locator('.target-grid-wrapper').boundingBox();
  const review = await page.getByTestId('grid-conflicts').boundingBox();
  expect(grid && review).toBeTruthy();
  const apart = review!.x >= grid!.x + grid!.width || review!.y >= grid!.y + grid!.height;
  expect(apart, `review ${JSON.stringify(review)} over grid ${JSON.stringify(grid)}`).toBe(true);
}

test('the review of cells changed meanwhile: keep mine re-sends mine, take theirs keeps theirs, from the keyboard', async ({ app, browser }) => {
  test.setTimeout(300_000);
  // Both people in contexts of their own: the file's page is still signed in from the previous test.
  const csmContext = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const leadContext = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const csm = await csmContext.newPage();
  const lead = await leadContext.newPage();
  await lead.setViewportSize({ width: 1366, height: 768 });
  try {
    await signIn(csm, app.url, 'CSM');
    await signIn(lead, app.url, 'CSM_LEAD');
    for (const page of [csm, lead]) {
      await page.goto(`${app.url}/project/edit/${projectId}`);
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
    }

    // The CSM changes the second row's sample and the first row's comment; the lead, on the grid as loaded before,
    // changes both too (a saved cell refreshes its whole row, so the two cells are on two rows).
    await setCell(csm, 'populationSample', 'Cardiologues', 1);
    await expect(cell(csm, 1, 'populationSample')).toHaveText('Cardiologues', { timeout: 15_000 });
    await setCell(csm, 'comment', 'Leur commentaire', 0);
    await csm.getByTestId('project-name').hover();
    await expect(cell(csm, 0, 'comment')).toHaveText('Leur commentaire', { timeout: 15_000 });
    await setCell(lead, 'populationSample', 'Généralistes', 1);
    await expect(cell(lead, 1, 'populationSample')).toHaveClass(/cell-conflict/, { timeout: 15_000 });
    await setCell(lead, 'comment', 'Mon commentaire', 0);
    await lead.getByTestId('project-name').hover();
    await expect(cell(lead, 0, 'comment')).toHaveClass(/cell-conflict/, { timeout: 15_000 });

    const review = lead.getByTestId('grid-conflicts');
    await expect(review.getByRole('heading', { name: PROJECT_MESSAGES.gridConflictsTitle(2) })).toBeVisible();
    const sample = review.getByTestId('grid-conflict-1-populationSample');
    await expect(sample.getByRole('heading')).toHaveText(/^Ligne 2 · .+ — Ciblage$/);
    await expect(sample.getByTestId('conflict-theirs')).toHaveText('Cardiologues');
    await expect(sample.getByTestId('conflict-mine')).toHaveText('Généralistes');
    await expect(sample).toContainText(/Modifiée par Camille Martin à \d\d:\d\d/);
    await expect(review.getByTestId('grid-conflict-0-comment').getByTestId('conflict-theirs')).toHaveText('Leur commentaire');
    await beside(lead);
    await lead.screenshot({ path: test.info().outputPath('grid-review-1366.png') });
    await lead.setViewportSize({ width: 1920, height: 1080 });
    await beside(lead);
    await lead.screenshot({ path: test.info().outputPath('grid-review-1920.png') });
    await lead.setViewportSize({ width: 1366, height: 768 });

    // « Garder la mienne » from the keyboard: the lead's sample is sent again and the focus goes on to the next cell.
    const keepSample = review.getByRole('button', { name: /^Garder la mienne — Ligne 2 · .+ — Ciblage$/ });
    await keepSample.focus();
    await lead.keyboard.press('Enter');
    await expect(cell(lead, 1, 'populationSample')).toHaveText('Généralistes', { timeout: 15_000 });
    await expect(cell(lead, 1, 'populationSample')).not.toHaveClass(/cell-conflict/);
    await expect(review.getByRole('heading', { name: PROJECT_MESSAGES.gridConflictsTitle(1) })).toBeVisible();
    await expect(review.getByRole('button', { name: /^Garder la mienne — Ligne 1 · .+ — Commentaire$/ })).toBeFocused();

    // « Prendre la leur »: the mark goes, the comment stays theirs, the review closes and the focus is on the cell.
    await lead.keyboard.press('Tab');
    await expect(review.getByRole('button', { name: /^Prendre la leur — Ligne 1 · .+ — Commentaire$/ })).toBeFocused();
    await lead.keyboard.press('Enter');
    await expect(review).toBeHidden();
    await expect(cell(lead, 0, 'comment')).not.toHaveClass(/cell-conflict/);
    await expect(cell(lead, 0, 'comment')).toHaveText('Leur commentaire');
    await expect(cell(lead, 0, 'comment')).toBeFocused();

    // Both read the chosen values after a reload: the lead's sample, the CSM's comment.
    for (const page of [csm, lead]) {
      await page.reload();
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
      await expect(cell(page, 1, 'populationSample')).toHaveText('Généralistes');
      await expect(cell(page, 0, 'comment')).toHaveText('Leur commentaire');
    }

    // All at once: the CSM changes a cell on each row, the lead (now behind) too, then keeps all of theirs.
    await setCell(csm, 'populationCategory', 'Pédiatrie', 1);
    await expect(cell(csm, 1, 'populationCategory')).toHaveText('Pédiatrie', { timeout: 15_000 });
    await setCell(csm, 'actionCode', 'CODE-CSM', 0);
    await csm.getByTestId('project-name').hover();
    await expect(cell(csm, 0, 'actionCode')).toHaveText('CODE-CSM', { timeout: 15_000 });
    await setCell(lead, 'populationCategory', 'Dermatologie', 1);
    await expect(cell(lead, 1, 'populationCategory')).toHaveClass(/cell-conflict/, { timeout: 15_000 });
    await setCell(lead, 'actionCode', 'CODE-LEAD', 0);
    await lead.getByTestId('project-name').hover();
    await expect(review.getByRole('heading', { name: PROJECT_MESSAGES.gridConflictsTitle(2) })).toBeVisible({ timeout: 15_000 });
    await review.getByRole('button', { name: CONFLICT_MESSAGES.keepAllMine }).click();
    await expect(review).toBeHidden({ timeout: 15_000 });
    await csm.reload();
    await expect(cell(csm, 1, 'populationCategory')).toHaveText('Dermatologie', { timeout: 20_000 });
    await expect(cell(csm, 0, 'actionCode')).toHaveText('CODE-LEAD');
  } finally {
    await csmContext.close();
    await leadContext.close();
  }
});

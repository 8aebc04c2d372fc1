import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';
import { createGridProject } from './project-helpers';

/**
 * A target cell typed in and not left (no Enter, no Tab, no blur) when the tab closes: the project reopened offers
 * the typed value back, like the other editors' local drafts, and resuming it saves it into its cell.
 */

let projectId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      projectId = await createGridProject(app, 'Grille du brouillon', 1);
    },
  },
});

const cell = (page: Page, row: number, column: string) => page.getByTestId(`cell-${row}-${column}`);

async function openProject(page: Page, url: string) {
  await page.goto(`${url}/project/edit/${projectId}`);
  await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
}

test('a cell typed and not left when the tab closes is offered back on reopening, and saved once resumed', async ({ app }) => {
  const page = app.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.url, 'CSM');
  await openProject(page, app.url);
  await cell(page, 0, 'populationSample').hover();
  await page.getByTestId('edit-populationSample').fill('Cardiologues tapés');
  // The draft is written shortly after the typing (lib/local-drafts.ts): the tab closes once it is.
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.endsWith(`project-grid:${location.pathname.split('/').pop()}`))))
    .toHaveLength(1);
  await page.close({ runBeforeUnload: false });

  const reopened = await app.context.newPage();
  await reopened.setViewportSize({ width: 1366, height: 768 });
  await openProject(reopened, app.url);
  await expect(cell(reopened, 0, 'populationSample')).toHaveText('');
  const offer = reopened.getByTestId('grid-draft');
  await expect(offer.getByTestId('draft-resume')).toHaveText(/^Reprendre le brouillon du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/);
  await offer.getByTestId('draft-resume').click();
  await expect(cell(reopened, 0, 'populationSample')).toHaveText('Cardiologues tapés', { timeout: 15_000 });
  await expect(offer.getByTestId('draft-offer')).toHaveCount(0);

  // Saved on the server: a reload shows it, and nothing is offered any more.
  await reopened.reload();
  await expect(reopened.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
  await expect(cell(reopened, 0, 'populationSample')).toHaveText('Cardiologues tapés');
  await expect(reopened.getByTestId('grid-draft').getByTestId('draft-offer')).toHaveCount(0);
});

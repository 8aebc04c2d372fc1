import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { demoAccount, expect, signIn, test } from './fixtures';
import { createGridProject } from './project-helpers';

/**
 * Two people on one project, each in their own browser context: each sees « … modifie aussi ce projet » above the
 * header and the grid, as on audiences and groups, and the line goes when the other leaves.
 */

let projectId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      projectId = await createGridProject(app, 'Projet à deux', 1);
    },
  },
});

test('each sees the other on the project editor, and the line goes when the other leaves', async ({ app, browser }) => {
  const csm = app.page;
  await csm.setViewportSize({ width: 1366, height: 768 });
  await signIn(csm, app.url, 'CSM');
  const leadContext = await browser.newContext({
    baseURL: app.url,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1920, height: 1080 },
  });
  const lead = await leadContext.newPage();
  try {
    await signIn(lead, app.url, 'CSM_LEAD');
    for (const page of [csm, lead]) {
      await page.goto(`${app.url}/project/edit/${projectId}`);
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
    }
    await expect(csm.getByTestId('presence-line')).toHaveText(M.alsoEditing('project', demoAccount('CSM_LEAD').name));
    await expect(lead.getByTestId('presence-line')).toHaveText(M.alsoEditing('project', demoAccount('CSM').name));
    await expect(csm.getByText(`${demoAccount('CSM_LEAD').name} modifie aussi ce projet`)).toBeVisible();
    // Above the grid, not over it.
    const line = await csm.getByTestId('presence-line').boundingBox();
    const grid = await csm.getByTestId('target-grid').boundingBox();
    expect(line!.y + line!.height).toBeLessThanOrEqual(grid!.y);

    await lead.getByTestId('project-back').click();
    await expect(lead).toHaveURL(/\/projects$/);
    await expect(csm.getByTestId('presence-line')).toHaveCount(0);
  } finally {
    await leadContext.close();
  }
});

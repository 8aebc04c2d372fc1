import { expect, signIn, test } from './fixtures';
import { createGridProject } from './project-helpers';

/**
 * The project editor from the keyboard: the timeline overlay and the comments sidebar take the focus when they
 * open and give it back when Escape closes them; the delete confirmation opens on the safe answer, « Non ».
 */

let projectId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      projectId = await createGridProject(app, 'Projet au clavier', 1);
    },
  },
});

test('timeline and sidebar take the focus and Escape closes them; deleting opens on « Non »', async ({ app }) => {
  const page = app.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.url, 'CSM');
  await page.goto(`${app.url}/project/edit/${projectId}`);
  await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });

  const timelineButton = page.getByTestId('project-timeline-open');
  await timelineButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('timeline-overlay')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('timeline-overlay')).toHaveCount(0);
  await expect(timelineButton).toBeFocused();

  const commentsButton = page.getByTestId('project-comments-toggle');
  await commentsButton.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('project-side-panel');
  await expect(panel).toBeFocused();
  // Escape from a control inside the panel closes it too.
  await page.keyboard.press('Tab');
  await expect(panel.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(commentsButton).toBeFocused();

  await page.getByTestId('project-delete').click();
  await expect(page.getByTestId('confirm-no')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('project-name')).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`/project/edit/${projectId}$`));
});

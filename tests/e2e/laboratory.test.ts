import type { Page } from '@playwright/test';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { expect, test } from './fixtures';
import { lookAt } from './helpers';

const toast = (page: Page, text: string, kind = 'success') => page.locator(`.Toastify__toast--${kind}`).getByText(text, { exact: true });

/** A panel of 60 members: CRIT_01 'fort' on every third line, CRIT_02 the region. */
function panel(): string {
  const lines = ['NAME;SURNAME;GENDER;CRIT_01;CRIT_02'];
  for (let i = 0; i < 60; i += 1)
    lines.push(`Nom${i};Prénom${i};${i % 2 ? 'M' : 'F'};${i % 3 === 0 ? 'fort' : 'faible'};${i % 4 === 0 ? 'IDF' : 'Sud'}`);
  return lines.join('\r\n');
}

async function createProject(page: Page, name: string, csv: string) {
  await page.getByTestId('lab-new').click();
  await expect(page.getByTestId('lab-new-create')).toBeDisabled();
  await page.getByTestId('lab-new-name').fill(name);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('lab-new-create').click()]);
  await chooser.setFiles({ name: 'panel.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

async function addTag(page: Page, type: string, fields: { name: string; query: string; params?: string; count: string }) {
  await page.getByTestId(`lab-add-tag-${type}`).click();
  const dialog = page.getByTestId('lab-tag-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('lab-tag-name').fill(fields.name);
  if (fields.params) await dialog.getByTestId('lab-tag-params').fill(fields.params);
  await dialog.getByTestId('lab-tag-query').fill(fields.query);
  await expect(dialog.getByTestId('lab-tag-live-count')).toHaveText(fields.count);
  await dialog.getByTestId('lab-tag-apply').click();
  await expect(dialog).not.toBeAttached();
}

test.describe('laboratory projects (web host, Chromium)', () => {
  test('creates a project from a CSV, adds two tags with counts and the chart, gives an account access, deletes', async ({ signedIn }) => {
    const page = await signedIn('SALES');
    await page.getByTestId('nav-alphonse').click();
    await page.waitForURL((u) => u.pathname === '/alphonse');

    await test.step('A panel without the columns is refused for 4 s', async () => {
      await createProject(page, 'Incomplet', 'NAME;SURNAME\nA;B\n');
      await expect(toast(page, 'Missing columns : GENDER, CRIT_01', 'error')).toBeVisible();
    });

    await test.step('A panel with an unclosed quote on line 26 is refused with its line; nothing of it is kept', async () => {
      const rows = panel().split('\r\n');
      rows[25] = 'Nom24;"Prénom24;F;fort;IDF';
      await createProject(page, 'Guillemet', rows.join('\r\n'));
      await expect(toast(page, LAB_MESSAGES.panelRowRefused(26, LAB_MESSAGES.panelUnclosedQuote), 'error')).toBeVisible({ timeout: 15_000 });
      await lookAt(page, 'laboratory-panel-refused');
      await expect(page.getByRole('link', { name: 'Guillemet' })).toHaveCount(0);
      rows[25] = 'Nom24;Prénom24;F';
      await createProject(page, 'Courte', rows.join('\r\n'));
      await expect(toast(page, LAB_MESSAGES.panelRowRefused(26, LAB_MESSAGES.panelColumnCount(3, 5)), 'error')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('link', { name: 'Courte' })).toHaveCount(0);
    });

    await test.step('The panel loads; the project opens', async () => {
      await createProject(page, 'Panel cardio', panel());
      await expect(toast(page, LAB_MESSAGES.created('Panel cardio', 60, 0))).toBeVisible();
      await page.getByRole('link', { name: 'Panel cardio' }).click();
      await expect(page.getByTestId('lab-project-name')).toHaveText('Panel cardio');
    });

    await test.step("'Ajouter un tag' then 'Annuler' leaves no tag", async () => {
      await page.getByTestId('lab-add-tag-Bon Usage').click();
      const dialog = page.getByTestId('lab-tag-dialog');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: LAB_MESSAGES.cancel }).click();
      await expect(dialog).not.toBeAttached();
      await expect(page.getByTestId('lab-tags-Bon Usage')).toContainText(LAB_MESSAGES.noTag);
      await page.reload();
      await expect(page.getByTestId('lab-tags-Bon Usage')).toContainText(LAB_MESSAGES.noTag, { timeout: 15_000 });
    });

    await test.step('Two tags with queries: live counts, a mistake named by its position, Save', async () => {
      await page.getByTestId('lab-add-tag-Efficacité').click();
      const dialog = page.getByTestId('lab-tag-dialog');
      await dialog.getByTestId('lab-tag-query').fill("CRIT_01 = 'fort' and COLOR = 'x'");
      await expect(dialog.getByTestId('lab-tag-live-count')).toContainText('position 22');
      await expect(dialog.getByTestId('lab-tag-apply')).toBeDisabled();
      await dialog.getByTestId('lab-tag-name').fill('Forts prescripteurs');
      await dialog.getByTestId('lab-tag-level').selectOption('CONVINCE');
      await dialog.getByTestId('lab-tag-query').fill("CRIT_01 = 'fort'");
      await expect(dialog.getByTestId('lab-tag-live-count')).toHaveText(LAB_MESSAGES.countLabel(20));
      // The link is opened by the app: a script or free text is refused at the field.
      for (const wrong of ['javascript:alert(1)', 'ftp://x', 'notre site']) {
        await dialog.getByTestId('lab-tag-link').fill(wrong);
        await expect(dialog.getByTestId('lab-tag-link-error')).toHaveText(LAB_MESSAGES.tagLinkInvalid);
        await expect(dialog.getByTestId('lab-tag-apply')).toBeDisabled();
      }
      await dialog.getByTestId('lab-tag-link').fill('app://article/42');
      await expect(dialog.getByTestId('lab-tag-link-error')).toHaveCount(0);
      await dialog.getByTestId('lab-tag-apply').click();
      await addTag(page, 'Environnement', {
        name: 'Franciliennes',
        params: '{"g": "F"}',
        query: "GENDER = :g and CRIT_02 = 'IDF'",
        count: LAB_MESSAGES.countLabel(15),
      });
      await page.getByTestId('lab-save').click();
      await expect(toast(page, LAB_MESSAGES.projectSaved)).toBeVisible();
      await expect(page.getByTestId('lab-tag-row-Forts prescripteurs').getByTestId('lab-tag-count')).toHaveText('20');
      await expect(page.getByTestId('lab-tag-row-Franciliennes').getByTestId('lab-tag-count')).toHaveText('15');
    });

    await test.step('Stats: one bar per tag under its name, and the table', async () => {
      await page.getByTestId('lab-tab-stats').click();
      await expect(page.getByTestId('lab-chart').locator('svg .ct-bar')).toHaveCount(2);
      await expect(page.getByTestId('lab-chart').locator('.ct-label.ct-horizontal')).toHaveText(['Forts prescripteurs', 'Franciliennes']);
      const rows = page.getByTestId('lab-stat-row');
      await expect(rows).toHaveCount(2);
      await expect(rows.filter({ hasText: 'Forts prescripteurs' }).getByTestId('lab-stat-users')).toHaveText('20');
      await expect(rows.filter({ hasText: 'Franciliennes' }).getByTestId('lab-stat-users')).toHaveText('15');
    });

    await test.step('Access: search from 3 characters, Add needs a selection', async () => {
      await page.getByTestId('lab-tab-access').click();
      await page.getByTestId('lab-account-search').fill('co');
      await expect(page.getByTestId('lab-account-add')).toBeDisabled();
      await page.getByTestId('lab-account-search').fill('content-lead@');
      const result = page.getByRole('option', { name: 'content-lead@demo.backoffice.local' });
      await expect(result).toBeVisible();
      await expect(page.getByTestId('lab-account-add')).toBeDisabled();
      await result.click();
      await page.getByTestId('lab-account-add').click();
      await expect(toast(page, LAB_MESSAGES.saved)).toBeVisible();
      await expect(page.getByTestId('lab-accounts')).toContainText('content-lead@demo.backoffice.local');
    });

    await test.step('A tag deleted, then the project from the list', async () => {
      await page.getByTestId('lab-tab-tags').click();
      await page.getByTestId('lab-tag-row-Franciliennes').getByTestId('lab-tag-delete').click();
      await expect(toast(page, LAB_MESSAGES.tagDeleted)).toBeVisible();
      await page.getByRole('link', { name: `← ${LAB_MESSAGES.title}` }).click();
      const row = page.locator('[data-name="Panel cardio"]');
      await row.getByRole('button', { name: LAB_MESSAGES.delete }).click();
      await expect(page.getByRole('dialog', { name: LAB_MESSAGES.confirmDeleteTitle })).toBeVisible();
      await page.getByTestId('confirm-yes').click();
      await expect(toast(page, LAB_MESSAGES.deleted('Panel cardio'))).toBeVisible();
      await expect(row).not.toBeAttached();
    });
  });
});

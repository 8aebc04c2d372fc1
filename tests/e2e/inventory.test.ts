import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { INVENTORY_MESSAGES as M } from '@shared/messages/inventory';
import { addMonths, monthKey, monthOf, periodLabel } from '@shared/rules/inventory';
import { demoAccount, expect, test } from './fixtures';
import { signOut } from './helpers';

/** The inventory dashboard in Chromium on the web host (demo workspace: capacity seeded for every category). */

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

const current = monthOf(Date.now());
let projectId = 0;
const months = Array.from({ length: 6 }, (_, i) => monthKey(addMonths(current, i)));

/** Clicks 'Importer CSV' and answers the page's file picker with `content`. */
async function importCsv(page: Page, content: string, name = 'inventaire.csv') {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('inventory-import').click()]);
  await chooser.setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content, 'utf8') });
}

/** Nephrology books 54 000 views over the 6 months of the view (about 9 000 a month): on alert once 10 000 a month are imported. */
test.use({
  appOptions: {
    prepare: async (app) => {
      const { email, password } = demoAccount('CSM');
      const session = await fetch(`${app.apiUrl}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password }),
      });
      const { accessToken, userId } = (await session.json()) as { accessToken: { value: string }; userId: number };
      const call = async (method: string, path: string, body: unknown) => {
        const response = await fetch(`${app.apiUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${accessToken.value}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${method} ${path}: ${await response.text()}`);
        return response.json();
      };
      const project = await call('POST', '/project', {
        name: 'Néphro 2026',
        clientName: 'Labo Rein',
        keyAccount: userId,
        actor: 'Laboratoire',
        lines: 1,
      });
      projectId = project.id;
      const end = addMonths(current, 6);
      await call('PUT', `/target/${project.targets[0].id}/properties`, {
        populationCategory: 'Néphrologie',
        goal: { views: 54000 },
        startDate: Date.UTC(current.year, current.month - 1, 1) / 1000,
        endDate: Date.UTC(end.year, end.month - 1, 1) / 1000 - 86400,
      });
    },
  },
});

test.describe('inventory dashboard (web host, Chromium)', () => {
  test('CSM_LEAD finds it in the Projets menu and reads the dashboard, without the ADMIN buttons', async ({ signedIn }) => {
    const page = await signedIn('CSM_LEAD');
    await page.getByTestId('nav-projects').locator('summary').click();
    await page.getByTestId('nav-projects.inventory').click();
    await page.waitForURL((url) => url.pathname === '/inventory');
    // The menu closed once the page changed: it does not hide the dashboard's first buttons.
    await expect(page.getByTestId('nav-projects')).not.toHaveAttribute('open');
    await expect(page.getByTestId('inventory-label')).toHaveText(periodLabel('month', current));
    await expect(page.getByTestId('inventory-tooltip')).toHaveAttribute('title', M.totalTooltip);
    await expect(page.getByTestId('inventory-row-Specialty-1')).toBeVisible();
    // General medicine is the first row and the first option; 'Médecin' is not an option.
    await expect(page.locator('.inventory-row').first()).toHaveAttribute('data-testid', 'inventory-row-Specialty-1');
    const options = await page.getByTestId('inventory-specialty').locator('option').allTextContents();
    expect(options.slice(0, 2)).toEqual([M.allSpecialties, 'Médecine générale']);
    expect(options).not.toContain('Médecin');
    await expect(page.getByTestId('inventory-import')).toHaveCount(0);
    await expect(page.getByTestId('inventory-export')).toHaveCount(0);
    await expect(page.getByTestId('inventory-availability')).toHaveCount(0);
    // The arrows move by 6 months; the quarter view shows the year with the §9 labels.
    await page.getByTestId('inventory-next').click();
    await expect(page.getByTestId('inventory-label')).toHaveText(periodLabel('month', addMonths(current, 6)));
    await page.getByTestId('inventory-previous').click();
    await page.getByTestId('inventory-view').selectOption('quarter');
    await expect(page.getByTestId('inventory-table').locator('thead th')).toHaveText([
      M.categoryColumn,
      'Janvier - Mars',
      'Avril - Juin',
      'Juillet - Septembre',
      'Octobre - Décembre',
    ]);
    await page.getByTestId('inventory-view').selectOption('month');
    await signOut(page);
  });

  test('ADMIN imports a CSV, sees rows, an alert and the quarter modal, searches availability both ways, exports', async ({ signedIn }) => {
    const page = await signedIn('ADMIN');
    await page.goto('/inventory');
    await expect(page.getByTestId('inventory-row-Specialty-1')).toBeVisible();

    await test.step('a bad CSV shows the exact message', async () => {
      await importCsv(page, 'Profession;Nom;26/01\n2;x;1\n');
      await expect(page.getByText('Missing columns : Specialty')).toBeVisible();
      await importCsv(page, 'Profession;Specialty;Nom;janvier\n;1;x;1\n');
      await expect(page.getByText(M.wrongDateFormat)).toBeVisible();
    });

    await test.step('import', async () => {
      // Neurosurgery (34): plenty in month 1, nearly nothing left in the other months for a demo-free category.
      const file = [
        `Profession;Specialty;Nom;${months.join(';')}`,
        `;34;Neurochirurgie;${['100 000', '1000', '1000', '1000', '1000', '1000'].join(';')}`,
        `;Néphrologie;;${Array(6).fill('10 000').join(';')}`,
      ].join('\r\n');
      await importCsv(page, file);
      await expect(page.getByText(M.processing).first()).toBeVisible();
      await expect(page.getByText(M.uploaded).first()).toBeVisible();
      const row = page.getByTestId('inventory-row-Specialty-34');
      await expect(row.locator('td').first()).toHaveText('100 000');
    });

    await test.step('an alert', async () => {
      const row = page.getByTestId('inventory-row-Specialty-33');
      await expect(row).toHaveAttribute('data-alert', 'true');
      await expect(row.getByTestId('inventory-alert')).toHaveText(M.alert);
      await expect(page.getByTestId('inventory-row-Specialty-34')).toHaveAttribute('data-alert', 'false');
    });

    await test.step('the row modal: the annual quarter view, year navigation', async () => {
      await page.getByTestId('inventory-row-Specialty-34').click();
      const dialog = page.getByTestId('inventory-row-dialog');
      await expect(dialog.getByTestId('inventory-year')).toHaveText(String(current.year));
      await expect(dialog.getByTestId('inventory-quarters').locator('li')).toHaveCount(4);
      await expect(dialog.getByTestId('inventory-footer')).toContainText(`${M.remaining} :`);
      await expect(dialog.getByTestId('inventory-footer')).toContainText(`${M.consumption} : 0 %`);
      await dialog.getByTestId('inventory-year-next').click();
      await expect(dialog.getByTestId('inventory-year')).toHaveText(String(current.year + 1));
      await dialog.getByRole('button', { name: M.close }).click();
      await expect(dialog).toHaveCount(0);
    });

    await test.step('availability, both ways, and the form rules', async () => {
      await page.getByTestId('inventory-availability').click();
      const dialog = page.getByTestId('inventory-availability-dialog');
      await expect(dialog.getByRole('heading')).toHaveText(M.availabilityTitle);
      await dialog.getByTestId('availability-submit').click();
      await expect(page.getByText(M.fillAllFields)).toBeVisible();
      await dialog.getByTestId('availability-specialty').selectOption({ label: 'Neurochirurgie' });
      const yyyyMm = (key: string) => `20${key.slice(0, 2)}-${key.slice(3, 5)}`;
      await dialog.getByTestId('availability-start').fill(yyyyMm(months[1]));
      await dialog.getByTestId('availability-end').fill(yyyyMm(months[0]));
      await dialog.getByTestId('availability-sold').fill('1a2');
      await expect(dialog.getByTestId('availability-sold')).toHaveValue('12');
      await dialog.getByTestId('availability-submit').click();
      await expect(page.getByText(M.startAfterEnd)).toBeVisible();
      // Month 1 only: 100 000 left, 40 000 sold: 60 000 too many.
      await dialog.getByTestId('availability-start').fill(yyyyMm(months[0]));
      await dialog.getByTestId('availability-sold').fill('40000');
      await dialog.getByTestId('availability-submit').click();
      await expect(dialog.getByTestId('availability-result')).toHaveText('Sur cette période vous avez 60 000 vues de trop.');
      // Months 1-2: 20 000 a month; month 2 has 1 000 left.
      await dialog.getByTestId('availability-end').fill(yyyyMm(months[1]));
      await dialog.getByTestId('availability-submit').click();
      await expect(dialog.getByTestId('availability-result')).toHaveText(new RegExp(`^${M.noMoreInventory.replace(/[()/]/g, '\\$&')}\\S+ \\d{4}$`));
      await dialog.getByRole('button', { name: 'Annuler' }).click();
    });

    await test.step('export', async () => {
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('inventory-export').click()]);
      expect(download.suggestedFilename()).toBe('inventaire.csv');
      const lines = readFileSync((await download.path())!, 'utf8')
        .replace(/^\uFEFF/, '')
        .split('\r\n');
      expect(lines[0]).toBe(`Profession;Specialty;Nom;${Array.from({ length: 12 }, (_, i) => monthKey(addMonths(current, i))).join(';')}`);
      // The file replaced its 6 months (of every category) and kept the demo's later months.
      expect(lines.find((line) => line.startsWith('Médecin;34;'))).toMatch(/^Médecin;34;Neurochirurgie;100000;1000;1000;1000;1000;1000(;\d+){6}$/);
    });

    await test.step('the project editor checks a target against the inventory, its own booking left out', async () => {
      await page.goto(`/project/edit/${projectId}`);
      await page.getByTestId('target-inventory-0').click();
      // 10 000 a month imported, 9 000 a month sold by the target itself: available, 1 000 left each month.
      await expect(page.getByTestId('target-inventory-result')).toHaveText(M.checkOk);
      await expect(page.getByTestId('target-inventory-dialog').locator('li')).toHaveCount(6);
      await expect(page.getByTestId('target-inventory-dialog').locator('li').first()).toContainText(': +1 000');
    });
  });
});

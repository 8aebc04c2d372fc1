import { INVENTORY_MESSAGES as M } from '@shared/messages/inventory';
import { INVENTORY_PAGE_SIZE, addMonths, monthKey, monthOf } from '@shared/rules/inventory';
import { demoAccount, expect, test } from './fixtures';

/**
 * Issue 51 item 11: the dashboard reads its categories a page at a time (POST /inventory answers 100 and their
 * count); « Afficher plus » brings the next page. Its own host: 150 categories imported over the 6 months shown
 * (an import replaces the months it names for every category, so these are the view's only rows).
 */
const CATEGORIES = 150;
const current = monthOf(Date.now());
const months = Array.from({ length: 6 }, (_, i) => monthKey(addMonths(current, i)));

test.use({
  appOptions: {
    prepare: async (app) => {
      const { email, password } = demoAccount('ADMIN');
      const session = await fetch(`${app.apiUrl}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password }),
      });
      const { accessToken } = (await session.json()) as { accessToken: { value: string } };
      const lines = [`Profession;Specialty;Nom;${months.join(';')}`];
      for (let i = 0; i < CATEGORIES; i++)
        lines.push(`Médecin;${9000 + i};Catégorie ${String(i).padStart(3, '0')};${months.map(() => 50000).join(';')}`);
      const form = new FormData();
      form.append('file', new Blob([lines.join('\r\n')]), 'inventaire.csv');
      const uploaded = await fetch(`${app.apiUrl}/inventory/upload`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${accessToken.value}` },
        body: form,
      });
      if (!uploaded.ok) throw new Error(`PUT /inventory/upload: ${await uploaded.text()}`);
    },
  },
});

test('the inventory dashboard shows 100 categories, then the next ones with « Afficher plus »', async ({ signedIn }) => {
  const page = await signedIn('CSM_LEAD');
  await page.goto('/inventory');
  const rows = page.locator('.inventory-row');
  await expect(rows).toHaveCount(INVENTORY_PAGE_SIZE);
  await expect(rows.first()).toHaveAttribute('data-testid', 'inventory-row-Specialty-9000');
  const more = page.getByTestId('inventory-more');
  await expect(more).toHaveText(M.showMore(INVENTORY_PAGE_SIZE, CATEGORIES));
  await more.click();
  await expect(rows).toHaveCount(CATEGORIES);
  await expect(rows.last()).toHaveAttribute('data-testid', `inventory-row-Specialty-${9000 + CATEGORIES - 1}`);
  await expect(more).toHaveCount(0);
  // Another view reads its first page again.
  await page.getByTestId('inventory-view').selectOption('quarter');
  await expect(rows).toHaveCount(INVENTORY_PAGE_SIZE);
  await expect(more).toBeVisible();
});

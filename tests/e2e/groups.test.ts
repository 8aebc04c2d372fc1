import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { GROUP_MESSAGES } from '@shared/messages';
import { demoAccount, expect, signIn, test } from './fixtures';
import { changeAccountElsewhere, signOut } from './helpers';
import { adminApi, ingest } from './population';

const FICHES = Array.from({ length: 40 }, (_, n) => `Fiche cardio ${String(n + 1).padStart(2, '0')}`);

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      await ingest(
        app,
        [
          { externalId: 'g-1', email: 'g1@exemple.fr', feeds: ['Neurologie'], apps: ['Neuro Quiz'] },
          { externalId: 'g-2', email: 'g2@exemple.fr' },
        ],
        [...FICHES.map((document) => ({ user: 'g-2', document })), { user: 'g-1', document: 'Guide neuro' }],
      );
      // More groups than one page, to scroll.
      const call = await adminApi(app);
      for (let n = 1; n <= 30; n += 1)
        await call('POST', '/v2/group', { name: `Lot ${String(n).padStart(2, '0')}`, label: n % 2 ? 'OrGroup' : 'AndGroup' });
    },
  },
});

const toast = (page: Page, text: string, kind = 'success') => page.locator(`.Toastify__toast--${kind}`, { hasText: text });

test.describe('groups (web host, Chromium)', () => {
  test('menu entries by role: Groupes for ADMIN only, Comptes de test for CSM and CSM_LEAD together; the guard agrees', async ({ app }) => {
    const { page, url } = app;
    const nav = page.getByTestId('main-nav');
    await signIn(page, url, 'ADMIN');
    await nav.getByTestId('nav-audiences').click();
    await expect(nav.getByTestId('nav-audiences.groups')).toHaveText('Groupes');
    await expect(nav.getByTestId('nav-audiences.testAccounts')).toHaveText('Comptes de test');
    await signOut(page);

    for (const role of ['CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR'] as const) {
      await signIn(page, url, role);
      await expect(nav.getByTestId('nav-audiences.groups'), role).toHaveCount(0);
      await expect(nav.getByTestId('nav-audiences.testAccounts'), role).toHaveCount(0);
      await page.goto(`${url}/groupes`);
      await page.waitForURL((u) => u.pathname === '/403');
      await signOut(page);
    }
    // The group editor: audience writers only (CSM_LEAD and ADMIN).
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/group/OrGroup/1`);
    await page.waitForURL((u) => u.pathname === '/403');
    await signOut(page);

    const csm = demoAccount('CSM').email;
    await changeAccountElsewhere(app, csm, ['CSM', 'CSM_LEAD']);
    await signIn(page, url, 'CSM');
    await nav.getByTestId('nav-audiences').click();
    await expect(nav.getByTestId('nav-audiences.testAccounts')).toHaveCount(1);
    await expect(nav.getByTestId('nav-audiences.groups')).toHaveCount(0);
    await changeAccountElsewhere(app, csm, ['CSM']);
    await signOut(page);
  });

  test('lists, scrolls, creates a group, adds items (group-page order, documents pre-selected), 40-item message, saves, exports, duplicates, deletes', async ({
    app,
    signedIn,
  }) => {
    const { url } = app;
    const page = await signedIn('ADMIN');
    await page.goto(`${url}/groupes`);
    await expect(page.getByTestId('groups-total')).toHaveText('30 groupes');
    await expect(page.locator('[data-testid^="group-row-"]')).toHaveCount(25);
    // Infinite scroll: the next page comes when the bottom shows.
    await page.locator('.sentinel').scrollIntoViewIfNeeded();
    await expect(page.locator('[data-testid^="group-row-"]')).toHaveCount(30);

    // New group: Create disabled while the name is empty (spaces count as empty).
    await page.getByTestId('groups-new').click();
    const create = page.getByTestId('group-new-create');
    await expect(create).toBeDisabled();
    await page.getByTestId('group-new-name').fill('   ');
    await expect(create).toBeDisabled();
    await page.getByTestId('group-new-name').fill('Appétence cardio');
    await expect(create).toBeEnabled();
    await create.click();
    await page.waitForURL((u) => /^\/group\/OrGroup\/\d+$/.test(u.pathname));
    const groupId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(toast(page, 'Groupe Appétence cardio créé')).toBeVisible();
    await expect(page.getByTestId('group-name')).toHaveValue('Appétence cardio');

    // Search: Feed, then Document, then App; the found documents come pre-selected, the others not.
    await page.getByTestId('group-search').fill('neuro');
    const results = page.getByTestId('group-search-results');
    await expect(results.locator('.node-label')).toHaveText(['Feed', 'Document', 'App']);
    const boxes = results.locator('input[type="checkbox"]');
    await expect(boxes.nth(0)).not.toBeChecked();
    await expect(boxes.nth(1)).toBeChecked();
    await expect(boxes.nth(2)).not.toBeChecked();
    // The term is bolded (3 characters or more).
    await expect(results.locator('b').first()).toHaveText('Neuro');
    await boxes.nth(0).check();
    await page.getByTestId('group-search-add').click();
    await expect(page.getByTestId('group-member')).toHaveCount(2);

    // Documents only: 100 at a time, all 40 pre-selected. 42 members: the display stops at 40, with the message.
    await page.getByTestId('group-search-label').selectOption('Document');
    await page.getByTestId('group-search').fill('Fiche cardio');
    await expect(results.locator('input[type="checkbox"]:checked')).toHaveCount(40);
    await page.getByTestId('group-search-add').click();
    await expect(page.getByTestId('group-member')).toHaveCount(40);
    await expect(page.getByTestId('group-limit')).toHaveText(GROUP_MESSAGES.groupDisplayLimited);
    await page.getByTestId('group-save').click();
    await expect(toast(page, 'Groupe enregistré')).toBeVisible();

    // Removing: 41 members, still capped; then down to exactly 40, still the message; 39: none.
    await page
      .getByTestId('group-member')
      .first()
      .getByRole('button', { name: /Retirer/ })
      .click();
    await page
      .getByTestId('group-member')
      .first()
      .getByRole('button', { name: /Retirer/ })
      .click();
    await expect(page.getByTestId('group-limit')).toHaveCount(1);
    await page.getByTestId('group-save').click();
    await page.reload();
    await expect(page.getByTestId('group-member')).toHaveCount(40);
    await expect(page.getByTestId('group-limit')).toHaveText('Affichage limité à 40 items');
    await page
      .getByTestId('group-member')
      .first()
      .getByRole('button', { name: /Retirer/ })
      .click();
    await expect(page.getByTestId('group-limit')).toHaveCount(0);
    await page.getByTestId('group-save').click();
    await page.reload();
    await expect(page.getByTestId('group-member')).toHaveCount(39);
    await expect(page.getByTestId('group-limit')).toHaveCount(0);

    // The history: who, what, newest first.
    const entries = page.getByTestId('history-entry');
    await expect(entries).toHaveCount(4);
    expect(await entries.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')))).toEqual([
      'update',
      'update',
      'update',
      'create',
    ]);
    await expect(entries.first()).toContainText('Alice Admin');
    await expect(entries.last()).toContainText('Création');

    // Back in the list: name, labels, audience count; the row link opens the editor.
    await page.goto(`${url}/groupes`);
    await page.getByTestId('groups-search').fill('Appétence');
    await expect(page.locator('[data-testid^="group-row-"]')).toHaveCount(1);
    const row = page.getByTestId(`group-row-${groupId}`);
    await expect(row.locator('td').nth(1)).toHaveText('Document');
    await expect(row.locator('td').nth(2)).toHaveText('0');
    await expect(page.getByTestId(`group-link-${groupId}`)).toHaveAttribute('href', `/group/OrGroup/${groupId}`);

    // CSV export through main, downloaded by the browser.
    const downloading = page.waitForEvent('download');
    await page.getByTestId('groups-export').click();
    const download = await downloading;
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('id;name;label;labels;audiencesCount');
    expect(file).toContain(`${groupId};Appétence cardio;OrGroup;Document;0`);
    await expect(toast(page, '1 ligne exportée dans')).toBeVisible();

    // Duplicate, then delete the copy (asks first).
    await page.getByTestId(`group-menu-${groupId}`).click();
    await page.getByTestId(`group-duplicate-${groupId}`).click();
    await expect(toast(page, 'Groupe Appétence cardio dupliqué')).toBeVisible();
    const copy = page.locator('tr[data-name="Appétence cardio (copie)"]');
    await expect(copy).toHaveCount(1);
    const copyId = Number((await copy.getAttribute('data-testid'))!.replace('group-row-', ''));
    await page.getByTestId(`group-menu-${copyId}`).click();
    await page.getByTestId(`group-delete-${copyId}`).click();
    await expect(page.getByTestId(`group-delete-${copyId}-prompt`)).toContainText('Supprimer le groupe « Appétence cardio (copie) » ?');
    await page.getByTestId(`group-delete-${copyId}-prompt`).getByRole('button', { name: 'Oui' }).click();
    await expect(toast(page, 'Groupe Appétence cardio (copie) supprimé')).toBeVisible();
    await expect(copy).toHaveCount(0);
    await page.reload();
    await page.getByTestId('groups-search').fill('Appétence');
    await expect(page.locator('[data-testid^="group-row-"]')).toHaveCount(1);
    await page.getByTestId('groups-search').fill('introuvable');
    await expect(page.locator('.table-empty')).toHaveText('Aucun groupe ne correspond à la recherche');
  });
  test('an emptied group name is refused at the field, nothing is saved, and the reload keeps the old name', async ({ app }) => {
    const { page, url } = app;
    // Still signed in as ADMIN when the previous test ran.
    if ((await page.getByTestId('logout').count()) === 0) await signIn(page, url, 'ADMIN');
    await page.goto(`${url}/groupes`);
    await page.getByTestId('groups-search').fill('Lot 07');
    const row = page.locator('tr[data-name="Lot 07"]');
    await expect(row).toHaveCount(1);
    const groupId = Number((await row.getAttribute('data-testid'))!.replace('group-row-', ''));
    await page.goto(`${url}/group/OrGroup/${groupId}`);
    const name = page.getByTestId('group-name');
    await expect(name).toHaveValue('Lot 07');

    for (const typed of ['', '   ']) {
      await name.fill(typed);
      await page.getByTestId('group-save').click();
      // The message is at the field, which is marked invalid; no success toast.
      await expect(page.getByTestId('group-name-error')).toHaveText(GROUP_MESSAGES.groupNameBlank);
      await expect(name).toHaveAttribute('aria-invalid', 'true');
      await expect(toast(page, 'Groupe enregistré')).toHaveCount(0);
    }
    // Typing a name again clears the message.
    await name.fill('Lot 07 bis');
    await expect(page.getByTestId('group-name-error')).toHaveCount(0);
    await name.fill('');
    await page.getByTestId('group-save').click();
    await expect(page.getByTestId('group-name-error')).toBeVisible();

    await page.reload();
    await expect(name).toHaveValue('Lot 07');
    await expect(page.getByTestId('group-name-error')).toHaveCount(0);
    await expect
      .poll(() => page.getByTestId('history-entry').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action'))))
      .toEqual(['create']);
    await signOut(page);
  });
});

import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_MESSAGES } from '@shared/messages';
import { demoAccount, launchChromium, openWebApp, signIn, type WebApp } from './fixtures';
import { changeAccountElsewhere, signOut } from './helpers';
import { adminApi, ingest } from './population';

let browser: Browser;
let app: WebApp;

const FICHES = Array.from({ length: 40 }, (_, n) => `Fiche cardio ${String(n + 1).padStart(2, '0')}`);

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
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
  for (let n = 1; n <= 30; n += 1) await call('POST', '/v2/group', { name: `Lot ${String(n).padStart(2, '0')}`, label: n % 2 ? 'OrGroup' : 'AndGroup' });
});
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

const toast = (text: string, kind = 'success') => app.page.locator(`.Toastify__toast--${kind}`, { hasText: text });

describe('groups (web host, Chromium)', () => {
  it('menu entries by role: Groupes for ADMIN only, Comptes de test for CSM and CSM_LEAD together; the guard agrees', async () => {
    const { page, url } = app;
    const nav = page.getByTestId('main-nav');
    await signIn(page, url, 'ADMIN');
    await nav.getByTestId('nav-audiences').click();
    await expect.poll(() => nav.getByTestId('nav-audiences.groups').textContent()).toBe('Groupes');
    expect(await nav.getByTestId('nav-audiences.testAccounts').textContent()).toBe('Comptes de test');
    await signOut(page);

    for (const role of ['CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR'] as const) {
      await signIn(page, url, role);
      expect(await nav.getByTestId('nav-audiences.groups').count(), role).toBe(0);
      expect(await nav.getByTestId('nav-audiences.testAccounts').count(), role).toBe(0);
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
    await expect.poll(() => nav.getByTestId('nav-audiences.testAccounts').count()).toBe(1);
    expect(await nav.getByTestId('nav-audiences.groups').count()).toBe(0);
    await changeAccountElsewhere(app, csm, ['CSM']);
    await signOut(page);
  });

  it('lists, scrolls, creates a group, adds items (group-page order, documents pre-selected), 40-item message, saves, exports, duplicates, deletes', async () => {
    const { page, url } = app;
    await signIn(page, url, 'ADMIN');
    await page.goto(`${url}/groupes`);
    await expect.poll(() => page.getByTestId('groups-total').textContent()).toBe('30 groupes');
    expect(await page.locator('[data-testid^="group-row-"]').count()).toBe(25);
    // Infinite scroll: the next page comes when the bottom shows.
    await page.locator('.sentinel').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-testid^="group-row-"]').count()).toBe(30);

    // New group: Create disabled while the name is empty (spaces count as empty).
    await page.getByTestId('groups-new').click();
    const create = page.getByTestId('group-new-create');
    expect(await create.isDisabled()).toBe(true);
    await page.getByTestId('group-new-name').fill('   ');
    expect(await create.isDisabled()).toBe(true);
    await page.getByTestId('group-new-name').fill('Appétence cardio');
    expect(await create.isDisabled()).toBe(false);
    await create.click();
    await page.waitForURL((u) => /^\/group\/OrGroup\/\d+$/.test(u.pathname));
    const groupId = Number(new URL(page.url()).pathname.split('/').pop());
    await toast('Groupe Appétence cardio créé').waitFor();
    expect(await page.getByTestId('group-name').inputValue()).toBe('Appétence cardio');

    // Search: Feed, then Document, then App; the found documents come pre-selected, the others not.
    await page.getByTestId('group-search').fill('neuro');
    const results = page.getByTestId('group-search-results');
    await expect.poll(() => results.locator('.node-label').allTextContents()).toEqual(['Feed', 'Document', 'App']);
    const boxes = results.locator('input[type="checkbox"]');
    expect(await Promise.all([0, 1, 2].map((n) => boxes.nth(n).isChecked()))).toEqual([false, true, false]);
    // The term is bolded (3 characters or more).
    expect(await results.locator('b').first().textContent()).toBe('Neuro');
    await boxes.nth(0).check();
    await page.getByTestId('group-search-add').click();
    await expect.poll(() => page.getByTestId('group-member').count()).toBe(2);

    // Documents only: 100 at a time, all 40 pre-selected. 42 members: the display stops at 40, with the message.
    await page.getByTestId('group-search-label').selectOption('Document');
    await page.getByTestId('group-search').fill('Fiche cardio');
    await expect.poll(() => results.locator('input[type="checkbox"]:checked').count()).toBe(40);
    await page.getByTestId('group-search-add').click();
    await expect.poll(() => page.getByTestId('group-member').count()).toBe(40);
    expect(await page.getByTestId('group-limit').textContent()).toBe(GROUP_MESSAGES.groupDisplayLimited);
    await page.getByTestId('group-save').click();
    await toast('Groupe enregistré').waitFor();

    // Removing: 41 members, still capped; then down to exactly 40, still the message; 39: none.
    await page.getByTestId('group-member').first().getByRole('button', { name: /Retirer/ }).click();
    await page.getByTestId('group-member').first().getByRole('button', { name: /Retirer/ }).click();
    await expect.poll(() => page.getByTestId('group-limit').count()).toBe(1);
    await page.getByTestId('group-save').click();
    await page.reload();
    await expect.poll(() => page.getByTestId('group-member').count()).toBe(40);
    expect(await page.getByTestId('group-limit').textContent()).toBe('Affichage limité à 40 items');
    await page.getByTestId('group-member').first().getByRole('button', { name: /Retirer/ }).click();
    await expect.poll(() => page.getByTestId('group-limit').count()).toBe(0);
    await page.getByTestId('group-save').click();
    await page.reload();
    await expect.poll(() => page.getByTestId('group-member').count()).toBe(39);
    expect(await page.getByTestId('group-limit').count()).toBe(0);

    // The history: who, what, newest first.
    const entries = page.getByTestId('history-entry');
    await expect.poll(() => entries.count()).toBe(4);
    expect(await entries.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')))).toEqual(['update', 'update', 'update', 'create']);
    expect(await entries.first().textContent()).toContain('Alice Admin');
    expect(await entries.last().textContent()).toContain('Création');

    // Back in the list: name, labels, audience count; the row link opens the editor.
    await page.goto(`${url}/groupes`);
    await page.getByTestId('groups-search').fill('Appétence');
    await expect.poll(() => page.locator('[data-testid^="group-row-"]').count()).toBe(1);
    const row = page.getByTestId(`group-row-${groupId}`);
    expect(await row.locator('td').nth(1).textContent()).toBe('Document');
    expect(await row.locator('td').nth(2).textContent()).toBe('0');
    expect(await page.getByTestId(`group-link-${groupId}`).getAttribute('href')).toBe(`/group/OrGroup/${groupId}`);

    // CSV export through main, downloaded by the browser.
    const downloading = page.waitForEvent('download');
    await page.getByTestId('groups-export').click();
    const download = await downloading;
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('id;name;label;labels;audiencesCount');
    expect(file).toContain(`${groupId};Appétence cardio;OrGroup;Document;0`);
    await toast('1 ligne exportée dans').waitFor();

    // Duplicate, then delete the copy (asks first).
    await page.getByTestId(`group-menu-${groupId}`).click();
    await page.getByTestId(`group-duplicate-${groupId}`).click();
    await toast('Groupe Appétence cardio dupliqué').waitFor();
    const copy = page.locator('tr[data-name="Appétence cardio (copie)"]');
    await expect.poll(() => copy.count()).toBe(1);
    const copyId = Number((await copy.getAttribute('data-testid'))!.replace('group-row-', ''));
    await page.getByTestId(`group-menu-${copyId}`).click();
    await page.getByTestId(`group-delete-${copyId}`).click();
    expect(await page.getByTestId(`group-delete-${copyId}-prompt`).textContent()).toContain('Supprimer le groupe « Appétence cardio (copie) » ?');
    await page.getByTestId(`group-delete-${copyId}-prompt`).getByRole('button', { name: 'Oui' }).click();
    await toast('Groupe Appétence cardio (copie) supprimé').waitFor();
    await expect.poll(() => copy.count()).toBe(0);
    await page.reload();
    await page.getByTestId('groups-search').fill('Appétence');
    await expect.poll(() => page.locator('[data-testid^="group-row-"]').count()).toBe(1);
    await page.getByTestId('groups-search').fill('introuvable');
    await expect.poll(() => page.locator('.table-empty').textContent()).toBe('Aucun groupe ne correspond à la recherche');
  });
  it('an emptied group name is refused at the field, nothing is saved, and the reload keeps the old name (issue 21 item 12)', async () => {
    const { page, url } = app;
    // Still signed in as ADMIN when the previous test ran.
    if ((await page.getByTestId('logout').count()) === 0) await signIn(page, url, 'ADMIN');
    await page.goto(`${url}/groupes`);
    await page.getByTestId('groups-search').fill('Lot 07');
    const row = page.locator('tr[data-name="Lot 07"]');
    await expect.poll(() => row.count()).toBe(1);
    const groupId = Number((await row.getAttribute('data-testid'))!.replace('group-row-', ''));
    await page.goto(`${url}/group/OrGroup/${groupId}`);
    const name = page.getByTestId('group-name');
    await expect.poll(() => name.inputValue()).toBe('Lot 07');

    for (const typed of ['', '   ']) {
      await name.fill(typed);
      await page.getByTestId('group-save').click();
      // The message is at the field, which is marked invalid; no success toast.
      await expect.poll(() => page.getByTestId('group-name-error').textContent()).toBe(GROUP_MESSAGES.groupNameBlank);
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await toast('Groupe enregistré').count()).toBe(0);
    }
    // Typing a name again clears the message.
    await name.fill('Lot 07 bis');
    await expect.poll(() => page.getByTestId('group-name-error').count()).toBe(0);
    await name.fill('');
    await page.getByTestId('group-save').click();
    await page.getByTestId('group-name-error').waitFor();

    await page.reload();
    await expect.poll(() => name.inputValue()).toBe('Lot 07');
    expect(await page.getByTestId('group-name-error').count()).toBe(0);
    await expect.poll(() => page.getByTestId('history-entry').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')))).toEqual(['create']);
    await signOut(page);
  });
});

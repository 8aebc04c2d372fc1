import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import type { Role } from '@shared/roles';
import { demoAccount, expect, signIn, test, type WebApp } from './fixtures';
import { lookAt } from './helpers';

const csv = (name: string) => fileURLToPath(new URL(`../fixtures/csv/${name}`, import.meta.url));

/** A token of a demo account on the embedded API, to put the data a test needs in place. */
async function tokenOf(app: WebApp, role: Role): Promise<string> {
  const response = await fetch(`${app.apiUrl}/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: demoAccount(role).email, password: demoAccount(role).password }),
  });
  const body = (await response.json()) as { accessToken: { value: string } };
  return body.accessToken.value;
}
async function api(app: WebApp, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${app.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.json();
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      // Thirty app users: odd ones are doctors (profession 2), every third one an expert.
      const users = Array.from({ length: 30 }, (_, index) => {
        const n = index + 1;
        return {
          externalId: `e2e-${n}`,
          email: `e2e.user${n}@exemple.fr`,
          name: `E2E ${n}`,
          professionId: n % 2 ? 2 : 4,
          area: 'french',
          roles: n % 3 === 0 ? ['ROLE_EXPERT'] : [],
        };
      });
      await api(app, await tokenOf(app, 'ADMIN'), 'POST', '/population/users', users);
    },
  },
});

const toast = (page: Page, kind: 'success' | 'warning' | 'error' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

async function signOut(page: Page) {
  await page.getByTestId('logout').click();
  await page.getByRole('button', { name: 'Oui' }).click();
  await page.waitForURL((u) => u.pathname === '/login');
}

test.describe('audience screens (web host, Chromium)', () => {
  test('shows the Audiences menu to its roles, plain names without actions to readers, and /403 on the editor', async ({ app }) => {
    const { page, url } = app;
    const lead = await tokenOf(app, 'CSM_LEAD');
    const made = (await api(app, lead, 'POST', '/audience', { name: 'Lecture seule', type: 'story' })) as { id: number };

    await signIn(page, url, 'SALES');
    // Every role lands on the advert list (spec §2); the audience list is in the Audiences menu.
    expect(new URL(page.url()).pathname).toBe('/adverts');
    await page.getByTestId('nav-audiences').click();
    await expect(page.getByTestId('nav-audiences.list')).toHaveText('Audiences');
    await page.getByTestId('nav-audiences.list').click();
    await page.waitForURL((u) => u.pathname === '/audiences');
    const row = page.locator(`tr[data-testid="audience-row-${made.id}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByRole('link')).toHaveCount(0);
    await expect(page.getByTestId(`audience-menu-${made.id}`)).toHaveCount(0);
    await expect(page.getByTestId('audiences-create')).toHaveCount(0);
    await expect(page.getByTestId('audiences-bulk-delete')).toHaveCount(0);
    await page.goto(`${url}/audiences/${made.id}`);
    await page.waitForURL((u) => u.pathname === '/403');
    await signOut(page);

    await signIn(page, url, 'CONTENT_CREATOR_LEAD');
    await expect(page.getByTestId('nav-audiences')).toHaveCount(0);
    await page.goto(`${url}/audiences/new`);
    await page.waitForURL((u) => u.pathname === '/403');
    await signOut(page);

    // CSM_LEAD edits, without the size (ADMIN only).
    await signIn(page, url, 'CSM_LEAD');
    await page.goto(`${url}/audiences`);
    await page.getByTestId(`audience-link-${made.id}`).click();
    await expect(page.getByTestId('audience-editor')).toBeVisible();
    await expect(page.getByTestId('live-size-panel')).toHaveCount(0);
    await expect(page.getByTestId('live-tester')).toHaveCount(1);
    await expect(page.getByTestId('audience-adverts')).toContainText('Aucune publicité');
    await signOut(page);
  });

  test('creates an audience with two labels, shows its live size and tester, attaches an e-mail list, saves, lists, debugs and deletes it', async ({
    app,
    signedIn,
  }) => {
    const { url } = app;
    const page = await signedIn('ADMIN');
    await page.waitForURL((u) => u.pathname === '/adverts');

    await test.step("Opening 'new' without the create menu", async () => {
      // Opening 'new' without the create menu: nothing in memory, back to the list with the warning.
      await page.goto(`${url}/audiences/new`);
      await expect(toast(page, 'warning', AUDIENCE_MESSAGES.audienceNotSaved)).toBeVisible();
      await page.waitForURL((u) => u.pathname === '/audiences');
      // An audience that does not load.
      await page.goto(`${url}/audiences/987654`);
      await expect(toast(page, 'warning', AUDIENCE_MESSAGES.audienceLoadFailed)).toBeVisible();
      await page.waitForURL((u) => u.pathname === '/audiences');

      await page.getByTestId('audiences-create').selectOption('timeline');
      await page.waitForURL((u) => u.pathname === '/audiences/new');
      await expect(page.getByTestId('audience-type')).toHaveValue('timeline');
      await expect(page.getByTestId('audience-expert-warning')).toHaveText(AUDIENCE_MESSAGES.noExpertTarget);
      // Nothing but the area: refused.
      await page.getByTestId('audience-save').click();
      await expect(toast(page, 'warning', AUDIENCE_MESSAGES.audienceNeedsCriterion)).toBeVisible();
    });

    await test.step('First label', async () => {
      // First label: doctors. Adding a criterion to a new audience creates it.
      await page.getByTestId('criteria-search').fill('Médecin');
      const doctor = page.locator('[data-testid^="criteria-result-Profession-"]', { hasText: 'Médecin' }).first();
      await expect(doctor).toBeVisible();
      // Bolded for a term of 3+ characters.
      await expect(doctor.locator('strong').first()).toHaveText('Médecin');
      await doctor.click();
      await expect(toast(page, 'success', AUDIENCE_MESSAGES.saved)).toBeVisible();
      await page.waitForURL((u) => /^\/audiences\/\d+$/.test(u.pathname));
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      const liveSize = page.getByTestId('live-size');
      await expect
        .poll(async () => (await liveSize.getAttribute('data-current')) === 'true' && Number(await liveSize.getAttribute('data-size')), {
          timeout: 15_000,
        })
        .toBeGreaterThan(0);
      const doctors = Number(await liveSize.getAttribute('data-size'));
      expect(Number(await page.getByTestId('label-size-Profession').getAttribute('data-size'))).toBe(doctors);

      // Second label: experts. The size shrinks while nothing is saved.
      await page.getByTestId('criteria-search').fill('ROLE_EXPERT');
      await page.locator('[data-testid^="criteria-result-Role-"]').first().click();
      await expect
        .poll(async () => (await liveSize.getAttribute('data-current')) === 'true' && Number(await liveSize.getAttribute('data-size')), {
          timeout: 15_000,
        })
        .toBeLessThan(doctors);
      const experts = Number(await liveSize.getAttribute('data-size'));
      expect(experts).toBeGreaterThan(0);
      await expect(page.getByTestId('audience-expert-warning')).toHaveCount(0);
      // The same criterion twice is refused.
      await page.getByTestId('criteria-search').fill('ROLE_EXPERT');
      await expect(page.locator('[data-testid^="criteria-result-Role-"]')).toHaveCount(0);
      await page.getByTestId('criteria-search').fill('');

      // Live tester: an e-mail nobody has says 'Aucun résultat' (docs/audiences.md).
      await page.getByTestId('tester-search').fill('personne-zzz@');
      await expect(page.getByTestId('tester-no-result')).toHaveText(AUDIENCE_MESSAGES.criteriaNoResult, { timeout: 10_000 });
      // User 3 is a doctor and an expert; turning the Role to Not makes the answer change.
      await page.getByTestId('tester-search').fill('e2e.user3@');
      await page.getByTestId('tester-results').locator('button', { hasText: 'e2e.user3@exemple.fr' }).click();
      await expect(page.getByTestId('tester-answer')).toHaveAttribute('data-member', 'true', { timeout: 10_000 });
      await expect(page.getByTestId('tester-verdict')).toHaveText(AUDIENCE_MESSAGES.testerMember);
      const roleRow = page.locator('[data-testid^="relationship-Role-"][data-testid$="-kind"]');
      await roleRow.click();
      await expect(roleRow).toHaveText('Not');
      await expect(page.getByTestId('tester-answer')).toHaveAttribute('data-member', 'false', { timeout: 10_000 });
      await expect(page.getByTestId('label-member-Role').getByLabel('non membre')).toHaveCount(1);
      await roleRow.click();
      await expect(page.getByTestId('tester-answer')).toHaveAttribute('data-member', 'true', { timeout: 10_000 });

      // A keyword is refused on a timeline audience (an alert).
      await page.getByTestId('audience-new-keyword').click();
      await page.getByTestId('new-keyword-text').fill('  Diabète ');
      await expect(page.getByTestId('new-keyword-advice')).toHaveText(AUDIENCE_MESSAGES.keywordAdvice);
      await page.getByTestId('new-keyword-add').click();
      await expect(toast(page, 'warning', AUDIENCE_MESSAGES.keywordOnTimeline)).toBeVisible();

      // E-mail list: a file without an email column is refused; Add stays disabled until e-mails are loaded.
      await page.getByTestId('audience-new-list').click();
      await expect(page.getByTestId('email-list-add')).toBeDisabled();
      const pick = async (file: string) => {
        const chooser = page.waitForEvent('filechooser');
        await page.getByTestId('email-list-pick').click();
        await (await chooser).setFiles(file);
      };
      await pick(csv('audience-no-email.csv'));
      await expect(toast(page, 'error', AUDIENCE_MESSAGES.noEmailColumn)).toBeVisible();
      await expect(page.getByTestId('email-list-add')).toBeDisabled();
      // BOM, commas inside quotes and an address nobody has: the five known ones are added.
      await pick(csv('audience-emails.csv'));
      await expect(page.getByTestId('email-list-status')).toContainText(AUDIENCE_MESSAGES.emailsLoaded(6));
      await page.getByTestId('email-list-add').click();
      // The address nobody has is reported, not hidden.
      await expect(
        toast(
          page,
          'warning',
          AUDIENCE_MESSAGES.emailListReport({ added: 5, unknown: 1, invalid: 0, firstInvalid: [], firstUnknown: ['inconnu@nulle-part.fr'] }),
        ),
      ).toBeVisible({ timeout: 20_000 });
      await expect(page.locator('[data-testid^="relationship-User-"][data-testid$="-remove"]')).toHaveCount(5);
      // Not UTF-8 (Windows-1252, ';'): read all the same.
      await page.getByTestId('audience-new-list').click();
      await pick(csv('audience-emails-latin1.csv'));
      await page.getByTestId('email-list-add').click();
      await expect(toast(page, 'success', AUDIENCE_MESSAGES.emailsAdded(2))).toBeVisible({ timeout: 20_000 });

      // The area is saved at once.
      await page.getByTestId('audience-area').selectOption('english');
      await expect(toast(page, 'success', AUDIENCE_MESSAGES.areaSaved)).toBeVisible();
      await page.getByTestId('audience-area').selectOption('french');
      await page.getByTestId('audience-name').fill('Médecins experts e2e');
      await page.getByTestId('audience-save').click();
      await expect(toast(page, 'success', AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();

      // The size calculation fails: the spec's warning.
      await page.route('**/__ipc/api*', async (route) => {
        const body = route.request().postDataJSON() as { payload?: { operation?: string } };
        if (body.payload?.operation === 'audiences.size')
          await route.fulfill({ contentType: 'application/json', body: JSON.stringify({ ok: false, status: 500, errorMsg: 'panne' }) });
        else await route.continue();
      });
      await page.locator('[data-testid^="relationship-Role-"][data-testid$="-kind"]').click();
      await expect(toast(page, 'warning', AUDIENCE_MESSAGES.audienceSizeFailed)).toBeVisible();
      await page.unroute('**/__ipc/api*');

      // In the list.
      await page.goto(`${url}/audiences`);
      await page.getByTestId('audiences-search').fill('experts e2e');
      const row = page.locator(`tr[data-testid="audience-row-${id}"]`);
      await expect(row).toBeVisible();
      await expect(row).toHaveAttribute('data-name', 'Médecins experts e2e');
      await expect(row.locator('[data-area]')).toHaveAttribute('data-area', 'french');
      // The flag is a picture the page loaded (flag-icons), drawn on any machine, not an emoji flag.
      await expect
        .poll(() => row.locator('img[data-flag="french"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);

      // The debug page lists it for user 3.
      const user3 = ((await api(app, await tokenOf(app, 'ADMIN'), 'POST', '/search/users', { term: 'e2e.user3@' })) as { id: number }[])[0].id;
      await page.goto(`${url}/debug/audiences/${user3}`);
      await expect(page.getByTestId(`debug-audience-${id}`)).toBeVisible();
      await expect(page.getByTestId('debug-adverts')).toContainText('Aucune publicité');

      // Delete from the row menu.
      await page.goto(`${url}/audiences`);
      await page.getByTestId('audiences-search').fill('experts e2e');
      await expect(row).toBeVisible();
      await page.getByTestId(`audience-menu-${id}`).locator('summary').click();
      await page.getByTestId(`audience-delete-${id}`).click();
      await page.getByTestId('confirm-yes').click();
      await expect(toast(page, 'success', AUDIENCE_MESSAGES.audienceDeleted('Médecins experts e2e'))).toBeVisible();
      await expect(row).toHaveCount(0);
    });
  });

  test('sorts on the created date, filters, and deletes a selection', async ({ app }) => {
    const { page, url } = app;
    const lead = await tokenOf(app, 'CSM_LEAD');
    const a = (await api(app, lead, 'POST', '/audience', { name: 'Lot A', type: 'banner', area: 'german' })) as { id: number };
    const b = (await api(app, lead, 'POST', '/audience', { name: 'Lot B', type: 'banner', area: 'german' })) as { id: number };
    await page.goto(`${url}/audiences`);
    // The rows the user sees, in order (the table's spacer rows have no name).
    const rows = page.locator('tbody tr[data-name]');
    await page.getByTestId('audiences-filter-area').selectOption('german');
    await expect(rows).toHaveCount(2);
    await expect(rows).toContainText(['Lot B', 'Lot A']);
    await page.getByTestId('audiences-sort-created').click();
    await expect(rows).toContainText(['Lot A', 'Lot B']);
    await expect(page.getByTestId('audiences-bulk-delete')).toBeDisabled();
    await page.getByTestId(`audience-select-${a.id}`).check();
    await page.getByTestId(`audience-select-${b.id}`).check();
    await page.getByTestId('audiences-bulk-delete').click();
    await page.getByTestId('confirm-yes').click();
    await expect(toast(page, 'success', AUDIENCE_MESSAGES.audiencesDeleted(2))).toBeVisible();
    await expect(rows).toHaveCount(0);
    await expect(page.getByTestId('audiences-bulk-delete')).toBeDisabled();
  });
  test('an e-mail list reports its unknown and invalid addresses, and never saves an audience without a criterion', async ({ app }) => {
    const { page, url } = app;
    if ((await page.getByTestId('logout').count()) === 0) await signIn(page, url, 'ADMIN');
    const admin = await tokenOf(app, 'ADMIN');
    const total = async () => ((await api(app, admin, 'GET', '/audiences?limit=1')) as { total: number }).total;
    const before = await total();
    const deletedTotal = async () => ((await api(app, admin, 'GET', '/audiences/deleted?limit=1')) as { total: number }).total;
    const deletedBefore = await deletedTotal();
    const pick = async (file: string) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByTestId('email-list-pick').click();
      await (await chooser).setFiles(file);
    };

    // A new audience and 12,000 addresses nobody has: nothing is added, so nothing is saved.
    const unknown = Array.from({ length: 12_000 }, (_, n) => `inconnu${n + 1}@nulle-part.fr`);
    const dir = mkdtempSync(join(tmpdir(), 'aud-list-'));
    const file = join(dir, 'inconnus.csv');
    writeFileSync(file, ['email', ...unknown].join('\n'));
    try {
      await page.goto(`${url}/audiences`);
      await page.getByTestId('audiences-create').selectOption('story');
      await page.waitForURL((u) => u.pathname === '/audiences/new');
      await page.getByTestId('audience-new-list').click();
      await pick(file);
      await expect(page.getByTestId('email-list-status')).toContainText(AUDIENCE_MESSAGES.emailsLoaded(12_000));
      await page.getByTestId('email-list-add').click();
      const report = AUDIENCE_MESSAGES.emailListReport({
        added: 0,
        unknown: 12_000,
        invalid: 0,
        firstInvalid: [],
        firstUnknown: unknown.slice(0, 3),
      });
      await expect(page.getByTestId('email-list-report')).toHaveText(`${AUDIENCE_MESSAGES.audienceNeedsCriterion} — ${report}`, { timeout: 30_000 });
      await expect(toast(page, 'warning', AUDIENCE_MESSAGES.audienceNeedsCriterion)).toBeVisible();
      await expect(toast(page, 'success', AUDIENCE_MESSAGES.emailsAdded(0))).toHaveCount(0);
      expect(new URL(page.url()).pathname).toBe('/audiences/new');
      await expect.poll(total).toBe(before);
      // Nothing was made, so nothing sits among the deleted audiences either (a restore would match everyone).
      expect(await deletedTotal()).toBe(deletedBefore);
      await lookAt(page, 'audience-email-list-unknown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.getByTestId('email-list-dialog').getByRole('button', { name: 'Annuler' }).click();

    // A criterion saves it; then 7 rows with 2 bad addresses: 5 added, the 2 named with their rows.
    await page.getByTestId('criteria-search').fill('Médecin');
    await page.locator('[data-testid^="criteria-result-Profession-"]', { hasText: 'Médecin' }).first().click();
    await page.waitForURL((u) => /^\/audiences\/\d+$/.test(u.pathname));
    await page.getByTestId('audience-new-list').click();
    await pick(csv('audience-emails-invalid.csv'));
    await expect(page.getByTestId('email-list-status')).toContainText(AUDIENCE_MESSAGES.emailsLoaded(7));
    await page.getByTestId('email-list-add').click();
    const expected = AUDIENCE_MESSAGES.emailListReport({
      added: 5,
      unknown: 0,
      invalid: 2,
      firstInvalid: [
        { line: 3, value: 'pas-une-adresse' },
        { line: 6, value: 'jean.dupont@' },
      ],
      firstUnknown: [],
    });
    expect(expected).toBe('5 ajoutés, 0 inconnu, 2 invalides. Invalides : ligne 3 « pas-une-adresse », ligne 6 « jean.dupont@ ».');
    await expect(toast(page, 'warning', expected)).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('[data-testid^="relationship-User-"][data-testid$="-remove"]')).toHaveCount(5);
    await expect.poll(total).toBe(before + 1);
  });
  test('shows an audience an advert targets as used, with that advert in the editor', async ({ app }) => {
    const { page, url } = app;
    if ((await page.getByTestId('logout').count()) === 0) await signIn(page, url, 'ADMIN');
    const lead = await tokenOf(app, 'CSM_LEAD');
    const csm = await tokenOf(app, 'CSM');
    const doctor = ((await api(app, lead, 'GET', '/search?term=M%C3%A9decin&label=Profession&isGroup=true')) as { id: number }[])[0];
    const relationships = [{ node: { label: 'Profession', id: doctor.id } }];
    const used = (await api(app, lead, 'POST', '/audience', { name: 'Cardio utilisée', type: 'timeline', relationships })) as { id: number };
    const unused = (await api(app, lead, 'POST', '/audience', { name: 'Cardio libre', type: 'timeline', relationships })) as { id: number };
    const advert = (await api(app, csm, 'POST', '/advert/create', { advert: { name: 'Campagne HTA', type: 'post' } })) as { id: number };
    await api(app, csm, 'POST', '/advert/attach', { advert: { id: advert.id }, audienceIds: [used.id] });

    await page.goto(`${url}/audiences`);
    await page.getByTestId('audiences-search').fill('Cardio');
    const usedRow = page.locator(`tr[data-testid="audience-row-${used.id}"]`);
    const unusedRow = page.locator(`tr[data-testid="audience-row-${unused.id}"]`);
    const usedColumn = async (row: typeof usedRow) => {
      const headers = await page.locator('thead th').allTextContents();
      return row.locator('td').nth(headers.findIndex((header) => header.trim() === 'Utilisée'));
    };
    await expect(await usedColumn(usedRow)).toHaveText('Oui', { timeout: 15_000 });
    await expect(await usedColumn(unusedRow)).toHaveText('Non');
    await lookAt(page, 'audiences-list-used');

    await page.getByTestId(`audience-link-${used.id}`).click();
    const adverts = page.getByTestId('audience-adverts');
    await expect(adverts.getByRole('link', { name: `${advert.id} — Campagne HTA` })).toHaveAttribute('href', `/adverts/edit/${advert.id}`);
    await expect(adverts).not.toContainText('Aucune publicité');
    await lookAt(page, 'audience-editor-adverts');
  });
});

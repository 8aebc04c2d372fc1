import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { CONTENT_FIELD_MESSAGES } from '@shared/messages/content-fields';
import { expect, signIn, test } from './fixtures';
import { createAudience } from './content-helpers';
import { signOut } from './helpers';

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      await createAudience(app, 'E2E Cardiologues experts', { expert: true });
      await createAudience(app, 'E2E Cardiologues grand public', { expert: false });
    },
  },
});

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const editorId = (page: Page) => Number(new URL(page.url()).pathname.split('/').pop());

/** Closes the toasts shown so far (a click closes one), so the next assertion sees only new ones. */
async function clearToasts(page: Page) {
  for (const shown of await page.locator('.Toastify__toast').all()) await shown.click({ timeout: 2000 }).catch(() => undefined);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 5000 });
}

test.describe('adverts (web host, Chromium)', () => {
  test.describe.configure({ timeout: 180_000 });
  test('creates an advert from Nouveau post, shows each validation message, attaches an audience and publishes it', async ({ signedIn }) => {
    const page = await signedIn('CSM');
    // Spec §2 Login page: the user lands on /adverts.
    await page.waitForURL((u) => u.pathname === '/adverts');
    await expect(page.getByTestId('adverts-page')).toBeVisible();
    await expect(page.getByTestId('adblock-alert')).toHaveCount(0);

    await page.getByRole('link', { name: M.newPost }).click();
    await page.waitForURL((u) => u.pathname === '/adverts/edit/new');
    await expect(page.getByTestId('audiences-save-first')).toHaveText(M.saveToAttachAudience);
    await expect(page.getByTestId('preview-save-first')).toHaveText(M.saveToPreview);

    await test.step('Save-time checks (§5)', async () => {
      // Save-time checks (§5): joined by ' / ' in a 3 s warning, the fields highlighted.
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'warning', `${ADVERT_MESSAGES.advertNameRequired} / ${M.advertTypeRequired}`)).toBeVisible();
      await expect(page.locator('[data-field="name"]')).toHaveAttribute('data-highlighted', 'true');
      await expect(page.locator('[data-field="type"]')).toHaveAttribute('data-highlighted', 'true');
      // The highlight goes after 3 s.
      await expect(page.locator('[data-field="name"]')).not.toHaveAttribute('data-highlighted', { timeout: 6000 });
      await clearToasts(page);

      await field(page, 'name').fill('Campagne e2e Cardio');
      await field(page, 'type').selectOption('tool');
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'warning', M.sonataIdRequired)).toBeVisible();
      await clearToasts(page);

      await field(page, 'type').selectOption('post');
      await page.getByTestId('section-scheduling-toggle').click();
      await field(page, 'autoStopAt').fill('2030-06-30T18:00');
      await page.keyboard.press('Control+s');
      await expect(toast(page, 'warning', M.startDateRequired)).toBeVisible();
      await clearToasts(page);
      await field(page, 'autoStartAt').fill('2030-06-01T09:00');
      await field(page, 'autoStopAt').fill('');
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'warning', `${M.autoPublishEmailRequired} / ${M.stopDateRequired}`)).toBeVisible();
      await clearToasts(page);
      // A date in the past, a stop before the start: said at the field as typed, refused at save, never 'Enregistré'.
      await field(page, 'autoStartAt').fill('2020-06-01T09:00');
      await field(page, 'autoStopAt').fill('2030-06-30T18:00');
      await expect(page.getByTestId('field-error-autoStartAt')).toHaveText(CONTENT_FIELD_MESSAGES.dateInPast('Publication automatique le'));
      await expect(field(page, 'autoStartAt')).toHaveAttribute('aria-invalid', 'true');
      await field(page, 'autoStartAt').fill('2030-07-01T09:00');
      await expect(page.getByTestId('field-error-autoStartAt')).toHaveCount(0);
      const stopFirst = CONTENT_FIELD_MESSAGES.stopBeforeStart('Dé-publication automatique le', 'Publication automatique le');
      await expect(page.getByTestId('field-error-autoStopAt')).toHaveText(stopFirst);
      await field(page, 'autoPublishOptions.emails').fill('csm@exemple.fr');
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'warning', stopFirst)).toBeVisible();
      await expect(page.locator('[data-field="autoStopAt"]')).toHaveAttribute('data-highlighted', 'true');
      await expect(page.locator('.Toastify__toast--success')).toHaveCount(0);
      await expect(page).toHaveURL(/\/adverts\/edit\/new$/);
      await clearToasts(page);
      await field(page, 'autoPublishOptions.emails').fill('');
      await page.getByTestId('schedule-clear').click();
      await expect(field(page, 'autoStartAt')).toHaveValue('');
    });

    await test.step('The weight slider shows the weight × 10 %', async () => {
      await expect(page.getByTestId('weight-display')).toHaveText('50 %');
      await field(page, 'weight').fill('8');
      await expect(page.getByTestId('weight-display')).toHaveText('80 %');
    });

    await test.step('The first save creates the advert and moves to its edit route (§4)', async () => {
      await page.getByTestId('editor-save').click();
      await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname));
      await expect(toast(page, 'success', M.saved)).toBeVisible();
      const id = editorId(page);
      await expect(page.getByTestId('campaign-status')).toHaveText('offline');
      await expect(page.getByTestId('preview')).toBeVisible();

      // Publishing without an audience: the server's check as an error toast.
      await clearToasts(page);
      await page.getByTestId('publish-toggle').click();
      await expect(page.locator('.Toastify__toast--error').first()).toBeVisible();

      // Attach an audience: search from 2 characters.
      await page.getByTestId('audience-search').fill('E2E Cardio');
      // A non-expert audience shows the toolbar warning.
      await page.getByTestId('audience-results').getByRole('button', { name: 'E2E Cardiologues grand public' }).click();
      await expect(page.getByTestId('expert-warning')).toHaveText(M.expertWarning);
      await page.getByTestId('attached-audiences').getByRole('button', { name: 'Retirer E2E Cardiologues grand public' }).click();
      await expect(page.getByTestId('expert-warning')).toHaveCount(0, { timeout: 20_000 });
      await page.getByTestId('audience-results').getByRole('button', { name: 'E2E Cardiologues experts' }).click();
      await expect(page.getByTestId('attached-audiences').getByText('E2E Cardiologues experts')).toBeVisible();
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'success', M.saved)).toBeVisible();
      await clearToasts(page);

      // A post needs its properties to go online: the server's message, then fill them and publish.
      await page.getByTestId('publish-toggle').click();
      await expect(toast(page, 'error', 'Les propriétés')).toBeVisible();
      await clearToasts(page);
      await field(page, 'logo').fill('https://cdn.exemple.fr/logo.png');
      await field(page, 'images').fill('https://cdn.exemple.fr/visuel.png');
      await field(page, 'author').fill('Laboratoire Exemple');
      await field(page, 'source').fill('https://www.exemple.fr/cardio');
      await field(page, 'title').fill('Nouvelles recommandations HTA');
      await expect(page.getByTestId('publish-toggle')).toHaveText(M.publish);
      await page.getByTestId('publish-toggle').click();
      await expect(toast(page, 'success', M.contentOnline)).toBeVisible();
      await expect(page.getByTestId('publish-toggle')).toHaveText(M.unpublish);
      await expect(page.getByTestId('publication-labels')).toContainText(M.published);
      await expect(page.getByTestId('campaign-status')).toHaveText('online');

      // Once published, a save checks the properties of the type (§5).
      await clearToasts(page);
      await field(page, 'title').fill('');
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'warning', 'Les propriétés Titre sont requises')).toBeVisible();
      await field(page, 'title').fill('Nouvelles recommandations HTA');
      await page.getByTestId('editor-save').click();
      await expect(toast(page, 'success', M.saved)).toBeVisible();

      // The campaign: started, then the label says publié; end it.
      await page.getByTestId('campaign-start').click();
      await expect(page.getByTestId('campaign-status')).toHaveText('publié', { timeout: 20_000 });
      await page.getByTestId('campaign-end').click();
      await expect(page.getByTestId('campaign-status')).toHaveText('offline', { timeout: 20_000 });
      await page.getByTestId('publish-toggle').click();
      await expect(toast(page, 'success', M.contentOnline)).toBeVisible();

      // In the list: the row, its status icon (published alone: green, no clock), filters with chips.
      await page.getByTestId('editor-save-quit').click();
      await page.waitForURL((u) => u.pathname === '/adverts');
      await page.getByTestId('adverts-search').fill('Campagne e2e');
      const row = page.getByTestId(`advert-row-${id}`);
      await expect(row).toBeVisible();
      await expect(page.getByTestId(`status-${id}`)).toHaveAttribute('data-color', 'green');
      await expect(page.getByTestId(`status-${id}`)).toHaveAttribute('data-clock', 'false');
      // CSM sees the audience as plain text (the link is for CSM_LEAD and ADMIN).
      await expect(row.locator('a.tag')).toHaveCount(0);
      await expect(row.locator('span.tag', { hasText: 'E2E Cardiologues experts' })).toHaveCount(1);

      // The default filter shows as a chip; filters add chips with a remove button.
      await expect(page.getByTestId('chip-archived')).toContainText('Non archivées');
      await page.getByTestId('advert-filters-type').selectOption({ label: 'quiz' });
      await expect(page.getByTestId('chip-type')).toBeVisible();
      await expect(row).toHaveCount(0, { timeout: 20_000 });
      await page.getByTestId('chip-remove-type').click();
      await expect(page.getByTestId('chip-type')).toHaveCount(0, { timeout: 20_000 });
      await expect(row).toBeVisible();
      await page.getByTestId('advert-filters-published').selectOption({ label: 'Publiées' });
      await expect(page.getByTestId('chip-published')).toBeVisible();
      await expect(row).toBeVisible();
      await page.getByTestId('advert-filters-countries').selectOption({ label: 'France' });
      await expect(page.getByTestId('chip-countries-72')).toBeVisible();
      await page.getByTestId('chip-remove-countries-72').click();
      await page.getByTestId('chip-remove-published').click();

      // Sortable columns.
      // The order is announced by the column's header cell, where aria-sort is allowed.
      const weightHeader = page.getByRole('columnheader', { name: 'Prios' });
      await page.getByTestId('sort-weight').click();
      await expect(weightHeader).toHaveAttribute('aria-sort', 'ascending');
      await page.getByTestId('sort-weight').click();
      await expect(weightHeader).toHaveAttribute('aria-sort', 'descending');

      // CSV export of the published adverts (skip 0, limit 1000, published true), downloaded by the browser.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('adverts-export').click()]);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv).toContain('Campagne e2e Cardio');
      // Nothing to export: 'No data to export', 2 s.
      await page.getByTestId('adverts-search').fill('aucune publicité ne porte ce nom');
      await expect(page.getByTestId('adverts-total')).toHaveText('0 publicité', { timeout: 20_000 });
      await page.getByTestId('adverts-export').click();
      await expect(toast(page, 'warning', M.noDataToExport)).toBeVisible();
      await page.getByTestId('adverts-search').fill('Campagne e2e');
      await expect(row).toBeVisible();

      // Duplicate: an unpublished copy.
      await page.getByTestId(`advert-duplicate-${id}`).click();
      await expect(page.locator('tbody tr[data-name="Campagne e2e Cardio (copie)"]')).toBeVisible();
    });
  });

  test('converts an advert into an article and back, landing on the new item', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/adverts`);
    await page.getByTestId('adverts-search').fill('Campagne e2e');
    const first = page.locator('tbody tr[data-name="Campagne e2e Cardio"]').first();
    await first.getByRole('button', { name: 'Éditer' }).click({ timeout: 20_000 });
    await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname), { timeout: 20_000 });
    await expect(page.locator('[data-testid="editor"][data-kind="advert"]')).toBeVisible({ timeout: 20_000 });
    const advertId = editorId(page);
    await page.getByTestId('convert').click();
    await expect(page.getByTestId('convert-dialog').locator('h2')).toHaveText(M.convertToArticleQuestion);
    await expect(page.getByTestId('convert-info')).toHaveText(M.convertDetachesAudience);
    // The conversion's answer, then the new item's editor: the URL changes before the article editor replaces the
    // advert's (its screen loads lazily), so wait for the editor of the right kind, not only for the URL.
    const toArticle = page
      .waitForResponse((response) => response.url().includes('/__ipc/') && (response.request().postData() ?? '').includes('.migrate'), {
        timeout: 20_000,
      })
      .catch(() => null);
    await page.getByTestId('convert-confirm').click();
    await toArticle;
    await page.waitForURL((u) => /\/articles\/edit\/\d+$/.test(u.pathname), { timeout: 20_000 });
    await expect(page.locator('[data-testid="editor"][data-kind="article"]')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('field-name')).toHaveValue('Campagne e2e Cardio', { timeout: 20_000 });
    expect(editorId(page)).not.toBe(Number.NaN);
    await page.getByTestId('convert').click();
    await page.getByTestId('convert-confirm').click();
    await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname) && Number(u.pathname.split('/').pop()) !== advertId, { timeout: 20_000 });
    await expect(page.locator('[data-testid="editor"][data-kind="advert"]')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('field-name')).toHaveValue('Campagne e2e Cardio', { timeout: 20_000 });
    // Converting detached the audience.
    await expect(page.getByTestId('attached-audiences')).toContainText('Aucune audience associée', { timeout: 20_000 });
  });

  test('shows an unknown advert as not found, and the deeplink generator', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/adverts/edit/999999`);
    await expect(page.getByTestId('editor-not-found')).toContainText(ADVERT_MESSAGES.advertNotFound);
    await page.goto(`${url}/adverts/edit/project-Lancement Printemps`);
    await expect(page.getByTestId('field-name')).toHaveValue('Lancement Printemps', { timeout: 20_000 });

    await page.getByTestId('open-deeplink').click();
    const create = page.getByTestId('deeplink-create');
    await expect(create).toBeDisabled();
    await page.getByTestId('deeplink-url').fill('pas une url');
    await expect(page.getByTestId('deeplink-url-error')).toHaveText(M.deeplinkUrlInvalid);
    await expect(page.getByTestId('deeplink-encode')).toBeChecked();
    await expect(page.getByTestId('deeplink-open-mode')).toHaveValue('INTERNAL_WEBVIEW');
    await page.getByTestId('deeplink-url').fill('https://www.exemple.fr/outil?x=1');
    await expect(create).toBeEnabled();
    await create.click();
    await expect(page.getByTestId('deeplink-url-result')).toHaveText(
      `app://application?url=${encodeURIComponent('https://www.exemple.fr/outil?x=1')}&openMode=INTERNAL_WEBVIEW`,
    );
    await page.getByTestId('deeplink-target').selectOption('story');
    await page.getByTestId('deeplink-id').fill('abc def');
    await expect(page.getByTestId('deeplink-id-error')).toHaveText(M.deeplinkIdInvalid);
    await expect(create).toBeDisabled();
    await page.getByTestId('deeplink-close').click();
  });

  test('imports adverts from CSV: per-row errors and nothing imported, then the whole file', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/adverts`);
    const pick = async (content: string) => {
      await expect(page.getByTestId('advert-import-dialog')).toBeVisible();
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('advert-import-pick').click()]);
      await chooser.setFiles({ name: 'publicites.csv', mimeType: 'text/csv', buffer: Buffer.from(content, 'utf8') });
      await expect(page.getByTestId('advert-import-summary')).toBeVisible();
    };
    await page.getByTestId('adverts-import').click();
    await pick('name;type;weight;isFree;autoStartAt\nImport e2e A;post;7;yes;1893456000\nImport e2e B;poster;lourd;peut-être;demain\n');
    const errors = page.getByTestId('advert-import-errors');
    await expect(errors).toBeVisible();
    await expect(errors).toContainText("Ligne 3 : Poids d'affichage : nombre entier attendu");
    await expect(errors).toContainText('Ligne 3 : Type : inconnu (poster)');
    await expect(errors.locator('li')).toHaveCount(4);
    await expect(page.getByTestId('advert-import-run')).toBeDisabled();
    await page.getByTestId('advert-import-cancel').click();
    await page.getByTestId('adverts-search').fill('Import e2e');
    await expect(page.getByTestId('adverts-total')).toHaveText('0 publicité', { timeout: 20_000 });

    await page.getByTestId('adverts-import').click();
    await pick('name;type;weight;isFree;autoStartAt;autoStopAt\nImport e2e A;post;7;yes;1893456000;01/02/2030\nImport e2e B;quiz;3;0;;\n');
    await expect(page.getByTestId('advert-import-errors')).toHaveCount(0);
    await page.getByTestId('advert-import-run').click();
    await expect(toast(page, 'success', M.importDone(2))).toBeVisible();
    await expect(page.getByTestId('adverts-total')).toHaveText('2 publicités', { timeout: 20_000 });
    const imported = page.locator('tbody tr[data-name="Import e2e A"]');
    await expect(imported.locator('td').nth(6)).toHaveText('7');
    // Unpublished with a start date to come: the orange clock.
    await expect(imported.locator('[data-status]')).toHaveAttribute('data-color', 'orange');

    // Beyond the rows the modal checks itself, the server checks every row: one bad row imports nothing.
    const lines = (count: number, bad?: number) =>
      'name;type;weight\n' +
      Array.from(
        { length: count },
        (_, index) => `Lot e2e ${String(index + 1).padStart(3, '0')};post;${index + 1 === bad ? 'lourd' : (index % 10) + 1}`,
      ).join('\n') +
      '\n';
    await page.getByTestId('adverts-import').click();
    await pick(lines(300, 200));
    await expect(page.getByTestId('advert-import-errors')).toHaveCount(0);
    await page.getByTestId('advert-import-run').click();
    await expect(page.getByTestId('advert-import-errors')).toBeVisible();
    await expect(page.getByTestId('advert-import-errors')).toContainText("Ligne 201 : Poids d'affichage : nombre entier attendu");
    await page.getByTestId('advert-import-cancel').click();
    await page.getByTestId('adverts-search').fill('Lot e2e');
    await expect(page.getByTestId('adverts-total')).toHaveText('0 publicité', { timeout: 20_000 });

    // A 300-row file: past the 25 rows of the preview, imported whole.
    await page.getByTestId('adverts-import').click();
    await pick(lines(300));
    await page.getByTestId('advert-import-run').click();
    await expect(toast(page, 'success', M.importDone(300))).toBeVisible();
    await expect(page.getByTestId('adverts-total')).toHaveText('300 publicités', { timeout: 20_000 });
  });

  test('shows the autopublish report in the alert bell', async ({ app }) => {
    const { page, url } = app;
    const { sql } = await import('drizzle-orm');
    const now = Math.floor(Date.now() / 1000);
    // An advert whose start passed without publication: without an audience the job cannot publish it (refused by
    // the publication checks), so the report keeps listing it.
    await app.host.embedded!.database.db.execute(
      sql`INSERT INTO adverts (name, type, published, created_at, updated_at, auto_start_at, auto_stop_at, data) VALUES ('Cloche e2e', 'post', false, ${now}, ${now}, ${now - 3600}, ${now + 86_400}, '{}'::jsonb)`,
    );
    await page.goto(`${url}/adverts`);
    await page.getByTestId('alert-bell').click();
    const panel = page.getByTestId('alert-bell-panel');
    await expect(panel).toBeVisible();
    await expect(panel.getByText('Cloche e2e')).toBeVisible();
    await expect(page.getByTestId('alert-should-publish')).toContainText('Cloche e2e');
    expect(Number(await page.getByTestId('alert-bell-count').textContent())).toBeGreaterThanOrEqual(1);
    await expect(panel).toContainText(M.alertsTitle);
    await panel.getByRole('link', { name: 'Cloche e2e' }).click();
    await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname));
    await expect(page.getByTestId('field-name')).toHaveValue('Cloche e2e', { timeout: 20_000 });
  });

  test('migrates an advert stored in an older layout from /adverts/migration', async ({ app }) => {
    const { page, url } = app;
    const { sql } = await import('drizzle-orm');
    const inserted = (await app.host.embedded!.database.db.execute(
      sql`INSERT INTO adverts (name, type, model, created_at, updated_at, data)
          VALUES ('Ancien quiz e2e', NULL, 'v1', 1700000000, 1700000000, ${JSON.stringify({ timeline: true, isQuiz: true, document: { title: 'Quiz ancien' } })}::jsonb) RETURNING id`,
    )) as unknown as { rows: { id: number }[] };
    const id = inserted.rows[0].id;
    await page.goto(`${url}/adverts/edit/${id}`);
    await expect(page.getByTestId('editor-not-migrated')).toHaveText(M.notMigrated('Ancien quiz e2e'));

    await page.goto(`${url}/adverts`);
    await page.getByTestId('adverts-migration').click();
    await page.waitForURL((u) => u.pathname === '/adverts/migration');
    const row = page.getByTestId(`migration-row-advert-${id}`);
    await expect(row).toBeVisible();
    await expect(page.getByTestId(`migration-type-advert-${id}`)).toHaveText('quiz');
    await page.getByTestId(`migration-run-advert-${id}`).click();
    await expect(toast(page, 'success', M.migrationDone(1))).toBeVisible();
    await expect(row).toHaveCount(0, { timeout: 20_000 });

    await page.goto(`${url}/adverts/edit/${id}`);
    await expect(page.getByTestId('field-name')).toHaveValue('Ancien quiz e2e', { timeout: 20_000 });
    await expect(page.getByTestId('field-type')).toHaveValue('quiz');
  });

  test('lets SALES read the adverts only', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/adverts`);
    await expect(page.getByTestId('adverts-page')).toBeVisible({ timeout: 20_000 });
    await signOut(page);
    await signIn(page, url, 'SALES');
    await page.waitForURL((u) => u.pathname === '/adverts', { timeout: 20_000 });
    await expect(page.getByTestId('adverts-page')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('adverts-search').fill('Campagne e2e');
    const row = page.locator('tbody tr[data-name="Campagne e2e Cardio"]').first();
    await expect(row).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('advert-new')).toHaveCount(0);
    await expect(page.getByTestId('adverts-import')).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Supprimer' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Dupliquer' })).toHaveCount(0);
    await row.getByRole('button', { name: 'Voir' }).click({ timeout: 20_000 });
    await expect(page.getByTestId('read-only')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('field-name')).toBeDisabled({ timeout: 20_000 });
    await expect(page.getByTestId('editor-save')).toHaveCount(0);
    await expect(page.getByTestId('publish-toggle')).toHaveCount(0);
    await expect(page.getByTestId('audience-search')).toHaveCount(0);
  });
});

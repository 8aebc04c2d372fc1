import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { launchChromium, openWebApp, signIn, type WebApp } from './fixtures';
import { createAudience } from './content-helpers';
import { signOut } from './helpers';

let browser: Browser;
let app: WebApp;

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
  // The machine running the tests is shared: every wait is generous, none is a sleep.
  app.page.setDefaultTimeout(20_000);
  await createAudience(app, 'E2E Cardiologues experts', { expert: true });
  await createAudience(app, 'E2E Cardiologues grand public', { expert: false });
});
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

const toast = (page: Page, kind: 'warning' | 'error' | 'success' | 'info', text: string) => page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();
const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const editorId = (page: Page) => Number(new URL(page.url()).pathname.split('/').pop());

/** Closes the toasts shown so far (a click closes one), so the next assertion sees only new ones. */
async function clearToasts(page: Page) {
  for (const shown of await page.locator('.Toastify__toast').all()) await shown.click({ timeout: 2000 }).catch(() => undefined);
  await expect.poll(() => page.locator('.Toastify__toast').count(), { timeout: 5000 }).toBe(0);
}

describe('adverts (web host, Chromium)', { timeout: 180_000 }, () => {
  it('creates an advert from Nouveau post, shows each validation message, attaches an audience and publishes it', async () => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    // Spec §2 Login page: the user lands on /adverts.
    await page.waitForURL((u) => u.pathname === '/adverts');
    await page.getByTestId('adverts-page').waitFor();
    expect(await page.getByTestId('adblock-alert').count()).toBe(0);

    await page.getByRole('link', { name: M.newPost }).click();
    await page.waitForURL((u) => u.pathname === '/adverts/edit/new');
    expect(await page.getByTestId('audiences-save-first').textContent()).toBe(M.saveToAttachAudience);
    expect(await page.getByTestId('preview-save-first').textContent()).toBe(M.saveToPreview);

    // Save-time checks (§5): joined by ' / ' in a 3 s warning, the fields highlighted.
    await page.getByTestId('editor-save').click();
    await toast(page, 'warning', `${ADVERT_MESSAGES.advertNameRequired} / ${M.advertTypeRequired}`).waitFor();
    expect(await page.locator('[data-field="name"]').getAttribute('data-highlighted')).toBe('true');
    expect(await page.locator('[data-field="type"]').getAttribute('data-highlighted')).toBe('true');
    // The highlight goes after 3 s.
    await expect.poll(() => page.locator('[data-field="name"]').getAttribute('data-highlighted'), { timeout: 6000 }).toBeNull();
    await clearToasts(page);

    await field(page, 'name').fill('Campagne e2e Cardio');
    await field(page, 'type').selectOption('tool');
    await page.getByTestId('editor-save').click();
    await toast(page, 'warning', M.sonataIdRequired).waitFor();
    await clearToasts(page);

    await field(page, 'type').selectOption('post');
    await page.getByTestId('section-scheduling-toggle').click();
    await field(page, 'autoStopAt').fill('2030-06-30T18:00');
    await page.keyboard.press('Control+s');
    await toast(page, 'warning', M.startDateRequired).waitFor();
    await clearToasts(page);
    await field(page, 'autoStartAt').fill('2030-06-01T09:00');
    await field(page, 'autoStopAt').fill('');
    await page.getByTestId('editor-save').click();
    await toast(page, 'warning', `${M.autoPublishEmailRequired} / ${M.stopDateRequired}`).waitFor();
    await clearToasts(page);
    await page.getByTestId('schedule-clear').click();
    expect(await field(page, 'autoStartAt').inputValue()).toBe('');

    // The weight slider shows the weight × 10 %.
    expect(await page.getByTestId('weight-display').textContent()).toBe('50 %');
    await field(page, 'weight').fill('8');
    expect(await page.getByTestId('weight-display').textContent()).toBe('80 %');

    // The first save creates the advert and moves to its edit route (§4).
    await page.getByTestId('editor-save').click();
    await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname));
    await toast(page, 'success', M.saved).waitFor();
    const id = editorId(page);
    expect(await page.getByTestId('campaign-status').textContent()).toBe('offline');
    await page.getByTestId('preview').waitFor();

    // Publishing without an audience: the server's check as an error toast.
    await clearToasts(page);
    await page.getByTestId('publish-toggle').click();
    await page.locator('.Toastify__toast--error').first().waitFor();

    // Attach an audience: search from 2 characters.
    await page.getByTestId('audience-search').fill('E2E Cardio');
    // A non-expert audience shows the toolbar warning.
    await page.getByTestId('audience-results').getByRole('button', { name: 'E2E Cardiologues grand public' }).click();
    expect(await page.getByTestId('expert-warning').textContent()).toBe(M.expertWarning);
    await page.getByTestId('attached-audiences').getByRole('button', { name: 'Retirer E2E Cardiologues grand public' }).click();
    await expect.poll(() => page.getByTestId('expert-warning').count(), { timeout: 20_000 }).toBe(0);
    await page.getByTestId('audience-results').getByRole('button', { name: 'E2E Cardiologues experts' }).click();
    await page.getByTestId('attached-audiences').getByText('E2E Cardiologues experts').waitFor();
    await page.getByTestId('editor-save').click();
    await toast(page, 'success', M.saved).waitFor();
    await clearToasts(page);

    // A post needs its properties to go online: the server's message, then fill them and publish.
    await page.getByTestId('publish-toggle').click();
    await toast(page, 'error', 'Les propriétés').waitFor();
    await clearToasts(page);
    await field(page, 'logo').fill('https://cdn.exemple.fr/logo.png');
    await field(page, 'images').fill('https://cdn.exemple.fr/visuel.png');
    await field(page, 'author').fill('Laboratoire Exemple');
    await field(page, 'source').fill('https://www.exemple.fr/cardio');
    await field(page, 'title').fill('Nouvelles recommandations HTA');
    expect(await page.getByTestId('publish-toggle').textContent()).toBe(M.publish);
    await page.getByTestId('publish-toggle').click();
    await toast(page, 'success', M.contentOnline).waitFor();
    expect(await page.getByTestId('publish-toggle').textContent()).toBe(M.unpublish);
    expect(await page.getByTestId('publication-labels').textContent()).toContain(M.published);
    expect(await page.getByTestId('campaign-status').textContent()).toBe('online');

    // Once published, a save checks the properties of the type (§5).
    await clearToasts(page);
    await field(page, 'title').fill('');
    await page.getByTestId('editor-save').click();
    await toast(page, 'warning', 'Les propriétés Titre sont requises').waitFor();
    await field(page, 'title').fill('Nouvelles recommandations HTA');
    await page.getByTestId('editor-save').click();
    await toast(page, 'success', M.saved).waitFor();

    // The campaign: started, then the label says publié; end it.
    await page.getByTestId('campaign-start').click();
    await expect.poll(() => page.getByTestId('campaign-status').textContent(), { timeout: 20_000 }).toBe('publié');
    await page.getByTestId('campaign-end').click();
    await expect.poll(() => page.getByTestId('campaign-status').textContent(), { timeout: 20_000 }).toBe('offline');
    await page.getByTestId('publish-toggle').click();
    await toast(page, 'success', M.contentOnline).waitFor();

    // In the list: the row, its status icon (published alone: green, no clock), filters with chips.
    await page.getByTestId('editor-save-quit').click();
    await page.waitForURL((u) => u.pathname === '/adverts');
    await page.getByTestId('adverts-search').fill('Campagne e2e');
    const row = page.getByTestId(`advert-row-${id}`);
    await row.waitFor();
    expect(await page.getByTestId(`status-${id}`).getAttribute('data-color')).toBe('green');
    expect(await page.getByTestId(`status-${id}`).getAttribute('data-clock')).toBe('false');
    // CSM sees the audience as plain text (the link is for CSM_LEAD and ADMIN).
    expect(await row.locator('a.tag').count()).toBe(0);
    expect(await row.locator('span.tag', { hasText: 'E2E Cardiologues experts' }).count()).toBe(1);

    // The default filter shows as a chip; filters add chips with a remove button.
    expect(await page.getByTestId('chip-archived').textContent()).toContain('Non archivées');
    await page.getByTestId('advert-filters-type').selectOption({ label: 'quiz' });
    await page.getByTestId('chip-type').waitFor();
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(0);
    await page.getByTestId('chip-remove-type').click();
    await expect.poll(() => page.getByTestId('chip-type').count(), { timeout: 20_000 }).toBe(0);
    await row.waitFor();
    await page.getByTestId('advert-filters-published').selectOption({ label: 'Publiées' });
    await page.getByTestId('chip-published').waitFor();
    await row.waitFor();
    await page.getByTestId('advert-filters-countries').selectOption({ label: 'France' });
    await page.getByTestId('chip-countries-72').waitFor();
    await page.getByTestId('chip-remove-countries-72').click();
    await page.getByTestId('chip-remove-published').click();

    // Sortable columns.
    await page.getByTestId('sort-weight').click();
    expect(await page.getByTestId('sort-weight').getAttribute('aria-sort')).toBe('ascending');
    await page.getByTestId('sort-weight').click();
    expect(await page.getByTestId('sort-weight').getAttribute('aria-sort')).toBe('descending');

    // CSV export of the published adverts (skip 0, limit 1000, published true), downloaded by the browser.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('adverts-export').click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).toContain('Campagne e2e Cardio');
    // Nothing to export: 'No data to export', 2 s.
    await page.getByTestId('adverts-search').fill('aucune publicité ne porte ce nom');
    await expect.poll(() => page.getByTestId('adverts-total').textContent(), { timeout: 20_000 }).toBe('0 publicité');
    await page.getByTestId('adverts-export').click();
    await toast(page, 'warning', M.noDataToExport).waitFor();
    await page.getByTestId('adverts-search').fill('Campagne e2e');
    await row.waitFor();

    // Duplicate: an unpublished copy.
    await page.getByTestId(`advert-duplicate-${id}`).click();
    await page.locator('tbody tr[data-name="Campagne e2e Cardio (copie)"]').waitFor();
  });

  it('converts an advert into an article and back, landing on the new item', async () => {
    const { page, url } = app;
    await page.goto(`${url}/adverts`);
    await page.getByTestId('adverts-search').fill('Campagne e2e');
    const first = page.locator('tbody tr[data-name="Campagne e2e Cardio"]').first();
    await first.getByRole('button', { name: 'Éditer' }).click({ timeout: 20_000 });
    await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname), { timeout: 20_000 });
    await page.locator('[data-testid="editor"][data-kind="advert"]').waitFor({ timeout: 20_000 });
    const advertId = editorId(page);
    await page.getByTestId('convert').click();
    expect(await page.getByTestId('convert-dialog').locator('h2').textContent()).toBe(M.convertToArticleQuestion);
    expect(await page.getByTestId('convert-info').textContent()).toBe(M.convertDetachesAudience);
    // The conversion's answer, then the new item's editor: the URL changes before the article editor replaces the
    // advert's (its screen loads lazily), so wait for the editor of the right kind, not only for the URL.
    const toArticle = page.waitForResponse((response) => response.url().includes('/__ipc/') && (response.request().postData() ?? '').includes('.migrate'), { timeout: 20_000 }).catch(() => null);
    await page.getByTestId('convert-confirm').click();
    await toArticle;
    await page.waitForURL((u) => /\/articles\/edit\/\d+$/.test(u.pathname), { timeout: 20_000 });
    await page.locator('[data-testid="editor"][data-kind="article"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('field-name').inputValue(), { timeout: 20_000 }).toBe('Campagne e2e Cardio');
    expect(editorId(page)).not.toBe(Number.NaN);
    await page.getByTestId('convert').click();
    await page.getByTestId('convert-confirm').click();
    await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname) && Number(u.pathname.split('/').pop()) !== advertId, { timeout: 20_000 });
    await page.locator('[data-testid="editor"][data-kind="advert"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('field-name').inputValue(), { timeout: 20_000 }).toBe('Campagne e2e Cardio');
    // Converting detached the audience.
    await expect.poll(() => page.getByTestId('attached-audiences').textContent(), { timeout: 20_000 }).toContain('Aucune audience associée');
  });

  it('shows an unknown advert as not found, and the deeplink generator', async () => {
    const { page, url } = app;
    await page.goto(`${url}/adverts/edit/999999`);
    expect(await page.getByTestId('editor-not-found').textContent()).toContain(ADVERT_MESSAGES.advertNotFound);
    await page.goto(`${url}/adverts/edit/project-Lancement Printemps`);
    await expect.poll(() => page.getByTestId('field-name').inputValue(), { timeout: 20_000 }).toBe('Lancement Printemps');

    await page.getByTestId('open-deeplink').click();
    const create = page.getByTestId('deeplink-create');
    expect(await create.isDisabled()).toBe(true);
    await page.getByTestId('deeplink-url').fill('pas une url');
    expect(await page.getByTestId('deeplink-url-error').textContent()).toBe(M.deeplinkUrlInvalid);
    expect(await page.getByTestId('deeplink-encode').isChecked()).toBe(true);
    expect(await page.getByTestId('deeplink-open-mode').inputValue()).toBe('INTERNAL_WEBVIEW');
    await page.getByTestId('deeplink-url').fill('https://www.exemple.fr/outil?x=1');
    expect(await create.isDisabled()).toBe(false);
    await create.click();
    expect(await page.getByTestId('deeplink-url-result').textContent()).toBe(`app://application?url=${encodeURIComponent('https://www.exemple.fr/outil?x=1')}&openMode=INTERNAL_WEBVIEW`);
    await page.getByTestId('deeplink-target').selectOption('story');
    await page.getByTestId('deeplink-id').fill('abc def');
    expect(await page.getByTestId('deeplink-id-error').textContent()).toBe(M.deeplinkIdInvalid);
    expect(await create.isDisabled()).toBe(true);
    await page.getByTestId('deeplink-close').click();
  });

  it('imports adverts from CSV: per-row errors and nothing imported, then the whole file', async () => {
    const { page, url } = app;
    await page.goto(`${url}/adverts`);
    const pick = async (content: string) => {
      await page.getByTestId('advert-import-dialog').waitFor();
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('advert-import-pick').click()]);
      await chooser.setFiles({ name: 'publicites.csv', mimeType: 'text/csv', buffer: Buffer.from(content, 'utf8') });
      await page.getByTestId('advert-import-summary').waitFor();
    };
    await page.getByTestId('adverts-import').click();
    await pick('name;type;weight;isFree;autoStartAt\nImport e2e A;post;7;yes;1893456000\nImport e2e B;poster;lourd;peut-être;demain\n');
    const errors = page.getByTestId('advert-import-errors');
    await errors.waitFor();
    expect(await errors.textContent()).toContain('Ligne 3 : weight : nombre entier attendu');
    expect(await errors.locator('li').count()).toBe(4);
    expect(await page.getByTestId('advert-import-run').isDisabled()).toBe(true);
    await page.getByTestId('advert-import-cancel').click();
    await page.getByTestId('adverts-search').fill('Import e2e');
    await expect.poll(() => page.getByTestId('adverts-total').textContent(), { timeout: 20_000 }).toBe('0 publicité');

    await page.getByTestId('adverts-import').click();
    await pick('name;type;weight;isFree;autoStartAt;autoStopAt\nImport e2e A;post;7;yes;1893456000;01/02/2030\nImport e2e B;quiz;3;0;;\n');
    expect(await page.getByTestId('advert-import-errors').count()).toBe(0);
    await page.getByTestId('advert-import-run').click();
    await toast(page, 'success', M.importDone(2)).waitFor();
    await expect.poll(() => page.getByTestId('adverts-total').textContent(), { timeout: 20_000 }).toBe('2 publicités');
    const imported = page.locator('tbody tr[data-name="Import e2e A"]');
    expect(await imported.locator('td').nth(6).textContent()).toBe('7');
    // Unpublished with a start date to come: the orange clock.
    expect(await imported.locator('[data-status]').getAttribute('data-color')).toBe('orange');

    // Beyond the rows the modal checks itself, the server checks every row: one bad row imports nothing.
    const lines = (count: number, bad?: number) =>
      'name;type;weight\n' + Array.from({ length: count }, (_, index) => `Lot e2e ${String(index + 1).padStart(3, '0')};post;${index + 1 === bad ? 'lourd' : (index % 10) + 1}`).join('\n') + '\n';
    await page.getByTestId('adverts-import').click();
    await pick(lines(300, 200));
    expect(await page.getByTestId('advert-import-errors').count()).toBe(0);
    await page.getByTestId('advert-import-run').click();
    await page.getByTestId('advert-import-errors').waitFor();
    expect(await page.getByTestId('advert-import-errors').textContent()).toContain('Ligne 201 : weight : nombre entier attendu');
    await page.getByTestId('advert-import-cancel').click();
    await page.getByTestId('adverts-search').fill('Lot e2e');
    await expect.poll(() => page.getByTestId('adverts-total').textContent(), { timeout: 20_000 }).toBe('0 publicité');

    // A 300-row file: past the 25 rows of the preview, imported whole.
    await page.getByTestId('adverts-import').click();
    await pick(lines(300));
    await page.getByTestId('advert-import-run').click();
    await toast(page, 'success', M.importDone(300)).waitFor();
    await expect.poll(() => page.getByTestId('adverts-total').textContent(), { timeout: 20_000 }).toBe('300 publicités');
  });

  it('shows the autopublish report in the alert bell', async () => {
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
    await panel.waitFor();
    await panel.getByText('Cloche e2e').waitFor();
    expect(await page.getByTestId('alert-should-publish').textContent()).toContain('Cloche e2e');
    expect(Number(await page.getByTestId('alert-bell-count').textContent())).toBeGreaterThanOrEqual(1);
    expect(await panel.textContent()).toContain(M.alertsTitle);
    await panel.getByRole('link', { name: 'Cloche e2e' }).click();
    await page.waitForURL((u) => /\/adverts\/edit\/\d+$/.test(u.pathname));
    await expect.poll(() => page.getByTestId('field-name').inputValue(), { timeout: 20_000 }).toBe('Cloche e2e');
  });

  it('migrates an advert stored in an older layout from /adverts/migration', async () => {
    const { page, url } = app;
    const { sql } = await import('drizzle-orm');
    const inserted = (await app.host.embedded!.database.db.execute(
      sql`INSERT INTO adverts (name, type, model, created_at, updated_at, data)
          VALUES ('Ancien quiz e2e', NULL, 'v1', 1700000000, 1700000000, ${JSON.stringify({ timeline: true, isQuiz: true, document: { title: 'Quiz ancien' } })}::jsonb) RETURNING id`,
    )) as unknown as { rows: { id: number }[] };
    const id = inserted.rows[0].id;
    await page.goto(`${url}/adverts/edit/${id}`);
    expect(await page.getByTestId('editor-not-migrated').textContent()).toBe(M.notMigrated('Ancien quiz e2e'));

    await page.goto(`${url}/adverts`);
    await page.getByTestId('adverts-migration').click();
    await page.waitForURL((u) => u.pathname === '/adverts/migration');
    const row = page.getByTestId(`migration-row-advert-${id}`);
    await row.waitFor();
    expect(await page.getByTestId(`migration-type-advert-${id}`).textContent()).toBe('quiz');
    await page.getByTestId(`migration-run-advert-${id}`).click();
    await toast(page, 'success', M.migrationDone(1)).waitFor();
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(0);

    await page.goto(`${url}/adverts/edit/${id}`);
    await expect.poll(() => page.getByTestId('field-name').inputValue(), { timeout: 20_000 }).toBe('Ancien quiz e2e');
    expect(await page.getByTestId('field-type').inputValue()).toBe('quiz');
  });

  it('lets SALES read the adverts only', async () => {
    const { page, url } = app;
    await page.goto(`${url}/adverts`);
    await page.getByTestId('adverts-page').waitFor({ timeout: 20_000 });
    await signOut(page);
    await signIn(page, url, 'SALES');
    await page.waitForURL((u) => u.pathname === '/adverts', { timeout: 20_000 });
    await page.getByTestId('adverts-page').waitFor({ timeout: 20_000 });
    await page.getByTestId('adverts-search').fill('Campagne e2e');
    const row = page.locator('tbody tr[data-name="Campagne e2e Cardio"]').first();
    await row.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('advert-new').count()).toBe(0);
    expect(await page.getByTestId('adverts-import').count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Supprimer' }).count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Dupliquer' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Voir' }).click({ timeout: 20_000 });
    await page.getByTestId('read-only').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('field-name').isDisabled(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByTestId('editor-save').count()).toBe(0);
    expect(await page.getByTestId('publish-toggle').count()).toBe(0);
    expect(await page.getByTestId('audience-search').count()).toBe(0);
  });
});

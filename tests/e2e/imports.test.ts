import type { Page } from '@playwright/test';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { expect, test } from './fixtures';

/**
 * The CSV list import in Chromium through the web host: the page picks the file (main streams it to the
 * CSV area with its progress), opens it, maps its columns, pages the 25-row preview, presses Go and watches the
 * job until done; a file with a wrong row lists it by line and column and applies nothing.
 */

const HEADER = 'Identifiant;Adresse e-mail;Nom;Profession;Langue;Remarque';
function csv(count: number, bad?: number, prefix = 'e2e'): Buffer {
  const lines = [HEADER];
  for (let n = 1; n <= count; n += 1)
    lines.push(`${prefix}-${n};${prefix}${n}@import.test;Dr Hélène ${n};${n === bad ? 'Astronaute' : 'Pharmacien'};french;ok`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

async function pickFile(page: Page, name: string, buffer: Buffer) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('upload-csv').click()]);
  await chooser.setFiles({ name, mimeType: 'text/csv', buffer });
}

test.describe.configure({ mode: 'serial' });

test.describe('CSV list import (web host, Chromium)', () => {
  test('pick a file, map its columns, page the preview, run it and watch it until done', async ({ signedIn }) => {
    test.setTimeout(180_000);
    const page = await signedIn('CSM');
    const nav = page.getByTestId('main-nav');
    await nav.getByTestId('nav-audiences').click();
    await nav.getByTestId('nav-imports').click();
    await page.waitForURL((url) => url.pathname === '/imports');
    await expect(page.getByTestId('imports-page')).toBeVisible();
    // The demo workspace's list is there to try.
    await expect(page.getByTestId('open-csv-exemple-liste-congres.csv')).toBeVisible();

    await pickFile(page, 'liste-pharmaciens.csv', csv(3000));
    await expect(page.locator('.Toastify__toast--success', { hasText: M.uploaded })).toBeVisible();
    await page.getByTestId('open-csv-liste-pharmaciens.csv').click();
    const preview = page.getByTestId('csv-preview');
    await expect(preview.getByTestId('preview-row')).toHaveCount(25);
    await expect(preview.getByTestId('preview-row').first()).toContainText('e2e-1');
    await expect(page.getByTestId('preview-page')).toHaveText('Page 1');
    await expect(page.getByTestId('preview-previous')).toBeDisabled();
    await page.getByTestId('preview-next').click();
    await expect(page.getByTestId('preview-page')).toHaveText('Page 2');
    await expect(preview.getByTestId('preview-row').first()).toContainText('e2e-26');
    await page.getByTestId('preview-previous').click();
    await expect(preview.getByTestId('preview-row').first()).toContainText('e2e-1');

    // The mapping: guessed from the headers where it can, the rest chosen; 'Remarque' left out.
    await expect(page.getByTestId('mapping-Nom')).toHaveValue('name');
    await expect(page.getByTestId('mapping-Remarque')).toHaveValue('');
    // The key columns are recognised by their French headers.
    await expect(page.getByTestId('mapping-Identifiant')).toHaveValue('externalId');
    await expect(page.getByTestId('mapping-Adresse e-mail')).toHaveValue('email');
    await page.getByTestId('mapping-Profession').selectOption('profession');
    await page.getByTestId('mapping-Langue').selectOption('area');

    await page.getByTestId('import-go').click();
    const job = page.getByTestId('import-job');
    await expect(job).toBeVisible();
    await expect(page.getByTestId('import-state')).toHaveText(M.states.done, { timeout: 120_000 });
    await expect(page.getByTestId('import-read')).toHaveText((3000).toLocaleString('fr-FR'));
    await expect(page.getByTestId('import-written')).toHaveText((3000).toLocaleString('fr-FR'));
    await expect(page.getByTestId('import-message')).toHaveText(M.done(3000, 0));
  });

  test('a wrong row is named by line and column, and nothing is applied', async ({ app }) => {
    test.setTimeout(120_000);
    // Still signed in as CSM on /imports (the tests of this file share one web host, in order).
    const { page } = app;
    await expect(page.getByTestId('imports-page')).toBeVisible();
    await pickFile(page, 'liste-fausse.csv', csv(60, 42, 'bad'));
    await page.getByTestId('open-csv-liste-fausse.csv').click();
    await expect(page.getByTestId('csv-preview')).toContainText('liste-fausse.csv');
    await page.getByTestId('mapping-Identifiant').selectOption('externalId');
    await page.getByTestId('mapping-Profession').selectOption('profession');
    await page.getByTestId('import-go').click();
    await expect(page.getByTestId('import-state')).toHaveText(M.states.failed, { timeout: 60_000 });
    await expect(page.getByTestId('import-error')).toHaveText([M.errorAt(43, 'Profession', M.unknownProfession)]);
  });

  test("postal codes 'ABCDE' and '-1' are refused with their lines; the same list again reports 0 'mis à jour'", async ({ app }) => {
    test.setTimeout(180_000);
    const { page } = app;
    await expect(page.getByTestId('imports-page')).toBeVisible();
    const zipcodes = ['75011', 'ABCDE', '69002', '-1'];
    const lines = ['Identifiant;CP', ...zipcodes.map((zipcode, n) => `cp-${n + 1};${zipcode}`)];
    await pickFile(page, 'liste-cp.csv', Buffer.from(`${lines.join('\r\n')}\r\n`));
    await page.getByTestId('open-csv-liste-cp.csv').click();
    await expect(page.getByTestId('csv-preview')).toContainText('liste-cp.csv');
    await page.getByTestId('mapping-Identifiant').selectOption('externalId');
    await page.getByTestId('mapping-CP').selectOption('zipcode');
    await page.getByTestId('import-go').click();
    await expect(page.getByTestId('import-state')).toHaveText(M.states.failed, { timeout: 60_000 });
    await expect(page.getByTestId('import-error')).toHaveText([M.errorAt(3, 'CP', M.invalidZipcode), M.errorAt(5, 'CP', M.invalidZipcode)]);

    // The 3,000 pharmacists of the first test, imported again unchanged: found, written, none 'mis à jour'.
    await page.getByTestId('open-csv-liste-pharmaciens.csv').click();
    await expect(page.getByTestId('csv-preview')).toContainText('liste-pharmaciens.csv');
    await page.getByTestId('mapping-Profession').selectOption('profession');
    await page.getByTestId('mapping-Langue').selectOption('area');
    await page.getByTestId('import-go').click();
    await expect(page.getByTestId('import-state')).toHaveText(M.states.done, { timeout: 120_000 });
    await expect(page.getByTestId('import-message')).toHaveText(M.done(0, 0));
    await expect(page.getByTestId('import-written')).toHaveText((3000).toLocaleString('fr-FR'));
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { databaseEstimateSource } from '../../src-server/features/projects/estimates';
import { expect, signIn, test } from './fixtures';
import { signOut } from './helpers';

/**
 * The invoicing tool's quote export, imported by an administrator from the projects list (the
 * web host's file dialog: the page picks, streams it to the host, main sends it), then one of its quote numbers
 * creating a project. (The demo's own quotes: tests/server/estimates-import.test.ts.)
 */

const folder = mkdtempSync(join(tmpdir(), 'e2e-estimates-'));

const HEADER = 'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT;Date de signature';
const GOOD = [
  HEADER,
  'DEV-2026-0500;Laboratoires Sanofa;Post sponsorisé cardio;2;4 500,00;12/01/2026',
  'DEV-2026-0500;Laboratoires Sanofa;Notification push pharmaciens;1;1200;12/01/2026',
  'DEV-2026-0501;Biogena;Story dermatologie;1;5 000,00;',
].join('\r\n');
const BAD = [HEADER, 'DEV-2026-0600;Biogena;Bannière;1;100;', 'DEV-2026-0600;Biogena;Quiz;deux;100;'].join('\r\n');

function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

const toast = (page: Page, kind: 'success' | 'error', text: string) => page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

test.afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
});

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });

test.describe('quote export import', () => {
  test('ADMIN imports the file from the projects list (a bad line named in French first), then a DEV number creates a project', async ({ app }) => {
    test.setTimeout(240_000);
    const { page, url } = app;
    await signIn(page, url, 'ADMIN');
    await page.goto(`${url}/projects`);
    await page.getByTestId('projects-import-estimates').click();
    const dialog = page.getByTestId('estimate-file-dialog');
    await expect(dialog).toBeVisible();
    const pick = async (path: string) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByTestId('estimate-file-choose').click();
      await (await chooser).setFiles(path);
    };

    // A bad cell: the server's message naming the line and column, nothing imported.
    await pick(file('devis-faux.csv', BAD));
    await expect
      .poll(() => dialog.getByTestId('estimate-file-error').textContent(), { timeout: 20_000 })
      .toBe(PROJECT_MESSAGES.estimateRowInvalid(3, 'Quantité', PROJECT_MESSAGES.estimateNumberExpected));
    expect(await databaseEstimateSource(app.host.embedded!.database.db).find('DEV-2026-0600')).toBeNull();

    // The good file: the count of quotes imported, in the dialog and as a notice.
    await pick(file('devis.csv', GOOD));
    const imported = PROJECT_MESSAGES.estimateFileImported(2, 3, 'devis.csv');
    expect(imported).toBe('2 devis importés (3 lignes) depuis devis.csv');
    await expect(dialog.getByTestId('estimate-file-imported')).toHaveText(imported, { timeout: 20_000 });
    await expect(toast(page, 'success', imported)).toBeVisible();
    await expect(dialog.getByTestId('estimate-file-error')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect(dialog).not.toBeAttached();

    // 'Importer un devis' with the imported number: the project is created with the quote's lines as actions.
    await page.getByTestId('projects-new').click();
    await page.getByTestId('create-project-mode-import').check();
    await page.getByTestId('create-project-estimate').fill('DEV-2026-0500');
    await page.getByTestId('create-project-name').fill('Cardio importé');
    await page.getByTestId('create-project-actor').selectOption('Laboratoire');
    const csm = page.getByTestId('create-project-csm');
    if (!(await csm.inputValue())) await csm.selectOption({ index: 1 });
    await page.getByTestId('create-project-submit').click();
    await page.waitForURL((address) => /^\/project\/edit\/\d+$/.test(address.pathname), { timeout: 20_000 });
    await expect(page.getByTestId('target-row-1')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('target-row-2')).toHaveCount(0);
    await expect(page.getByText(PROJECT_MESSAGES.estimateNotFound)).toHaveCount(0);
  });

  test('a CSM is not offered the import (the server refuses it too)', async ({ app }) => {
    const { page, url } = app;
    await signOut(page);
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/projects`);
    await expect(page.getByTestId('projects-new')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('projects-import-estimates')).toHaveCount(0);
  });
});

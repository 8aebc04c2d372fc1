import type { Page } from '@playwright/test';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, expect, signIn, test } from './fixtures';
import { lookAt } from './helpers';

/** The file's embedded API, for the helpers that put data in place. */
let apiUrl: string;
let project: { id: number; targets: { id: number; actionCode: string }[] };
let token: string;
let advertId: number;
let csmId: number;

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      const { email, password } = demoAccount('CSM');
      const session = await api('POST', '/authenticate', { username: email, password });
      token = session.accessToken.value;
      csmId = session.userId;
      project = await api('POST', '/project', {
        name: 'Grille HTA',
        clientName: 'Sanofa',
        keyAccount: session.userId,
        actor: 'Laboratoire',
        lines: 3,
      });
      // A target links only an advert that exists.
      advertId = (await api('POST', '/advert/create', { advert: { name: 'Post HTA', type: 'post' } })).id;
      await api('PUT', `/target/${project.targets[0].id}/properties`, { type: 'post', advertId });
    },
  },
});

const cell = (page: Page, row: number, column: string) => page.getByTestId(`cell-${row}-${column}`);
/** A cell's text once the pointer is elsewhere (a hovered cell shows its field). */
/** A cell, once the pointer has left the grid (a hovered cell shows its own tooltip). */
async function settledCell(page: Page, row: number, column: string) {
  await page.getByTestId('project-name').hover();
  return cell(page, row, column);
}
/** What the clipboard holds during a copy or paste event, as the browser hands it to the page. */
async function dispatchClipboard(page: Page, type: 'copy' | 'paste', text = ''): Promise<string> {
  return page.evaluate(
    ([kind, value]) => {
      const data = new DataTransfer();
      if (value) data.setData('text/plain', value);
      document.dispatchEvent(new ClipboardEvent(kind, { clipboardData: data, bubbles: true, cancelable: true }));
      return data.getData('text/plain');
    },
    [type, text] as const,
  );
}

test.describe('project editor (web host, Chromium)', () => {
  test('edits cells by hover, copies, pastes a block, undoes and redoes, cancels an action, sets an intermediate feedback date', async ({ app }) => {
    test.setTimeout(180_000);
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/project/edit/${project.id}`);
    await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('project-name')).toHaveValue('Grille HTA');

    await test.step('Hover makes the cell editable', async () => {
      // Hover makes the cell editable; Enter saves.
      await cell(page, 0, 'populationSample').hover();
      await page.getByTestId('edit-populationSample').fill('Cardiologues');
      await page.getByTestId('edit-populationSample').press('Enter');
      await expect(await settledCell(page, 0, 'populationSample')).toHaveText('Cardiologues', { timeout: 15_000 });
      await cell(page, 0, 'revenue').hover();
      await page.getByTestId('edit-revenue').fill('12500,5');
      await page.getByTestId('edit-revenue').press('Enter');
      await expect(await settledCell(page, 0, 'revenue')).toHaveText('12 500,50 €', { timeout: 15_000 });
    });

    await test.step('Ctrl/Cmd+C over a cell copies its value', async () => {
      await cell(page, 0, 'populationSample').hover();
      expect(await dispatchClipboard(page, 'copy')).toBe('Cardiologues');
      await expect(page.getByText(PROJECT_MESSAGES.cellCopied).first()).toBeVisible({ timeout: 10_000 });
    });

    await test.step('A 2 × 3 block from a spreadsheet fills the cells it covers, in one save', async () => {
      await cell(page, 1, 'populationCategory').hover();
      await dispatchClipboard(page, 'paste', 'Cardio\tCardiologues\t1200\r\nDermato\tDermatologues\t800\r\n');
      await expect(await settledCell(page, 2, 'populationSize')).toHaveText('800', { timeout: 15_000 });
      await expect(await settledCell(page, 1, 'populationCategory')).toHaveText('Cardio');
      await expect(await settledCell(page, 1, 'populationSample')).toHaveText('Cardiologues');
      await expect(await settledCell(page, 2, 'populationSample')).toHaveText('Dermatologues');
    });

    await test.step('Undo takes the whole paste back', async () => {
      // Undo takes the whole paste back; redo brings it again.
      await page.keyboard.press('Control+z');
      await expect(await settledCell(page, 2, 'populationSize')).toHaveText('', { timeout: 15_000 });
      await expect(await settledCell(page, 1, 'populationCategory')).toHaveText('');
      await page.keyboard.press('Control+Shift+z');
      await expect(await settledCell(page, 1, 'populationSize')).toHaveText('1 200', { timeout: 15_000 });
      const saved = await api('GET', `/project/${project.id}`);
      expect(saved.targets[2].populationSample).toBe('Dermatologues');
    });

    await test.step("'7", async () => {
      // '7. annulé' asks first, then shows ANNULE instead of the advert id.
      await expect(await settledCell(page, 0, 'link')).toHaveText(String(advertId));
      await cell(page, 0, 'status').hover();
      await page.getByTestId('edit-status').selectOption('7. annulé');
      await expect(page.getByTestId('confirm-message')).toHaveText(PROJECT_MESSAGES.confirmCancelAction);
      await page.getByTestId('confirm-yes').click();
      await expect(await settledCell(page, 0, 'link')).toHaveText('ANNULE', { timeout: 15_000 });
    });

    await test.step("'3.2 stats intermédiaires' asks for the date, then sets both", async () => {
      await cell(page, 1, 'status').hover();
      await page.getByTestId('edit-status').selectOption('3.2 stats intermédiaires');
      const dialog = page.getByTestId('feedback-date-dialog');
      await expect(dialog.getByText(PROJECT_MESSAGES.intermediateFeedbackTitle)).toBeVisible();
      await page.getByTestId('feedback-date-input').fill('15/03/2026');
      await page.getByTestId('feedback-date-confirm').click();
      await expect(await settledCell(page, 1, 'checkDate')).toHaveText('15/03/2026', { timeout: 15_000 });
      await expect(await settledCell(page, 1, 'status')).toHaveText('3.2 stats intermédiaires');

      // A start 59 days after the initial quotation: end = start + 90 days, and 'Raison du retard' opens.
      await cell(page, 2, 'initialQuotationDate').hover();
      await page.getByTestId('edit-initialQuotationDate').fill('01/01/2026');
      await page.getByTestId('edit-initialQuotationDate').press('Enter');
      await expect(await settledCell(page, 2, 'initialQuotationDate')).toHaveText('01/01/2026', { timeout: 15_000 });
      await cell(page, 2, 'startDate').hover();
      await page.getByTestId('edit-startDate').fill('01/03/2026');
      await page.getByTestId('edit-startDate').press('Enter');
      await expect(page.getByTestId('delay-reason-dialog')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId('delay-reason-select').locator('option').first()).toHaveText('Aucune');
      await page.getByTestId('delay-reason-select').selectOption({ index: 2 });
      await page.getByTestId('delay-reason-confirm').click();
      await expect(await settledCell(page, 2, 'delayReason')).not.toHaveText('', { timeout: 15_000 });
      await expect(await settledCell(page, 2, 'endDate')).toHaveText('30/05/2026');
      await expect(await settledCell(page, 2, 'releaseDateDiff')).toHaveText('59');
    });

    await test.step('The name is edited in place', async () => {
      // The name is edited in place; Enter saves.
      await page.getByTestId('project-name').fill('Grille HTA 2');
      await page.getByTestId('project-name').press('Enter');
      await expect.poll(async () => (await api('GET', `/project/${project.id}`)).name, { timeout: 15_000 }).toBe('Grille HTA 2');
      // Emptied, it is not silently given its old name back: the field says why, and nothing is saved.
      await page.getByTestId('project-name').fill('   ');
      await page.getByTestId('project-name').press('Enter');
      await expect(page.getByTestId('project-name-error')).toHaveText(PROJECT_MESSAGES.headerRequired('Nom du projet'));
      await expect(page.getByTestId('project-name')).toHaveValue('   ');
      await expect(page.getByTestId('project-name')).toHaveAttribute('aria-invalid', 'true');
      expect((await api('GET', `/project/${project.id}`)).name).toBe('Grille HTA 2');
      await page.getByTestId('project-name').press('Escape');
      await expect(page.getByTestId('project-name')).toHaveValue('Grille HTA 2');
      await expect(page.getByTestId('project-name-error')).toHaveCount(0);
    });
  });

  test('says at the cell what is wrong with a typed value, keeps it until corrected, reads back "1,5 mois"; the advert link opens in a new tab', async ({
    app,
    browser,
  }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const page = await context.newPage();
    try {
      const own = await api('POST', '/project', { name: 'Grille erreurs', clientName: 'Sanofa', keyAccount: csmId, actor: 'Laboratoire', lines: 1 });
      const [row] = own.targets;
      const linked = (await api('POST', '/advert/create', { advert: { name: 'Post erreurs', type: 'post' } })).id;
      await api('PUT', `/target/${row.id}/properties`, {
        type: 'post',
        advertId: linked,
        startDate: Date.UTC(2026, 0, 10) / 1000,
        endDate: Date.UTC(2026, 1, 10) / 1000,
      });
      await signIn(page, app.url, 'CSM');
      await page.goto(`${app.url}/project/edit/${own.id}`);
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });

      const typeInto = async (column: string, text: string) => {
        await cell(page, 0, column).hover();
        await page.getByTestId(`edit-${column}`).fill(text);
        await page.getByTestId(`edit-${column}`).press('Enter');
      };
      const bad: [string, string, string][] = [
        ['populationSize', 'douze mille', 'Nombre entier attendu (ex. 12 500)'],
        ['startDate', '31/02/2026', "La date 31/02/2026 n'existe pas"],
        ['startDate', 'hier', 'Date attendue au format JJ/MM/AAAA (ex. 31/01/2026)'],
        ['revenue', 'abc', 'Montant attendu (ex. 12 500,50 €)'],
        ['revenue', '-300', 'Le CA ne peut pas être négatif'],
        ['endDate', '01/01/2026', 'La date de fin ne peut pas être avant la date de début (10/01/2026)'],
      ];
      for (const [column, text, message] of bad) {
        await typeInto(column, text);
        // The message shows under the cell and stays when the pointer leaves; the typed value is not lost.
        await page.getByTestId('project-name').hover();
        const error = cell(page, 0, column).getByTestId(`cell-error-${column}`);
        await expect(error).toHaveText(message, { timeout: 10_000 });
        await expect(page.getByTestId(`edit-${column}`)).toHaveValue(text);
        await expect(page.getByTestId(`edit-${column}`)).toHaveAttribute('aria-invalid', 'true');
      }
      // Correcting a value clears its message and saves it.
      await typeInto('populationSize', '12\u00a0500');
      await expect(await settledCell(page, 0, 'populationSize')).toHaveText('12 500', { timeout: 15_000 });
      await expect(cell(page, 0, 'populationSize').getByTestId('cell-error-populationSize')).toHaveCount(0);
      await typeInto('revenue', '1 500,25 €');
      await expect(await settledCell(page, 0, 'revenue')).toHaveText('1 500,25 €', { timeout: 15_000 });
      // Escape gives the saved value back.
      await cell(page, 0, 'startDate').hover();
      await page.getByTestId('edit-startDate').press('Escape');
      await expect(await settledCell(page, 0, 'startDate')).toHaveText('10/01/2026', { timeout: 10_000 });

      // '1,5 mois' is taken (the grid shows '1.5 mois'), and '1.5 mois' reads back.
      await typeInto('goal', '1,5 mois');
      await expect(await settledCell(page, 0, 'goal')).toHaveText('1.5 mois', { timeout: 15_000 });
      expect((await api('GET', `/project/${own.id}`)).targets[0].goal).toEqual({ views: 0, days: 45, shipments: 0 });
      await typeInto('goal', '1.5 mois');
      await expect(cell(page, 0, 'goal').getByTestId('cell-error-goal')).toHaveCount(0);

      // The advert link stays a link under the pointer and opens /adverts/edit/{id} in a new tab.
      await cell(page, 0, 'link').hover();
      const link = cell(page, 0, 'link').getByRole('link', { name: String(linked) });
      await expect(link).toHaveCount(1, { timeout: 10_000 });
      await expect(page.getByTestId('edit-link')).toHaveCount(0);
      const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await expect(opened).toHaveURL(new RegExp(`/adverts/edit/${linked}(?:[?#]|$)`), { timeout: 15_000 });
      await opened.close();
      // Its edit button turns it into a field.
      await cell(page, 0, 'link').getByTestId('edit-link-button').click();
      await expect(page.getByTestId('edit-link')).toHaveValue(String(linked), { timeout: 10_000 });
      await page.getByTestId('edit-link').press('Escape');
      await expect(link).toHaveCount(1, { timeout: 10_000 });
    } finally {
      await context.close();
    }
  });

  test('a pasted block marks at the cell every value it cannot take; server refusals show at the cell in French with the text kept', async ({
    app,
    browser,
  }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    try {
      const own = await api('POST', '/project', { name: 'Grille collage', clientName: 'Sanofa', keyAccount: csmId, actor: 'Laboratoire', lines: 3 });
      await api('PUT', `/target/${own.targets[0].id}/properties`, { startDate: Date.UTC(2026, 0, 10) / 1000, endDate: Date.UTC(2026, 1, 10) / 1000 });
      await api('PUT', `/target/${own.targets[2].id}/properties`, { type: 'post' });
      await signIn(page, app.url, 'CSM');
      await page.goto(`${app.url}/project/edit/${own.id}`);
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
      const marked = async (row: number, column: string, text: string, message: string) => {
        await expect(cell(page, row, column).getByTestId(`cell-error-${column}`)).toHaveText(message, { timeout: 10_000 });
        await expect(cell(page, row, column).getByTestId(`edit-${column}`)).toHaveValue(text);
      };

      // Population, objectif, début, fin on two rows: what reads is saved, each other cell keeps its text and says why.
      await cell(page, 0, 'populationSize').hover();
      await dispatchClipboard(page, 'paste', 'douze mille\t1000\t15/03/2026\t01/03/2026\r\n1200\t2000\t31/02/2027\t30/04/2027\r\n');
      await expect(await settledCell(page, 1, 'populationSize')).toHaveText('1 200', { timeout: 15_000 });
      await expect(cell(page, 1, 'endDate')).toHaveText('30/04/2027');
      await expect(cell(page, 0, 'goal')).toHaveText('1 000 vues');
      await marked(0, 'populationSize', 'douze mille', PROJECT_MESSAGES.cellWholeNumberExpected);
      await marked(0, 'startDate', '15/03/2026', PROJECT_MESSAGES.startAfterEnd('01/03/2026'));
      await marked(0, 'endDate', '01/03/2026', PROJECT_MESSAGES.endBeforeStart('15/03/2026'));
      await marked(1, 'startDate', '31/02/2027', PROJECT_MESSAGES.cellDateInvalid('31/02/2027'));
      const saved = (await api('GET', `/project/${own.id}`)).targets;
      expect([saved[0].populationSize, saved[0].startDate, saved[0].endDate]).toEqual([
        null,
        Date.UTC(2026, 0, 10) / 1000,
        Date.UTC(2026, 1, 10) / 1000,
      ]);

      // What the server would refuse is said at the cell first: the comment's and the CA's limits.
      const typeInto = async (row: number, column: string, text: string) => {
        await cell(page, row, column).hover();
        await page.getByTestId(`edit-${column}`).first().fill(text);
        await page.getByTestId(`edit-${column}`).first().press('Enter');
        await page.getByTestId('project-name').hover();
      };
      await typeInto(2, 'revenue', '100000000001');
      await marked(2, 'revenue', '100000000001', PROJECT_MESSAGES.cellAmountTooLarge(1e11));
      await typeInto(2, 'comment', 'x'.repeat(2001));
      await marked(2, 'comment', 'x'.repeat(2001), PROJECT_MESSAGES.cellTooLong(2000));

      // An action code cannot be emptied.
      await typeInto(2, 'actionCode', '');
      await marked(2, 'actionCode', '', PROJECT_MESSAGES.actionCodeRequired);
      // The server's own refusals: a code another action has, an advert that does not exist.
      await typeInto(1, 'actionCode', own.targets[0].actionCode);
      await marked(1, 'actionCode', own.targets[0].actionCode, PROJECT_MESSAGES.actionCodeTaken);
      await typeInto(2, 'link', '999999');
      await marked(2, 'link', '999999', PROJECT_MESSAGES.advertNotFound);
      await expect(page.locator('.Toastify__toast--error')).toHaveCount(0);
      await lookAt(page, 'target-grid-refusals');

      // A batch refused by the server: the refused cell says why, the others of the paste keep their text too.
      await cell(page, 1, 'populationCategory').hover();
      await dispatchClipboard(page, 'paste', 'Cardio\tCardiologues\r\n');
      await cell(page, 0, 'actionCode').hover();
      await dispatchClipboard(page, 'paste', `NOUVEAU-1\r\n${own.targets[2].actionCode}\r\n`);
      await marked(1, 'actionCode', own.targets[2].actionCode, PROJECT_MESSAGES.actionCodeTaken);
      await marked(0, 'actionCode', 'NOUVEAU-1', PROJECT_MESSAGES.pasteNotSaved);
      expect((await api('GET', `/project/${own.id}`)).targets[0].actionCode).toBe(own.targets[0].actionCode);
    } finally {
      await context.close();
    }
  });

  test('stays read-only for SALES', async ({ app, browser }) => {
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const page = await context.newPage();
    try {
      await signIn(page, app.url, 'SALES');
      await page.goto(`${app.url}/project/edit/${project.id}`);
      await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
      await cell(page, 2, 'comment').hover();
      await expect(page.getByTestId('edit-comment')).toHaveCount(0);
      await expect(page.getByTestId('project-delete')).toHaveCount(0);
      await expect(page.getByTestId('project-import-estimate')).toHaveCount(0);
      await expect(page.getByTestId('project-name')).toHaveAttribute('readonly');
      await dispatchClipboard(page, 'paste', 'a\tb\nc\td');
      const after = await api('GET', `/project/${project.id}`);
      expect(after.targets[2].comment).toBeNull();
    } finally {
      await context.close();
    }
  });
});

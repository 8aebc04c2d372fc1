import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, launchChromium, openWebApp, signIn, type WebApp } from './fixtures';

let browser: Browser;
let app: WebApp;
let project: { id: number; targets: { id: number; actionCode: string }[] };
let token: string;
let advertId: number;
let csmId: number;

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${app.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
  const { email, password } = demoAccount('CSM');
  const session = await api('POST', '/authenticate', { username: email, password });
  token = session.accessToken.value;
  csmId = session.userId;
  project = await api('POST', '/project', { name: 'Grille HTA', clientName: 'Sanofa', keyAccount: session.userId, actor: 'Laboratoire', lines: 3 });
  // A target links only an advert that exists (issue 21).
  advertId = (await api('POST', '/advert/create', { advert: { name: 'Post HTA', type: 'post' } })).id;
  await api('PUT', `/target/${project.targets[0].id}/properties`, { type: 'post', advertId });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

const cell = (page: Page, row: number, column: string) => page.getByTestId(`cell-${row}-${column}`);
/** A cell's text once the pointer is elsewhere (a hovered cell shows its field). */
async function cellText(page: Page, row: number, column: string) {
  await page.getByTestId('project-name').hover();
  return (await cell(page, row, column).textContent())?.trim();
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

describe('project editor (web host, Chromium)', () => {
  it('edits cells by hover, copies, pastes a block, undoes and redoes, cancels an action, sets an intermediate feedback date', async () => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/project/edit/${project.id}`);
    await page.getByTestId('target-grid').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('project-name').inputValue()).toBe('Grille HTA');

    // Hover makes the cell editable; Enter saves.
    await cell(page, 0, 'populationSample').hover();
    await page.getByTestId('edit-populationSample').fill('Cardiologues');
    await page.getByTestId('edit-populationSample').press('Enter');
    await expect.poll(() => cellText(page, 0, 'populationSample'), { timeout: 15_000 }).toBe('Cardiologues');
    await cell(page, 0, 'revenue').hover();
    await page.getByTestId('edit-revenue').fill('12500,5');
    await page.getByTestId('edit-revenue').press('Enter');
    await expect.poll(() => cellText(page, 0, 'revenue'), { timeout: 15_000 }).toBe('12 500.50 €');

    // Ctrl/Cmd+C over a cell copies its value.
    await cell(page, 0, 'populationSample').hover();
    expect(await dispatchClipboard(page, 'copy')).toBe('Cardiologues');
    await page.getByText(PROJECT_MESSAGES.cellCopied).first().waitFor({ timeout: 10_000 });

    // A 2 × 3 block from a spreadsheet fills the cells it covers, in one save.
    await cell(page, 1, 'populationCategory').hover();
    await dispatchClipboard(page, 'paste', 'Cardio\tCardiologues\t1200\r\nDermato\tDermatologues\t800\r\n');
    await expect.poll(() => cellText(page, 2, 'populationSize'), { timeout: 15_000 }).toBe('800');
    expect(await cellText(page, 1, 'populationCategory')).toBe('Cardio');
    expect(await cellText(page, 1, 'populationSample')).toBe('Cardiologues');
    expect(await cellText(page, 2, 'populationSample')).toBe('Dermatologues');

    // Undo takes the whole paste back; redo brings it again.
    await page.keyboard.press('Control+z');
    await expect.poll(() => cellText(page, 2, 'populationSize'), { timeout: 15_000 }).toBe('');
    expect(await cellText(page, 1, 'populationCategory')).toBe('');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => cellText(page, 1, 'populationSize'), { timeout: 15_000 }).toBe('1 200');
    const saved = await api('GET', `/project/${project.id}`);
    expect(saved.targets[2].populationSample).toBe('Dermatologues');

    // '7. annulé' asks first, then shows ANNULE instead of the advert id.
    expect(await cellText(page, 0, 'link')).toBe(String(advertId));
    await cell(page, 0, 'status').hover();
    await page.getByTestId('edit-status').selectOption('7. annulé');
    expect(await page.getByTestId('confirm-message').textContent()).toBe(PROJECT_MESSAGES.confirmCancelAction);
    await page.getByTestId('confirm-yes').click();
    await expect.poll(() => cellText(page, 0, 'link'), { timeout: 15_000 }).toBe('ANNULE');

    // '3.2 stats intermédiaires' asks for the date, then sets both.
    await cell(page, 1, 'status').hover();
    await page.getByTestId('edit-status').selectOption('3.2 stats intermédiaires');
    const dialog = page.getByTestId('feedback-date-dialog');
    await dialog.getByText(PROJECT_MESSAGES.intermediateFeedbackTitle).waitFor();
    await page.getByTestId('feedback-date-input').fill('15/03/2026');
    await page.getByTestId('feedback-date-confirm').click();
    await expect.poll(() => cellText(page, 1, 'checkDate'), { timeout: 15_000 }).toBe('15/03/2026');
    expect(await cellText(page, 1, 'status')).toBe('3.2 stats intermédiaires');

    // A start 59 days after the initial quotation: end = start + 90 days, and 'Raison du retard' opens.
    await cell(page, 2, 'initialQuotationDate').hover();
    await page.getByTestId('edit-initialQuotationDate').fill('01/01/2026');
    await page.getByTestId('edit-initialQuotationDate').press('Enter');
    await expect.poll(() => cellText(page, 2, 'initialQuotationDate'), { timeout: 15_000 }).toBe('01/01/2026');
    await cell(page, 2, 'startDate').hover();
    await page.getByTestId('edit-startDate').fill('01/03/2026');
    await page.getByTestId('edit-startDate').press('Enter');
    await page.getByTestId('delay-reason-dialog').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('delay-reason-select').locator('option').first().textContent()).toBe('Aucune');
    await page.getByTestId('delay-reason-select').selectOption({ index: 2 });
    await page.getByTestId('delay-reason-confirm').click();
    await expect.poll(() => cellText(page, 2, 'delayReason'), { timeout: 15_000 }).not.toBe('');
    expect(await cellText(page, 2, 'endDate')).toBe('30/05/2026');
    expect(await cellText(page, 2, 'releaseDateDiff')).toBe('59');

    // The name is edited in place; Enter saves.
    await page.getByTestId('project-name').fill('Grille HTA 2');
    await page.getByTestId('project-name').press('Enter');
    await expect.poll(async () => (await api('GET', `/project/${project.id}`)).name, { timeout: 15_000 }).toBe('Grille HTA 2');
  }, 180_000);

  it('says at the cell what is wrong with a typed value, keeps it until corrected, reads back "1,5 mois"; the advert link opens in a new tab (issue 21 items 10 and 14)', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const page = await context.newPage();
    try {
      const own = await api('POST', '/project', { name: 'Grille erreurs', clientName: 'Sanofa', keyAccount: csmId, actor: 'Laboratoire', lines: 1 });
      const [row] = own.targets;
      const linked = (await api('POST', '/advert/create', { advert: { name: 'Post erreurs', type: 'post' } })).id;
      await api('PUT', `/target/${row.id}/properties`, { type: 'post', advertId: linked, startDate: Date.UTC(2026, 0, 10) / 1000, endDate: Date.UTC(2026, 1, 10) / 1000 });
      await signIn(page, app.url, 'CSM');
      await page.goto(`${app.url}/project/edit/${own.id}`);
      await page.getByTestId('target-grid').waitFor({ timeout: 20_000 });

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
        await expect.poll(() => error.textContent(), { timeout: 10_000 }).toBe(message);
        expect(await page.getByTestId(`edit-${column}`).inputValue()).toBe(text);
        expect(await page.getByTestId(`edit-${column}`).getAttribute('aria-invalid')).toBe('true');
      }
      // Correcting a value clears its message and saves it.
      await typeInto('populationSize', '12\u00a0500');
      await expect.poll(() => cellText(page, 0, 'populationSize'), { timeout: 15_000 }).toBe('12 500');
      expect(await cell(page, 0, 'populationSize').getByTestId('cell-error-populationSize').count()).toBe(0);
      await typeInto('revenue', '1 500,25 €');
      await expect.poll(() => cellText(page, 0, 'revenue'), { timeout: 15_000 }).toBe('1 500.25 €');
      // Escape gives the saved value back.
      await cell(page, 0, 'startDate').hover();
      await page.getByTestId('edit-startDate').press('Escape');
      await expect.poll(() => cellText(page, 0, 'startDate'), { timeout: 10_000 }).toBe('10/01/2026');

      // '1,5 mois' is taken (the grid shows '1.5 mois'), and '1.5 mois' reads back.
      await typeInto('goal', '1,5 mois');
      await expect.poll(() => cellText(page, 0, 'goal'), { timeout: 15_000 }).toBe('1.5 mois');
      expect((await api('GET', `/project/${own.id}`)).targets[0].goal).toEqual({ views: 0, days: 45, shipments: 0 });
      await typeInto('goal', '1.5 mois');
      expect(await cell(page, 0, 'goal').getByTestId('cell-error-goal').count()).toBe(0);

      // The advert link stays a link under the pointer and opens /adverts/edit/{id} in a new tab.
      await cell(page, 0, 'link').hover();
      const link = cell(page, 0, 'link').getByRole('link', { name: String(linked) });
      await expect.poll(() => link.count(), { timeout: 10_000 }).toBe(1);
      expect(await page.getByTestId('edit-link').count()).toBe(0);
      const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await expect.poll(() => opened.url(), { timeout: 15_000 }).toContain(`/adverts/edit/${linked}`);
      await opened.close();
      // Its edit button turns it into a field.
      await cell(page, 0, 'link').getByTestId('edit-link-button').click();
      await expect.poll(() => page.getByTestId('edit-link').inputValue(), { timeout: 10_000 }).toBe(String(linked));
      await page.getByTestId('edit-link').press('Escape');
      await expect.poll(() => link.count(), { timeout: 10_000 }).toBe(1);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('stays read-only for SALES', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const page = await context.newPage();
    try {
      await signIn(page, app.url, 'SALES');
      await page.goto(`${app.url}/project/edit/${project.id}`);
      await page.getByTestId('target-grid').waitFor({ timeout: 20_000 });
      await cell(page, 2, 'comment').hover();
      expect(await page.getByTestId('edit-comment').count()).toBe(0);
      expect(await page.getByTestId('project-delete').count()).toBe(0);
      expect(await page.getByTestId('project-import-estimate').count()).toBe(0);
      expect(await page.getByTestId('project-name').getAttribute('readonly')).not.toBeNull();
      await dispatchClipboard(page, 'paste', 'a\tb\nc\td');
      const after = await api('GET', `/project/${project.id}`);
      expect(after.targets[2].comment).toBeNull();
    } finally {
      await context.close();
    }
  }, 120_000);
});

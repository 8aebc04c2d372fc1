import type { Page } from '@playwright/test';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, expect, signIn, test } from './fixtures';

/**
 * The target grid's delays as staff walk them (docs/projects.md): 'Raison du retard' asked only when a date
 * moves; leaving '7. annulé' gives 'Écart (jours)' and 'Impact CA' back; an advert id typed into 'Pub / outil'
 * follows the type mapping of 'Associer une publicité'.
 */
let apiUrl: string;
let token: string;
let project: { id: number; targets: { id: number; actionCode: string }[] };
let notificationAdvert: number;

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

const day = (month: number, date: number) => Date.UTC(2026, month - 1, date) / 1000;

test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      const { email, password } = demoAccount('CSM');
      const response = await fetch(`${apiUrl}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password }),
      });
      const session = await response.json();
      token = session.accessToken.value;
      project = await api('POST', '/project', {
        name: 'Grille retards',
        clientName: 'Sanofa',
        keyAccount: session.userId,
        actor: 'Laboratoire',
        lines: 2,
      });
      // 59 days late, 9,000 € over 90 days: 'Écart (jours)' 59, 'Impact CA' 4 400 €; no reason given yet.
      await api('PUT', `/target/${project.targets[0].id}/properties`, {
        type: 'post',
        initialQuotationDate: day(1, 1),
        startDate: day(3, 1),
        revenue: 9000,
      });
      await api('PUT', `/target/${project.targets[1].id}/properties`, { type: 'post' });
      notificationAdvert = (await api('POST', '/advert/create', { advert: { name: 'Notif HTA', type: 'notification' } })).id;
    },
  },
});

const cell = (page: Page, row: number, column: string) => page.getByTestId(`cell-${row}-${column}`);
async function settledCell(page: Page, row: number, column: string) {
  await page.getByTestId('project-name').hover();
  return cell(page, row, column);
}
async function typeInto(page: Page, row: number, column: string, text: string, { settle = true } = {}) {
  await cell(page, row, column).hover();
  await page.getByTestId(`edit-${column}`).first().fill(text);
  await page.getByTestId(`edit-${column}`).first().press('Enter');
  if (settle) await page.getByTestId('project-name').hover();
}

test('the delay reason is asked only when a date moves; leaving "7. annulé" recomputes the delay; a typed advert id follows the type mapping', async ({
  app,
}) => {
  test.setTimeout(180_000);
  const { page, url } = app;
  await signIn(page, url, 'CSM');
  await page.goto(`${url}/project/edit/${project.id}`);
  await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
  await expect(await settledCell(page, 0, 'releaseDateDiff')).toHaveText('59');
  const impact = await (await settledCell(page, 0, 'revenueDelayImpact')).textContent();
  expect(impact).not.toBe('');

  await test.step('A comment or a revenue on a late action does not ask for the reason again', async () => {
    await typeInto(page, 0, 'comment', 'Relance client faite');
    await expect(await settledCell(page, 0, 'comment')).toHaveText('Relance client faite', { timeout: 15_000 });
    await typeInto(page, 0, 'revenue', '9000');
    await typeInto(page, 0, 'populationSample', 'Cardiologues');
    await expect(await settledCell(page, 0, 'populationSample')).toHaveText('Cardiologues', { timeout: 15_000 });
    await expect(page.getByTestId('delay-reason-dialog')).toHaveCount(0);
  });

  await test.step('Moving the start asks for it', async () => {
    await typeInto(page, 0, 'startDate', '02/03/2026', { settle: false });
    await expect(page.getByTestId('delay-reason-dialog')).toBeVisible({ timeout: 15_000 });
    await page.getByTestId('delay-reason-select').selectOption({ index: 0 });
    await page.getByTestId('delay-reason-confirm').click();
    await expect(page.getByTestId('delay-reason-dialog')).toHaveCount(0);
    await expect(await settledCell(page, 0, 'releaseDateDiff')).toHaveText('60', { timeout: 15_000 });
  });

  await test.step("'7. annulé' clears 'Écart (jours)' and 'Impact CA'; leaving it fills them again, without asking", async () => {
    await cell(page, 0, 'status').hover();
    await page.getByTestId('edit-status').selectOption('7. annulé');
    await page.getByTestId('confirm-yes').click();
    await expect(await settledCell(page, 0, 'link')).toHaveText('ANNULE', { timeout: 15_000 });
    await expect(cell(page, 0, 'releaseDateDiff')).toHaveText('');
    await expect(cell(page, 0, 'revenueDelayImpact')).toHaveText('');
    // Undone with Ctrl+Z, as staff take back a wrong status.
    await page.keyboard.press('Control+z');
    await expect(await settledCell(page, 0, 'releaseDateDiff')).toHaveText('60', { timeout: 15_000 });
    await expect(cell(page, 0, 'revenueDelayImpact')).not.toHaveText('');
    await expect(cell(page, 0, 'link')).not.toHaveText('ANNULE');
    await expect(page.getByTestId('delay-reason-dialog')).toHaveCount(0);
    const saved = (await api('GET', `/project/${project.id}`)).targets[0];
    expect([saved.releaseDateDiff, saved.revenueDelayImpact]).toEqual([60, 4550.56]);
  });

  await test.step("A notification advert's id typed on a post action is refused at the cell, as the search would not offer it", async () => {
    await typeInto(page, 1, 'link', String(notificationAdvert));
    await expect(cell(page, 1, 'link').getByTestId('cell-error-link')).toHaveText(PROJECT_MESSAGES.advertWrongType('post', 'post', 'notification'), {
      timeout: 10_000,
    });
    await expect(cell(page, 1, 'link').getByTestId('edit-link')).toHaveValue(String(notificationAdvert));
    expect((await api('GET', `/project/${project.id}`)).targets[1].advertId).toBeNull();
  });
});

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { demoAccount, expect, signIn, test } from './fixtures';

/**
 * The look of the project screens at 1366 × 768 and 1920 × 1080, measured by the boxes the user sees (the grid's
 * columns whole and steady under the pointer, narrow row actions, the projects list, the timeline, the comments
 * panel), and the target grid walked with the keyboard as a spreadsheet. Screenshots go to test-results/screens/.
 */
const SCREENS = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

let apiUrl: string;
let token: string;
let projectId: number;
let targetIds: number[];

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

test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      mkdirSync(SCREENS, { recursive: true });
      const { email, password } = demoAccount('CSM');
      const session = await api('POST', '/authenticate', { username: email, password });
      token = session.accessToken.value;
      // Rows filled as in real use, the first one with its advert; a second project with long texts for the list.
      const project = await api('POST', '/project', {
        name: 'Grille au clavier',
        clientName: 'Sanofa',
        keyAccount: session.userId,
        actor: 'Laboratoire',
        lines: 3,
      });
      projectId = project.id;
      targetIds = (project.targets as { id: number }[]).map((target) => target.id);
      const advert = (await api('POST', '/advert/create', { advert: { name: 'Pub de la grille', type: 'post' } })).id;
      for (const [index, id] of targetIds.entries())
        await api('PUT', `/target/${id}/properties`, {
          type: 'post',
          ...(index === 0 ? { advertId: advert } : {}),
          populationCategory: 'Médecins généralistes',
          populationSample: 'Cardiologues libéraux',
          populationSize: 12000,
          startDate: Date.UTC(2026, 0, 1) / 1000,
          endDate: Date.UTC(2026, 2, 1) / 1000,
          revenue: 12500.5,
          comment: 'Relance prévue après le congrès',
        });
      await api('PUT', '/project', { id: projectId, status: 'active' });
      const long = await api('POST', '/project', {
        name: 'Campagne nationale hypertension artérielle sévère',
        clientName: 'Laboratoires Sanofa Pasteur',
        keyAccount: session.userId,
        actor: 'Laboratoire',
        lines: 2,
      });
      await api('PUT', '/project', { id: long.id, status: 'active' });
      for (const target of long.targets as { id: number }[])
        await api('PUT', `/target/${target.id}/properties`, {
          type: 'notification',
          status: '3.1 Urgent - Stats à sortir',
          populationCategory: 'Médecins généralistes et spécialistes hospitaliers',
          populationSample: 'Cardiologues libéraux installés depuis plus de cinq ans',
          goal: { views: 125000 },
          startDate: Date.UTC(2026, 0, 1) / 1000,
          endDate: Date.UTC(2026, 2, 1) / 1000,
          checkDate: Date.UTC(2026, 2, 12) / 1000,
        });
    },
  },
});

type Box = { x: number; y: number; width: number; height: number };
const box = async (locator: Locator): Promise<Box> => {
  const found = await locator.boundingBox();
  expect(found, `box of ${locator}`).not.toBeNull();
  return found!;
};
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const cell = (page: Page, row: number, column: string) => page.getByTestId(`cell-${row}-${column}`);

/** The cell has the focus and is whole in sight: no sticky header, first column or row actions over it. */
async function expectActive(page: Page, row: number, column: string) {
  const target = cell(page, row, column);
  await expect(target).toBeFocused();
  const rect = await box(target);
  for (const [x, y] of [
    [rect.x + 2, rect.y + rect.height / 2],
    [rect.x + rect.width - 2, rect.y + rect.height / 2],
  ])
    expect(
      await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.closest('td')?.dataset.testid, [x, y]),
      `what shows at the edges of ${row}:${column}`,
    ).toBe(`cell-${row}-${column}`);
}

/** Every column's left edge and width, header and cells, as drawn. */
const columnBoxes = (page: Page) =>
  page.getByTestId('target-grid').evaluate((table) =>
    [...table.querySelectorAll('tr')].map((row) =>
      [...row.children].map((element) => {
        const rect = element.getBoundingClientRect();
        return { x: Math.round(rect.x * 2) / 2, width: Math.round(rect.width * 2) / 2, height: Math.round(rect.height * 2) / 2 };
      }),
    ),
  );

async function openGrid(page: Page, url: string, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.goto(`${url}/project/edit/${projectId}`);
  await expect(page.getByTestId('target-grid')).toBeVisible({ timeout: 20_000 });
  await expect(cell(page, 0, 'populationSample')).toHaveText('Cardiologues libéraux');
  // The pointer away from the grid: no cell shows its field.
  await page.mouse.move(size.width / 2, 5);
}

test.describe('look of the project screens', () => {
  test.beforeEach(async ({ app }) => {
    if (!(await app.page.getByTestId('logout').isVisible())) await signIn(app.page, app.url, 'CSM');
  });

  for (const size of SIZES) {
    test(`grid at ${size.width}×${size.height}: narrow row actions, cells as wide as their column, no column moves under the pointer`, async ({
      app,
    }) => {
      const { page, url } = app;
      await openGrid(page, url, size);
      await page.screenshot({ path: `${SCREENS}look-grid-${size.width}.png` });
      const wrapper = await box(page.locator('.target-grid-wrapper'));

      // The row actions are icons, each named for the ear and the pointer, in a narrow sticky column.
      const actions = page.getByTestId('target-row-1').locator('td.cell-actions');
      const actionsBox = await box(actions);
      expect(actionsBox.width).toBeLessThanOrEqual(160);
      expect(actionsBox.x + actionsBox.width).toBeLessThanOrEqual(wrapper.x + wrapper.width + 1);
      for (const button of await actions.locator('button').all()) {
        const name = await button.getAttribute('aria-label');
        expect(name).toBeTruthy();
        expect(await button.getAttribute('title')).toBe(name);
        expect((await button.textContent())!.trim()).toBe('');
      }
      await expect(page.getByTestId('target-row-1').getByRole('button', { name: 'Dupliquer' })).toBeVisible();
      await expect(page.getByTestId('target-row-1').getByRole('button', { name: 'Associer une publicité' })).toBeVisible();
      await expect(page.getByTestId('target-row-0').getByRole('button', { name: 'Détacher' })).toBeVisible();

      // Most columns are in sight at once left of the actions: 11 of 19 at 1366 px (7 before), all up to 'CA' at 1920.
      const headers = await page.getByTestId('target-grid').locator('thead th').all();
      let whole = 0;
      for (const header of headers.slice(0, -1)) {
        const headerBox = await box(header);
        if (headerBox.x >= wrapper.x && headerBox.x + headerBox.width <= actionsBox.x) whole++;
      }
      expect(whole).toBeGreaterThanOrEqual(size.width === 1366 ? 11 : 14);

      // Every cell is drawn as wide as its column's header ('Pub / outil' was narrower, leaving a gap).
      const before = await columnBoxes(page);
      const [head, ...rows] = before;
      for (const row of rows)
        for (const [index, drawn] of row.entries()) {
          expect(Math.abs(drawn.x - head![index]!.x), `column ${index} left edge`).toBeLessThanOrEqual(1);
          expect(Math.abs(drawn.width - head![index]!.width), `column ${index} width`).toBeLessThanOrEqual(1);
        }

      // Hovering a cell shows its field over its text: no column grows, no row either.
      for (const [row, column] of [
        [1, 'status'],
        [1, 'type'],
        [1, 'link'],
        [1, 'populationSample'],
        [2, 'goal'],
        [2, 'startDate'],
        [2, 'checkDate'],
        [1, 'revenue'],
      ] as const) {
        const target = cell(page, row, column);
        await target.scrollIntoViewIfNeeded();
        const scrolled = await columnBoxes(page);
        await target.hover();
        await expect(target.getByTestId(`edit-${column}`)).toBeVisible();
        expect(await columnBoxes(page), `hovering ${column}`).toEqual(scrolled);
        const field = await box(target.getByTestId(`edit-${column}`));
        const cellBox = await box(target);
        expect(field.x).toBeGreaterThanOrEqual(cellBox.x - 0.5);
        expect(field.x + field.width).toBeLessThanOrEqual(cellBox.x + cellBox.width + 0.5);
      }
      await page.screenshot({ path: `${SCREENS}look-grid-hover-${size.width}.png` });
    });

    test(`projects list at ${size.width}×${size.height}: dates on one line, no word cut in two`, async ({ app }) => {
      const { page, url } = app;
      await page.setViewportSize(size);
      await page.goto(`${url}/projects`);
      await expect(page.locator('.project-item')).toHaveCount(2, { timeout: 20_000 });
      await page.screenshot({ path: `${SCREENS}look-projects-${size.width}.png` });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      const broken = await page
        .locator('.project-targets')
        .first()
        .evaluate((table) => {
          const found: string[] = [];
          for (const element of table.querySelectorAll('td, th')) {
            const text = element.firstChild?.nodeType === Node.TEXT_NODE ? element.firstChild : element.querySelector('span')?.firstChild;
            if (!text?.textContent) continue;
            // Each word on one line; a date, a code, a type or a goal whole on one line.
            const range = document.createRange();
            const words = [...text.textContent.matchAll(/\S+/g)];
            for (const word of words) {
              range.setStart(text, word.index);
              range.setEnd(text, word.index + word[0].length);
              const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
              if (lines.size > 1) found.push(`word cut: ${word[0]}`);
            }
            if (element.classList.contains('nowrap')) {
              range.selectNodeContents(text);
              const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
              if (lines.size > 1) found.push(`on ${lines.size} lines: ${text.textContent}`);
            }
            if (element.scrollWidth > element.clientWidth + 1) found.push(`overflows: ${text.textContent}`);
          }
          return found;
        });
      expect(broken).toEqual([]);
      await expect(page.locator('.project-targets').first().locator('td.nowrap').first()).toHaveText('LABCAMP26-1.1');
    });

    test(`timeline at ${size.width}×${size.height}: no month under the Commentaires column`, async ({ app }) => {
      const { page, url } = app;
      await openGrid(page, url, size);
      await page.getByTestId('project-timeline-open').click();
      await expect(page.getByTestId('timeline-months')).toBeVisible();
      await expect(page.getByTestId(`timeline-bar-${targetIds[0]}`)).toBeVisible();
      await page.screenshot({ path: `${SCREENS}look-timeline-${size.width}.png` });
      const comments = await box(page.locator('.timeline-comments-head'));
      const labels = await box(page.locator('.timeline-label').first());
      const months = await page.locator('.timeline-month').all();
      expect(months.length).toBe(9);
      for (const month of months) {
        const monthBox = await box(month);
        expect(monthBox.x).toBeGreaterThanOrEqual(labels.x + labels.width - 1);
        expect(monthBox.x + monthBox.width).toBeLessThanOrEqual(comments.x + 1);
        // The month's name and year whole within its column.
        expect(await month.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      }
      expect(comments.x + comments.width).toBeLessThanOrEqual(size.width);
      await page.getByTestId('timeline-close').click();
    });

    test(`comments panel at ${size.width}×${size.height}: below the top bar, 'Déconnexion' in sight and clickable`, async ({ app }) => {
      const { page, url } = app;
      await openGrid(page, url, size);
      await page.getByTestId('project-comments-toggle').click();
      const panel = page.getByTestId('project-side-panel');
      await expect(panel).toBeVisible();
      await page.screenshot({ path: `${SCREENS}look-comments-panel-${size.width}.png` });
      const panelBox = await box(panel);
      const logout = await box(page.getByTestId('logout'));
      const bar = await box(page.locator('.topbar'));
      expect(intersects(panelBox, logout)).toBe(false);
      expect(panelBox.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
      expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(size.height + 1);
      expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(size.width);
      // Nothing lies over the button: the point under its centre is the button itself.
      const onTop = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid]')?.getAttribute('data-testid'),
        [logout.x + logout.width / 2, logout.y + logout.height / 2],
      );
      expect(onTop).toBe('logout');
      await page.getByTestId('side-panel-close').click();
    });
  }

  test('the grid moves like a spreadsheet: arrows, Tab, Enter or F2 to edit, Enter saves and goes down, Escape restores', async ({ app }) => {
    const { page, url } = app;
    await openGrid(page, url, SIZES[0]);
    // One tab stop: from the page's last button, Tab enters the grid at its first cell.
    await page.getByTestId('project-delete').focus();
    await page.keyboard.press('Tab');
    await expect(cell(page, 0, 'actionCode')).toBeFocused();

    // Arrows move the active cell and stop at the edges.
    await page.keyboard.press('ArrowLeft');
    await expect(cell(page, 0, 'actionCode')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(cell(page, 0, 'status')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(cell(page, 1, 'status')).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(cell(page, 1, 'actionCode')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(cell(page, 0, 'actionCode')).toBeFocused();
    // Tab and Shift+Tab: next and previous cell.
    await page.keyboard.press('Tab');
    await expect(cell(page, 0, 'status')).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(cell(page, 0, 'actionCode')).toBeFocused();

    // Enter edits the active cell, its text in the field; Enter saves and goes down a row.
    for (let step = 0; step < 5; step++) await page.keyboard.press('ArrowRight');
    await expect(cell(page, 0, 'populationSample')).toBeFocused();
    const widths = await columnBoxes(page);
    await page.keyboard.press('Enter');
    const field = cell(page, 0, 'populationSample').getByTestId('edit-populationSample');
    await expect(field).toBeFocused();
    await expect(field).toHaveValue('Cardiologues libéraux');
    expect(await columnBoxes(page)).toEqual(widths);
    await page.keyboard.type(' de ville');
    await page.keyboard.press('Enter');
    await expect(cell(page, 1, 'populationSample')).toBeFocused();
    await expect(cell(page, 0, 'populationSample')).toHaveText('Cardiologues libéraux de ville', { timeout: 15_000 });
    await expect
      .poll(async () => (await api('GET', `/project/${projectId}`)).targets[0].populationSample, { timeout: 15_000 })
      .toBe('Cardiologues libéraux de ville');

    // F2 edits too; Escape gives the value back, saves nothing, and leaves the focus on the cell.
    await page.keyboard.press('F2');
    const second = cell(page, 1, 'populationSample').getByTestId('edit-populationSample');
    await expect(second).toBeFocused();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Autre chose');
    await page.keyboard.press('Escape');
    await expect(cell(page, 1, 'populationSample')).toBeFocused();
    await expect(cell(page, 1, 'populationSample').getByTestId('edit-populationSample')).toHaveCount(0);
    await expect(cell(page, 1, 'populationSample')).toHaveText('Cardiologues libéraux');
    expect((await api('GET', `/project/${projectId}`)).targets[1].populationSample).toBe('Cardiologues libéraux');

    // Tab from a field being edited saves it and goes to the next cell.
    await page.keyboard.press('F2');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Dermatologues');
    await page.keyboard.press('Tab');
    await expect(cell(page, 1, 'populationSize')).toBeFocused();
    await expect(cell(page, 1, 'populationSample')).toHaveText('Dermatologues', { timeout: 15_000 });

    // A refused value keeps the focus in its field, with its message; Escape then gives the value back.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('douze mille');
    await page.keyboard.press('Enter');
    await expect(cell(page, 1, 'populationSize').getByTestId('cell-error-populationSize')).toBeVisible();
    await expect(cell(page, 1, 'populationSize').getByTestId('edit-populationSize')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(cell(page, 1, 'populationSize')).toBeFocused();
    await expect(cell(page, 1, 'populationSize')).toHaveText('12 000');

    // A list cell: Enter opens its select; Escape goes back to the cell.
    await page.keyboard.press('ArrowUp');
    for (let step = 0; step < 4; step++) await page.keyboard.press('ArrowLeft');
    await expect(cell(page, 0, 'type')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(cell(page, 0, 'type').getByTestId('edit-type')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(cell(page, 0, 'type')).toBeFocused();

    // A computed cell is not edited. Home and End: the row's first and last cells.
    await page.keyboard.press('Home');
    await expect(cell(page, 0, 'actionCode')).toBeFocused();
    for (let step = 0; step < 30; step++) await page.keyboard.press('ArrowRight');
    await expectActive(page, 0, 'comment');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(cell(page, 0, 'revenueDelayImpact')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('edit-revenueDelayImpact')).toHaveCount(0);
    await expect(cell(page, 0, 'revenueDelayImpact')).toBeFocused();

    // Past a row's last cell, Tab goes through its actions, then on to the next row; Shift+Tab comes back.
    await page.keyboard.press('End');
    await expectActive(page, 0, 'comment');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('target-detach-0')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('target-duplicate-0')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('target-delete-0')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(cell(page, 1, 'actionCode')).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByTestId('target-delete-0')).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expectActive(page, 0, 'comment');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await expectActive(page, 0, 'status');
    await page.screenshot({ path: `${SCREENS}look-grid-keyboard.png` });
  });
});

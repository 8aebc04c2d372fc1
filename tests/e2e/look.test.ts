import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { demoAccount, expect, signIn, test } from './fixtures';
import { api, signInToApi } from '../helpers/api';

/**
 * What the user sees of the actions list and the top bar, at 1366 × 768 and 1920 × 1080: boxes within the window, no
 * page wider than it, texts. Screenshots go to test-results/screens/ (gitignored) to be looked at.
 */
const SCREENS = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

let apiUrl: string;

const call = (method: string, path: string, body: unknown, token?: string) => api({ apiUrl, token }, method, path, body);

/** Actions filled in every column, as in real use: the list is as wide as it gets. */
async function seed() {
  const { email, password } = demoAccount('CSM');
  const session = await signInToApi(apiUrl, email, password);
  const token = session.token;
  const project = await call(
    'POST',
    '/project',
    { name: 'Campagne nationale hypertension artérielle', clientName: 'Sanofa', keyAccount: session.userId, actor: 'Laboratoire', lines: 2 },
    token,
  );
  for (const target of project.targets as { id: number }[]) {
    await call(
      'PUT',
      `/target/${target.id}/properties`,
      {
        status: '2. en ligne',
        type: 'post',
        goal: { views: 12000 },
        populationCategory: 'Médecins généralistes et spécialistes',
        populationSample: 'Cardiologues libéraux installés',
        populationSize: 95000,
        startDate: Date.UTC(2026, 8, 7) / 1000,
        endDate: Date.UTC(2026, 9, 7) / 1000,
        checkDate: Date.UTC(2026, 9, 20) / 1000,
      },
      token,
    );
  }
}

test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      mkdirSync(SCREENS, { recursive: true });
      await seed();
    },
  },
});

test.describe('look of the actions list and the top bar', () => {
  for (const size of SIZES) {
    test(`/targets fits the window at ${size.width}×${size.height}: the grid scrolls sideways in its own box`, async ({ app, browser }) => {
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: size });
      const page = await context.newPage();
      await signIn(page, app.url, 'CSM');
      await page.goto(`${app.url}/targets`);
      await expect(page.locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: `${SCREENS}look-targets-${size.width}.png` });

      // The page is no wider than the window: nothing to scroll sideways but the grid.
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
      expect(widths.page).toBeLessThanOrEqual(widths.window);
      const box = (await page.getByTestId('targets-scroll').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      const search = (await page.getByTestId('targets-export').boundingBox())!;
      expect(search.x + search.width).toBeLessThanOrEqual(size.width);

      // The last column is reached by scrolling the grid, and is then whole within the window.
      const last = page.locator('thead th').last();
      await last.scrollIntoViewIfNeeded();
      await expect(last).toContainText('Deadline sortie KPIs');
      const lastBox = (await last.boundingBox())!;
      expect(lastBox.x).toBeGreaterThanOrEqual(0);
      expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(size.width + 0.5);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await page.screenshot({ path: `${SCREENS}look-targets-${size.width}-scrolled.png` });
      await context.close();
    });
  }

  test('a column filter that matches nothing says so', async ({ app, page }) => {
    await signIn(page, app.url, 'CSM');
    await page.goto(`${app.url}/targets`);
    await expect(page.locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('targets-column-populationSample').click();
    await expect(page.getByTestId('targets-menu-populationSample').locator('label[title="Cardiologues libéraux installés"]')).toBeVisible();
    await expect(page.getByTestId('targets-filter-empty-populationSample')).toHaveCount(0);
    await page.getByTestId('targets-filter-populationSample').fill('zzzz');
    await expect(page.getByTestId('targets-filter-empty-populationSample')).toHaveText(PROJECT_MESSAGES.noResult);
    await expect(page.getByTestId('targets-filter-empty-populationSample')).toHaveText('Aucun résultat');
    // Enter on nothing found keeps the list as it was, and still says so.
    await page.getByTestId('targets-filter-populationSample').press('Enter');
    await expect(page.getByTestId('targets-filter-empty-populationSample')).toBeVisible();
    await expect(page.locator('tbody tr')).toHaveCount(2);
  });

  for (const size of SIZES) {
    test(`the current entry of a top-bar menu reads dark on light at ${size.width}×${size.height}`, async ({ app, browser }) => {
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: size });
      const page = await context.newPage();
      await signIn(page, app.url, 'CSM');
      await page.goto(`${app.url}/targets`);
      await page.getByTestId('nav-projects').locator('summary').click();
      const current = page.getByTestId('nav-projects').locator('a.active');
      await expect(current).toHaveCount(1);
      await expect(current).toBeVisible();
      await page.screenshot({ path: `${SCREENS}look-menu-${size.width}.png` });
      const colours = await current.evaluate((element) => {
        const text = getComputedStyle(element).color;
        let node: Element | null = element;
        let background = 'rgba(0, 0, 0, 0)';
        while (node && (background === 'rgba(0, 0, 0, 0)' || background === 'transparent')) {
          background = getComputedStyle(node).backgroundColor;
          node = node.parentElement;
        }
        return { text, background };
      });
      // Text and background far apart: white on white (rgb(255, 255, 255) twice) used to hide the entry.
      const channels = (colour: string) =>
        colour
          .match(/\d+(\.\d+)?/g)!
          .slice(0, 3)
          .map(Number);
      const luminance = (colour: string) => {
        const [r, g, b] = channels(colour).map((value) => {
          const c = value / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const [light, dark] = [luminance(colours.text), luminance(colours.background)].sort((a, b) => b - a);
      expect((light! + 0.05) / (dark! + 0.05), JSON.stringify(colours)).toBeGreaterThanOrEqual(4.5);
      await context.close();
    });
  }
});

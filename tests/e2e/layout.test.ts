import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { demoAccount, expect, signIn, test } from './fixtures';
import { api, signInToApi } from '../helpers/api';
import { createPreviewAdvert } from './preview-fixtures';

/**
 * Look and layout: each screen found rough at 1366 × 768 and 1920 × 1080, measured by the boxes
 * the user sees. Screenshots go to test-results/screens/ (gitignored) to be looked at.
 */
const SCREENS = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

let apiUrl: string;
let token: string;
let projectId: number;
let audienceId: number;
let quizId: number;
let storyId: number;
let funnelStartId: number;

const call = (method: string, path: string, body?: unknown) => api({ apiUrl, token }, method, path, body);

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      apiUrl = app.apiUrl;
      mkdirSync(SCREENS, { recursive: true });
      // The CSM makes the project and the adverts, the CSM lead (audience writer) the audience and walks the screens.
      const { email, password } = demoAccount('CSM');
      const session = await signInToApi(apiUrl, email, password);
      token = session.token;
      const project = await call('POST', '/project', {
        name: 'Grille de mise en page',
        clientName: 'Sanofa',
        keyAccount: session.userId,
        actor: 'Laboratoire',
        lines: 4,
      });
      projectId = project.id;
      const lead = demoAccount('CSM_LEAD');
      const csm = token;
      token = (await signInToApi(apiUrl, lead.email, lead.password)).token;
      audienceId = (await call('POST', '/audience', { name: 'Cardiologues de mise en page', type: 'timeline' })).id;
      token = csm;
      quizId = await createPreviewAdvert(app, token, 'quiz');
      storyId = await createPreviewAdvert(app, token, 'story');
      await createPreviewAdvert(app, token, 'notification');
      funnelStartId = (await call('POST', '/advert/create', { advert: { name: 'Étape un du funnel', type: 'post' } })).id;
      const second = (await call('POST', '/advert/create', { advert: { name: 'Étape deux du funnel', type: 'post' } })).id;
      const funnel = await call('POST', `/advert/${funnelStartId}/funnel/create`, {});
      await call('POST', `/advert/${funnelStartId}/funnel/append`, { funnelUuid: funnel.uuid, newAdvertId: second, minViews: 3 });
      // Rows filled as in real use: the grid is as wide as it gets with text in every column.
      for (const [index, target] of (project.targets as { id: number }[]).entries()) {
        await call('PUT', `/target/${target.id}/properties`, {
          type: 'post',
          // An advert is linked to one action at most.
          ...(index === 0 ? { advertId: funnelStartId } : {}),
          populationCategory: 'Médecins généralistes',
          populationSample: 'Cardiologues libéraux',
          populationSize: 12000,
          startDate: 1767225600,
          // The last action runs two years: more months than the window shows.
          endDate: index === 3 ? 1827792000 : 1772323200,
          revenue: 12500.5,
          comment: 'Relance prévue après le congrès',
        });
      }
      await signIn(app.page, app.url, 'CSM_LEAD');
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

async function shoot(page: Page, name: string, size: { width: number; height: number }) {
  await page.screenshot({ path: `${SCREENS}${name}-${size.width}x${size.height}.png` });
}

/** The page itself never scrolls sideways: what is wider scrolls inside its own box. */
async function expectNoPageOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'page wider than the window').toBeLessThanOrEqual(innerWidth);
}

/** The height of one line of the element's text. */
const lineHeight = (locator: Locator) =>
  locator.evaluate((element) => {
    const style = getComputedStyle(element);
    const line = Number.parseFloat(style.lineHeight);
    return Number.isFinite(line) ? line : Number.parseFloat(style.fontSize) * 1.25;
  });

for (const size of SIZES)
  test.describe(`layout at ${size.width} × ${size.height} (web host, Chromium)`, () => {
    test('project grid: scrolls inside its box, header and first column stay, row actions reachable', async ({ app }) => {
      const { page, url } = app;
      await page.setViewportSize(size);
      await page.goto(`${url}/project/edit/${projectId}`);
      const grid = page.getByTestId('target-grid');
      await expect(grid).toBeVisible({ timeout: 20_000 });
      await shoot(page, 'project-grid', size);
      await expectNoPageOverflow(page);
      const wrapper = page.locator('.target-grid-wrapper');
      const frame = await box(wrapper);
      expect(frame.x + frame.width).toBeLessThanOrEqual(size.width);
      // The row actions are in sight at once, at the right end of the scroll container.
      const actions = page.getByTestId('target-row-0').locator('td.cell-actions');
      const actionsBox = await box(actions);
      expect(actionsBox.x).toBeGreaterThanOrEqual(frame.x);
      expect(actionsBox.x + actionsBox.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
      // Scrolled to the far right: the first column stays at the left edge, the actions at the right one.
      const firstCell = page.getByTestId('target-row-0').locator('td').first();
      await wrapper.evaluate((element) => (element.scrollLeft = element.scrollWidth));
      await expect.poll(async () => Math.abs((await box(firstCell)).x - frame.x)).toBeLessThanOrEqual(2);
      const afterScroll = await box(actions);
      expect(afterScroll.x + afterScroll.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
      // 'Ajouter une action' stays in sight too.
      expect((await box(page.getByTestId('target-add'))).x).toBeGreaterThanOrEqual(frame.x);
      await shoot(page, 'project-grid-scrolled', size);
      // Scrolled down: the header stays at the top of the grid's box.
      const header = grid.locator('thead th').first();
      const wrapperBox = await box(wrapper);
      await wrapper.evaluate((element) => (element.scrollTop = element.scrollHeight));
      await expect.poll(async () => Math.abs((await box(header)).y - wrapperBox.y)).toBeLessThanOrEqual(2);
      await wrapper.evaluate((element) => {
        element.scrollLeft = 0;
        element.scrollTop = 0;
      });
    });

    test('timeline: the Commentaires column is whole within the overlay', async ({ app }) => {
      const { page, url } = app;
      await page.setViewportSize(size);
      await page.goto(`${url}/project/edit/${projectId}`);
      await page.getByTestId('project-timeline-open').click();
      const overlay = page.locator('.timeline-overlay');
      await expect(overlay).toBeVisible();
      await expect(page.getByTestId('timeline-months')).toBeVisible();
      await shoot(page, 'timeline', size);
      await expectNoPageOverflow(page);
      // The months scroll sideways; the Commentaires column (heading and fields) stays whole in sight.
      expect(await overlay.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      const overlayBox = await box(overlay);
      for (const comments of [page.locator('.timeline-comments-head'), page.locator('.timeline-comments').first()]) {
        const commentsBox = await box(comments);
        expect(commentsBox.x + commentsBox.width).toBeLessThanOrEqual(overlayBox.x + overlayBox.width);
        expect(commentsBox.width).toBeGreaterThanOrEqual(200);
      }
      // Scrolled to the last month, the action labels stay at the left.
      await overlay.evaluate((element) => (element.scrollLeft = element.scrollWidth));
      await expect.poll(async () => (await box(page.locator('.timeline-label').nth(1))).x).toBeGreaterThanOrEqual(overlayBox.x);
      // Nothing of the months shows left of the labels, and the title with its close button stays.
      expect((await box(page.locator('.timeline-label').nth(1))).x).toBeLessThanOrEqual(overlayBox.x + 1);
      const close = await box(page.getByTestId('timeline-close'));
      expect(close.x + close.width).toBeLessThanOrEqual(size.width);
      await shoot(page, 'timeline-scrolled', size);
    });

    test('audiences: the row menu shows each action on one line; the search box is wide enough', async ({ app }) => {
      const { page, url } = app;
      await page.setViewportSize(size);
      await page.goto(`${url}/audiences`);
      const menu = page.getByTestId(`audience-menu-${audienceId}`);
      await expect(menu).toBeVisible({ timeout: 20_000 });
      await menu.locator('summary').click();
      await shoot(page, 'audiences-menu', size);
      for (const action of ['edit', 'duplicate', 'delete']) {
        const item = page.getByTestId(`audience-${action}-${audienceId}`);
        expect((await box(item)).height).toBeLessThanOrEqual((await lineHeight(item)) + 1);
      }
      await expectNoPageOverflow(page);
      await menu.locator('summary').click();
    });

    test('adverts list: a type shows on one line', async ({ app }) => {
      const { page, url } = app;
      await page.setViewportSize(size);
      await page.goto(`${url}/adverts`);
      const cell = page.locator('td', { hasText: /^notification$/ }).first();
      await expect(cell).toBeVisible({ timeout: 20_000 });
      await shoot(page, 'adverts-list', size);
      const range = await cell.evaluate((element) => {
        const text = document.createRange();
        text.selectNodeContents(element);
        return text.getClientRects().length;
      });
      expect(range).toBe(1);
      await expectNoPageOverflow(page);
    });

    for (const kind of ['quiz', 'story'] as const) {
      test(`${kind} editor: the expanded preview stays in its column, clear of the bars, and sticks while the form scrolls`, async ({ app }) => {
        const { page, url } = app;
        await page.setViewportSize(size);
        await page.goto(`${url}/adverts/edit/${kind === 'quiz' ? quizId : storyId}`);
        const preview = page.getByTestId('preview');
        await expect(preview).toBeVisible({ timeout: 20_000 });
        await page.getByTestId('preview-expand').click();
        await expect(preview).toHaveAttribute('data-expanded', 'true');
        await shoot(page, `${kind}-preview-expanded`, size);
        await expectNoPageOverflow(page);
        const previewBox = await box(preview);
        const form = await box(page.locator('.editor-form'));
        expect(previewBox.x).toBeGreaterThanOrEqual(form.x + form.width);
        expect(form.width).toBeGreaterThanOrEqual(400);
        for (const button of [
          page.getByTestId('open-deeplink'),
          page.getByTestId('toggle-history'),
          page.getByTestId('publish-toggle'),
          page.getByTestId('logout'),
          page.getByTestId('convert'),
        ]) {
          if ((await button.count()) === 0) continue;
          expect(intersects(previewBox, await box(button)), `preview over ${button}`).toBe(false);
        }
        // The form scrolls; the preview stays in sight.
        await page.mouse.wheel(0, 2000);
        await expect.poll(async () => (await box(preview)).y).toBeGreaterThanOrEqual(0);
        await expect.poll(async () => (await box(preview)).y).toBeLessThan(size.height / 2);
        await shoot(page, `${kind}-preview-scrolled`, size);
        await page.getByTestId('preview-expand').click();
      });
    }

    test('advert editor: the audience search is wide, the funnel steps read apart, the image editor fits its dialog', async ({ app }) => {
      const { page, url } = app;
      await page.setViewportSize(size);
      await page.goto(`${url}/adverts/edit/${funnelStartId}`);
      const search = page.getByTestId('audience-search');
      await expect(search).toBeVisible({ timeout: 20_000 });
      await shoot(page, 'advert-editor', size);
      const section = await box(search.locator('xpath=ancestor::*[contains(@class, "editor-section-body")][1]'));
      expect((await box(search)).width).toBeGreaterThanOrEqual(Math.min(360, section.width - 28));
      await expectNoPageOverflow(page);

      // The funnel: the step's name and the views field are apart.
      await page.getByTestId('section-funnels-toggle').click();
      const step = page.getByTestId(`funnel-step-${funnelStartId}`);
      await step.scrollIntoViewIfNeeded();
      await step.screenshot({ path: `${SCREENS}funnel-${size.width}x${size.height}.png` });
      const name = await box(step.locator('span').first());
      const views = await box(step.locator('label'));
      expect(views.x - (name.x + name.width) >= 8 || views.y >= name.y + name.height).toBe(true);
      // 'vues avant #n :' and its field on one line.
      expect(views.height).toBeLessThan(2 * (await lineHeight(step.locator('label'))));

      // The image editor: its fields fit the dialog.
      await page.getByTestId('edit-image').click();
      const dialog = page.getByTestId('image-editor').locator('.dialog');
      await expect(dialog).toBeVisible();
      const png = await page.evaluate(() => {
        const canvas = document.createElement('canvas');
        canvas.width = 40;
        canvas.height = 20;
        canvas.getContext('2d')!.fillRect(0, 0, 40, 20);
        return canvas.toDataURL('image/png').split(',')[1];
      });
      await page.getByTestId('image-editor-file').setInputFiles({ name: 'carre.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
      await expect(page.getByTestId('image-editor-canvas')).toBeVisible();
      await shoot(page, 'image-editor', size);
      const dialogBox = await box(dialog);
      const fields = page.locator('.image-editor-fields input');
      for (let index = 0; index < (await fields.count()); index += 1) {
        const field = await box(fields.nth(index));
        expect(field.x + field.width).toBeLessThanOrEqual(dialogBox.x + dialogBox.width - 10);
      }
      await page.getByTestId('image-editor-cancel').click();
    });
  });

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Page } from '@playwright/test';
import type { Role } from '@shared/roles';
import { screenEntries, canOpenRoute } from '@shared/screens';
import { expect, signIn, test, type WebApp } from './fixtures';
import { signOut } from './helpers';

/**
 * Staff use the keyboard and assistive technology all day: an axe-core pass (WCAG 2 A and AA rules) over every
 * signed-in screen of the registry each role may open, on the demo workspace, finds no critical or serious
 * violation. One sign-in per role, and each screen reached by the app's own navigation (no reload), with axe-core
 * loaded once per role.
 *
 * No DOM is walked twice: each screen is checked in two parts, its content (`main`) and the rest of the page (the
 * shell, with the page-level rules: title, landmarks, language), and a part whose markup was already checked, on
 * another screen or for another role, is not checked again (its result, kept by the hash of its markup, is the same:
 * the same markup under the same style sheet). A screen's content differs between roles where its buttons do; the
 * shell differs per role and per active menu entry.
 */

/** SCREENSHOTS_DIR=<folder> keeps a picture of each screen (1366×768) as each role sees it. */
const screenshots = process.env.SCREENSHOTS_DIR;

async function firstId(app: WebApp, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await app.host.embedded!.database.db.execute(query)) as unknown as { rows: { id: number }[] };
  if (!result.rows[0]) throw new Error('the demo workspace has no row for a screen address');
  return result.rows[0].id;
}

/** A real address for each screen whose path names a record: the demo workspace's first one. */
async function addressesOf(app: WebApp): Promise<Map<string, string>> {
  const advert = await firstId(app, sql`SELECT id FROM adverts ORDER BY id LIMIT 1`);
  const proof = await firstId(app, sql`SELECT advert_id AS id FROM bats ORDER BY id LIMIT 1`);
  return new Map([
    ['adverts.edit', `/adverts/edit/${advert}`],
    ['adverts.proof', `/advert/bat/${proof}`],
    ['articles.edit', `/articles/edit/${await firstId(app, sql`SELECT id FROM articles ORDER BY id LIMIT 1`)}`],
    ['projects.edit', `/project/edit/${await firstId(app, sql`SELECT id FROM projects ORDER BY id LIMIT 1`)}`],
    ['audiences.edit', `/audiences/${await firstId(app, sql`SELECT id FROM audiences ORDER BY id LIMIT 1`)}`],
    ['audiences.groupEdit', `/group/OrGroup/${await firstId(app, sql`SELECT node_id AS id FROM audience_groups ORDER BY node_id LIMIT 1`)}`],
    ['audiences.debug', `/debug/audiences/${await firstId(app, sql`SELECT id FROM app_users ORDER BY id LIMIT 1`)}`],
    ['alphonse.project', `/alphonse/project/${await firstId(app, sql`SELECT id FROM lab_projects ORDER BY id LIMIT 1`)}`],
  ]);
}

/** Signed-in screens a role may open; '/' is /adverts again and /403 is reached by refusal, not chosen. */
function screensFor(role: Role, addresses: Map<string, string>): { id: string; path: string }[] {
  return screenEntries()
    .filter((screen) => screen.access.kind !== 'public' && screen.id !== 'home')
    .map((screen) => ({ id: screen.id, path: addresses.get(screen.id) ?? screen.path }))
    .filter((screen) => !screen.path.includes(':') && canOpenRoute(screen.path, [role]));
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The critical and serious violations axe finds in one part of the page: one readable line per rule. */
async function seriousViolations(page: Page, part: 'content' | 'shell'): Promise<string[]> {
  const violations = await page.evaluate(
    async ({ part }) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
      const context = part === 'content' ? { include: [['main']] } : { exclude: [['main']] };
      // Only violations are collected: axe skips gathering every passing node, most of its time on the long tables.
      const results = await axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] });
      return results.violations;
    },
    { part },
  );
  return violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => {
      const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(' '));
      const why = violation.nodes[0]?.failureSummary?.split('\n').slice(1).join(' ').trim() ?? '';
      return `[${violation.impact}] ${violation.id} ×${violation.nodes.length}: ${violation.help} — ${targets.join(', ')} — ${why}`;
    });
}

/** Violations already found per markup hash, across the screens and roles this worker checked. */
const checkedParts = new Map<string, string[]>();

/** The screen's two parts, each checked by axe unless the same markup was checked before. */
async function screenViolations(page: Page): Promise<string[]> {
  const markup = await page.evaluate(() => {
    const main = document.querySelector('main');
    const content = main?.outerHTML ?? '';
    const shell = document.documentElement.outerHTML.replace(content, '<main></main>');
    return { content, shell: `${document.title}\n${shell}` };
  });
  // React's generated ids (useId) count the mounts; the same markup under other ids is the same markup.
  const generatedIds = /«[^»]*»|:r[0-9a-z]+:/g;
  const found: string[] = [];
  for (const part of ['content', 'shell'] as const) {
    const key = `${part}:${createHash('sha256').update(markup[part].replace(generatedIds, '«id»')).digest('hex')}`;
    let violations = checkedParts.get(key);
    if (!violations) checkedParts.set(key, (violations = await seriousViolations(page, part)));
    found.push(...violations);
  }
  return found;
}

/**
 * Opens `path` as a link in the app would: the router's history, no reload (axe stays loaded). The screen's heading
 * is marked first: a screen is drawn under a new key per path, so the next screen's heading is a new element.
 */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    if (window.location.pathname === target) return;
    document.querySelector('main h1')?.setAttribute('data-previous-screen', '');
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

/** Seeded: the demo adverts and articles are written once the demo audiences exist, in the background. */
async function demoSeeded(app: WebApp): Promise<boolean> {
  const result = (await app.host.embedded!.database.db.execute(
    sql`SELECT (SELECT count(*) FROM articles)::int AS articles, (SELECT count(*) FROM bats)::int AS bats`,
  )) as unknown as { rows: { articles: number; bats: number }[] };
  return result.rows[0].articles > 0 && result.rows[0].bats > 0;
}

test.use({
  appOptions: {
    demoPopulation: { users: 100, events: 500 },
    prepare: async (app) => {
      await app.page.setViewportSize({ width: 1366, height: 768 });
      await expect.poll(() => demoSeeded(app), { message: 'the demo workspace was seeded', timeout: 240_000 }).toBe(true);
    },
  },
});

test.describe('accessibility: axe-core on every screen, per role (web host, Chromium)', () => {
  const roles: Role[] = ['ADMIN', 'CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR', 'CONTENT_CREATOR_LEAD'];
  for (const role of roles) {
    test(`${role}: no critical or serious violation on the screens the role may open`, async ({ app }) => {
      test.setTimeout(300_000);
      const { page, url } = app;
      const addresses = await addressesOf(app);
      await signIn(page, url, role);
      await page.evaluate(axeSource);
      const found: string[] = [];
      for (const screen of screensFor(role, addresses)) {
        await navigateInApp(page, screen.path);
        // Each signed-in screen names itself in one <h1> (WCAG 2.4.6, 1.3.1), what a screen reader jumps to; the
        // screen is drawn once it is there and nothing says it loads.
        const titled = await expect(page.locator('main h1:not([data-previous-screen])'))
          .toHaveCount(1)
          .then(
            () => true,
            () => false,
          );
        await expect(page.getByText(/^(Chargement…|Loading\.\.\.)$/)).toHaveCount(0);
        const violations = await screenViolations(page);
        if (screenshots) await page.screenshot({ path: `${screenshots}/a11y-${role}-${screen.id}.png` });
        if (!titled) violations.push(`${await page.locator('h1').count()} <h1> on the screen, not one`);
        if (new URL(page.url()).pathname !== screen.path) violations.push(`sent to ${new URL(page.url()).pathname}`);
        if (violations.length) found.push(`${screen.path} (${screen.id}):\n  ${violations.join('\n  ')}`);
      }
      await signOut(page);
      expect(found, `${role}: axe violations\n${found.join('\n')}`).toEqual([]);
    });
  }
});

test.describe('accessibility: a modal dialog keeps the keyboard and gives it back (web host, Chromium)', () => {
  test("CSM, 'Nouveau projet': 25 Tab presses stay in the dialog; Escape closes it and focus returns to the button", async ({ app }) => {
    const { page, url } = app;
    await signIn(page, url, 'CSM');
    await page.goto(`${url}/projects`);
    const opener = page.getByTestId('projects-new');
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('create-project-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Créer un projet' })).toBeVisible();
    for (let press = 1; press <= 25; press++) {
      await page.keyboard.press('Tab');
      const inside = await dialog.evaluate((element) => element.contains(document.activeElement));
      expect(inside, `Tab press ${press} left the dialog`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
    await signOut(page);
  });
});

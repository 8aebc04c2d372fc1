import { sql } from 'drizzle-orm';
import { AUDIENCE_NOTICES, GROUP_MESSAGES, MESSAGES } from '@shared/messages';
import { demoAccount, expect, signIn, test } from './fixtures';
import { changeAccountElsewhere } from './helpers';
import { ingest } from './population';

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      await ingest(
        app,
        [
          { externalId: 't-1', email: 'testeur.un@exemple.fr' },
          { externalId: 't-2', email: 'testeur.deux@exemple.fr' },
          { externalId: 't-3', email: 'autre@exemple.fr' },
        ],
        [
          { user: 't-1', document: 'Guide HTA', count: 3 },
          { user: 't-2', document: 'Guide HTA' },
        ],
      );
      await changeAccountElsewhere(app, demoAccount('CSM').email, ['CSM', 'CSM_LEAD']);
    },
  },
});

test.describe('test accounts (web host, Chromium)', () => {
  test('searches from 3 characters, resets interactions after a confirmation, and shows failures as error toasts', async ({ app }) => {
    const { page, url } = app;
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/__ipc/api') && request.postData()?.includes('appUsers.search')) searches.push(request.postData()!);
    });
    // The page's timers run on a clock the test moves on itself around the typing (the search waits for a pause).
    await page.clock.install();
    await signIn(page, url, 'CSM');
    await page.getByTestId('nav-audiences').click();
    await page.getByTestId('nav-audiences.testAccounts').click();
    await page.waitForURL((u) => u.pathname === '/test-accounts');
    const search = page.getByTestId('test-accounts-search');
    await expect(search).toHaveAttribute('placeholder', 'Rechercher un compte');

    // Two characters: no search, however long the pause.
    await page.clock.pauseAt(Date.now() + 1000);
    await search.fill('te');
    await page.clock.runFor(600);
    expect(searches).toEqual([]);
    await expect(page.locator('[data-testid^="test-account-row-"]')).toHaveCount(0);

    // Typed quickly: one search, for the last term, after the 200 ms pause.
    await search.pressSequentially('steur', { delay: 20 });
    await page.clock.runFor(300);
    await page.clock.resume();
    const rows = page.locator('[data-testid^="test-account-row-"]');
    await expect(rows).toHaveCount(2);
    expect(searches.length).toBe(1);
    expect(await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-email')))).toEqual([
      'testeur.deux@exemple.fr',
      'testeur.un@exemple.fr',
    ]);
    expect(await page.getByTestId('test-accounts-table').locator('th').allTextContents()).toEqual(['Id', 'E-mail', 'Interactions', 'Reset']);

    const un = page.locator('tr[data-email="testeur.un@exemple.fr"]');
    const id = Number((await un.getAttribute('data-testid'))!.replace('test-account-row-', ''));
    await expect(page.getByTestId(`test-account-count-${id}`)).toHaveText('3');
    await page.getByTestId(`test-account-reset-${id}`).click();
    const prompt = page.getByTestId(`test-account-reset-${id}-prompt`);
    await expect(prompt).toContainText(GROUP_MESSAGES.confirmResetInteractions);
    expect(GROUP_MESSAGES.confirmResetInteractions).toBe('Réinitialiser les interactions ?');
    await prompt.getByRole('button', { name: 'Oui' }).click();
    await expect(page.locator('.Toastify__toast--success', { hasText: 'Réinitialisation des interactions effectuée' })).toBeVisible();
    expect(AUDIENCE_NOTICES.interactionsReset.durationMs).toBe(3500);
    await expect(page.getByTestId(`test-account-count-${id}`)).toHaveText('0');

    // The server agrees: searched again, still 0.
    await search.fill('testeur.un');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-email', 'testeur.un@exemple.fr');
    await expect(page.getByTestId(`test-account-count-${id}`)).toHaveText('0');

    // A reset that fails (the user went meanwhile): the error as an error toast.
    await search.fill('testeur.deux');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-email', 'testeur.deux@exemple.fr');
    const deuxId = Number((await rows.first().getAttribute('data-testid'))!.replace('test-account-row-', ''));
    const db = app.host.embedded!.database.db as unknown as { execute(query: unknown): Promise<unknown> };
    await db.execute(sql`DELETE FROM app_users WHERE email = 'testeur.deux@exemple.fr'`);
    await page.getByTestId(`test-account-reset-${deuxId}`).click();
    await page.getByTestId(`test-account-reset-${deuxId}-prompt`).getByRole('button', { name: 'Oui' }).click();
    await expect(page.locator('.Toastify__toast--error', { hasText: MESSAGES.appUserNotFound })).toBeVisible();
  });

  test('is refused to CSM_LEAD alone (needs both CSM and CSM_LEAD)', async ({ app }) => {
    const { page, url } = app;
    await page.context().clearCookies();
    await signIn(page, url, 'CSM_LEAD');
    await page.goto(`${url}/test-accounts`);
    await page.waitForURL((u) => u.pathname === '/403');
  });
});

import { AUDIENCE_MESSAGES } from '@shared/messages';
import { demoAccount, expect, test } from './fixtures';

/**
 * In a new audience, 'cardio' listed the feed and 24 documents (the limit) and the specialty
 * 'Cardiologie et maladies vasculaires' only for 'Cardiologie et'; a term matching nothing showed nothing at all.
 */

test.use({
  appOptions: {
    demoPopulation: { users: 200, events: 500 },
    prepare: async (app) => {
      // The demo workspace of `npm run web`: feeds, apps and 2,000 documents, a quarter of them about cardiology.
      const { email, password } = demoAccount('ADMIN');
      const session = await (
        await fetch(`${app.apiUrl}/authenticate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: email, password }),
        })
      ).json();
      // A cardiologist among the app users, whatever the draw of the demo: the specialty is a criterion.
      const ingested = await fetch(`${app.apiUrl}/population/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken.value}` },
        body: JSON.stringify([
          { externalId: 'e2e-cardio', email: 'cardio@exemple.fr', name: 'Cardio', professionId: 2, specialtyId: 6, area: 'french', roles: [] },
        ]),
      });
      expect(ingested.status).toBe(200);
    },
  },
});

test.describe('criteria search of the audience editor (web host, Chromium)', () => {
  test("shows the specialty first for 'cardio', and 'Aucun résultat' for a term matching nothing", async ({ app, signedIn }) => {
    const { url } = app;
    const page = await signedIn('CSM_LEAD');
    await page.goto(`${url}/audiences`);
    await page.getByTestId('audiences-create').selectOption('timeline');
    await page.waitForURL((u) => u.pathname === '/audiences/new');

    await page.getByTestId('criteria-search').fill('cardio');
    const results = page.getByTestId('criteria-results').getByRole('option');
    await expect(results.first()).toHaveText('Specialty Cardiologie et maladies vasculaires', { timeout: 15_000 });
    // The feed is still there, after the specialties; no message while results show.
    await expect(results.filter({ hasText: /^Feed Cardiologie$/ })).toHaveCount(1);
    await expect(page.getByTestId('criteria-no-result')).toHaveCount(0);

    // Case and accents do not matter.
    await page.getByTestId('criteria-search').fill('DERMATO');
    await expect(results.first()).toHaveText('Specialty Dermatologie et vénéréologie');

    await page.getByTestId('criteria-search').fill('zzzz');
    await expect(page.getByTestId('criteria-no-result')).toHaveText(AUDIENCE_MESSAGES.criteriaNoResult);
    await expect(page.getByTestId('criteria-results')).toHaveCount(0);
    // Emptied: neither results nor the message.
    await page.getByTestId('criteria-search').fill('');
    await expect(page.getByTestId('criteria-no-result')).toHaveCount(0);
  });
});

import type { Browser } from '@playwright/test';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { expect, signIn, test } from './fixtures';
import { adminApi } from './population';

/**
 * Two people on one audience, each in their own browser context (docs/architecture.md, "Versions and conflicts"):
 * the area, saved at once, meets the 409 of the other's save; every field the second person changed (the name
 * typed, the area picked) is in the conflict view and kept in the form.
 */

let audienceId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      await api('POST', '/population/users', [{ externalId: 'area-1', email: 'area1@exemple.fr', professionId: 2, area: 'english', roles: [] }]);
      const doctor = (await api('GET', '/search?term=M%C3%A9decin&label=Profession&isGroup=true'))[0];
      const relationships = [{ node: { label: 'Profession', id: doctor.id } }];
      audienceId = (await api('POST', '/audience', { name: 'Audience anglaise', type: 'timeline', area: 'english', relationships })).id;
    },
  },
});

async function person(browser: Browser, url: string, role: 'ADMIN' | 'CSM_LEAD') {
  const context = await browser.newContext({ baseURL: url, locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await signIn(page, url, role);
  await page.goto(`${url}/audiences/${audienceId}`);
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience anglaise');
  return { context, page };
}

test('an area picked after someone else saved stays picked, beside theirs in the conflict view with the name', async ({ app, browser }) => {
  const admin = await person(browser, app.url, 'ADMIN');
  const lead = await person(browser, app.url, 'CSM_LEAD');
  try {
    await admin.page.getByTestId('audience-name').fill("Nom de l'admin");
    await admin.page.getByTestId('audience-save').click();
    await expect(admin.page.getByText(AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();

    await lead.page.getByTestId('audience-name').fill('Nom du lead');
    await lead.page.getByTestId('audience-area').selectOption('french');
    await expect(lead.page.getByTestId('conflict-message')).toHaveText(
      /^Cette audience a été modifiée par .+ à \d{2}:\d{2} depuis que vous l'avez ouverte\.$/,
    );
    // Both changes kept in the form, both listed beside theirs.
    await expect(lead.page.getByTestId('audience-area')).toHaveValue('french');
    await expect(lead.page.getByTestId('audience-name')).toHaveValue('Nom du lead');
    const name = lead.page.getByTestId('conflict-name');
    await expect(name.getByTestId('conflict-mine')).toHaveText('Nom du lead');
    await expect(name.getByTestId('conflict-theirs')).toHaveText("Nom de l'admin");
    const area = lead.page.getByTestId('conflict-area');
    await expect(area.getByTestId('conflict-mine')).toHaveText('french');
    await expect(area.getByTestId('conflict-theirs')).toHaveText('english');

    // Their name, my area: saved together.
    await name.getByRole('button', { name: M.takeTheirs }).click();
    await expect(lead.page.getByTestId('audience-name')).toHaveValue("Nom de l'admin");
    await area.getByRole('button', { name: M.keepMine }).click();
    await expect(lead.page.getByTestId('audience-area')).toHaveValue('french');
    await lead.page.getByTestId('audience-save').click();
    await expect(lead.page.getByText(AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();
    await expect(lead.page.getByTestId('conflict-panel')).toHaveCount(0);

    await admin.page.reload();
    await expect(admin.page.getByTestId('audience-name')).toHaveValue("Nom de l'admin");
    await expect(admin.page.getByTestId('audience-area')).toHaveValue('french');
  } finally {
    await lead.context.close();
    await admin.context.close();
  }
});

import type { Page } from '@playwright/test';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { demoAccount, expect, signIn, test } from './fixtures';
import { adminApi } from './population';

/**
 * Presence (docs/architecture.md, "Versions and conflicts"): two people with one record open, each in their own
 * browser context and account, see « {nom} modifie aussi … », in whichever order they opened it, until the other
 * leaves. SALES, who may not edit adverts, is not announced.
 */

let advertId: number;

test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      advertId = (await api('POST', '/advert/create', { advert: { name: 'Campagne à deux', type: 'post', title: 'Titre' } })).id;
    },
  },
});

async function openAdvert(page: Page, url: string) {
  await page.goto(`${url}/adverts/edit/${advertId}`);
  await expect(page.getByTestId('field-name')).toHaveValue('Campagne à deux');
}

test('each sees the other on the advert, whoever came first, and the line goes when the other leaves', async ({ app, browser }) => {
  const csm = app.page;
  await csm.setViewportSize({ width: 1366, height: 768 });
  await signIn(csm, app.url, 'CSM');
  const leadContext = await browser.newContext({
    baseURL: app.url,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1920, height: 1080 },
  });
  const lead = await leadContext.newPage();
  try {
    await signIn(lead, app.url, 'CSM_LEAD');
    await openAdvert(csm, app.url);
    await expect(csm.getByTestId('presence-line')).toHaveCount(0);

    // The lead opens it second: the CSM sees the lead at once, and the lead sees the CSM who was there first.
    await openAdvert(lead, app.url);
    const leadName = demoAccount('CSM_LEAD').name;
    const csmName = demoAccount('CSM').name;
    await expect(csm.getByTestId('presence-line')).toHaveText(M.alsoEditing('advert', leadName));
    await expect(lead.getByTestId('presence-line')).toHaveText(M.alsoEditing('advert', csmName));
    await expect(csm.getByText(`${leadName} modifie aussi cette publicité`)).toBeVisible();

    // The line sits in the editor without covering its fields.
    const line = await csm.getByTestId('presence-line').boundingBox();
    const name = await csm.getByTestId('field-name').boundingBox();
    expect(line!.y + line!.height).toBeLessThanOrEqual(name!.y);

    // The lead leaves for the list: the CSM's line goes.
    await lead
      .getByRole('link', { name: /Publicités/ })
      .first()
      .click();
    await expect(lead).toHaveURL(/\/adverts$/);
    await expect(csm.getByTestId('presence-line')).toHaveCount(0);
  } finally {
    await leadContext.close();
  }
});

test('someone who closes the window is gone for the others; SALES opening the advert read-only is never announced', async ({ app, browser }) => {
  // The CSM of the first test, still signed in, watches the advert.
  const csm = app.page;
  await openAdvert(csm, app.url);
  const salesContext = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const leadContext = await browser.newContext({ baseURL: app.url, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  try {
    const sales = await salesContext.newPage();
    await signIn(sales, app.url, 'SALES');
    await openAdvert(sales, app.url);
    await expect(sales.getByTestId('read-only')).toBeVisible();
    await expect(sales.getByTestId('presence-line')).toHaveCount(0);

    const lead = await leadContext.newPage();
    await signIn(lead, app.url, 'CONTENT_CREATOR_LEAD');
    await openAdvert(lead, app.url);
    // Only the content lead is announced to the CSM, never SALES.
    await expect(csm.getByTestId('presence-line')).toHaveText(M.alsoEditing('advert', demoAccount('CONTENT_CREATOR_LEAD').name));
    await lead.close({ runBeforeUnload: true });
    await expect(csm.getByTestId('presence-line')).toHaveCount(0);
  } finally {
    await salesContext.close();
    await leadContext.close();
  }
});

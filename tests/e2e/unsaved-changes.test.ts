import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERT_MEDIA_NOTICES as MEDIA } from '@shared/messages/advert-media';
import { UNSAVED_CHANGES_MESSAGES as M } from '@shared/messages/unsaved-changes';
import { PNG } from '../fixtures/storage-files';
import { launchChromium, openWebApp, signIn, type WebApp } from './fixtures';
import { adminApi } from './population';

let browser: Browser;
let app: WebApp;
let advertId: number;
let audienceId: number;

beforeAll(async () => {
  browser = await launchChromium();
  app = await openWebApp(browser);
  const api = await adminApi(app);
  advertId = (await api('POST', '/advert/create', { advert: { name: 'Pub à garder', type: 'post' } })).id;
  audienceId = (await api('POST', '/audience', { name: 'Audience à garder', type: 'timeline', area: 'french' })).id;
  await signIn(app.page, app.url, 'ADMIN');
});
afterAll(async () => {
  await app?.close();
  await browser?.close();
});

/** Reloads with changes: the browser's beforeunload prompt is shown, and dismissed (the page stays). */
async function reloadIsQuestioned(): Promise<void> {
  const { page } = app;
  const seen: string[] = [];
  const onDialog = (dialog: import('playwright-core').Dialog) => {
    seen.push(dialog.type());
    void dialog.dismiss();
  };
  page.on('dialog', onDialog);
  // A beforeunload prompt needs a user gesture on the page first (the edit was one); reload() then waits on it.
  await page.reload({ timeout: 2000 }).catch(() => undefined);
  await expect.poll(() => seen).toContain('beforeunload');
  page.off('dialog', onDialog);
}

describe('unsaved changes (issue 21 item 6, web host, Chromium)', () => {
  it('advert editor: rename, ← Publicités asks; Rester keeps the change, Quitter leaves; a reload asks too', async () => {
    const { page, url } = app;
    await page.goto(`${url}/adverts/edit/${advertId}`);
    const name = page.getByTestId('field-name');
    await expect.poll(() => name.inputValue()).toBe('Pub à garder');
    await name.fill('Pub renommée');

    await page.getByRole('link', { name: '← Publicités' }).click();
    await expect.poll(() => page.getByTestId('confirm-message').textContent()).toBe(M.leaveQuestion);
    await page.getByRole('button', { name: M.stay }).click();
    await expect.poll(() => page.getByTestId('confirm-dialog').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/adverts/edit/${advertId}`);
    expect(await name.inputValue()).toBe('Pub renommée');

    await reloadIsQuestioned();
    expect(await name.inputValue()).toBe('Pub renommée');

    await page.getByRole('link', { name: '← Publicités' }).click();
    await page.getByRole('button', { name: M.leave }).click();
    await page.waitForURL((u) => u.pathname === '/adverts');

    // Saved changes leave without a question.
    await page.goto(`${url}/adverts/edit/${advertId}`);
    await expect.poll(() => name.inputValue()).toBe('Pub à garder');
    await name.fill('Pub enregistrée');
    await page.getByTestId('editor-save-quit').click();
    await page.waitForURL((u) => u.pathname === '/adverts');
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
  });

  it('advert editor: an uploaded logo is stored with the advert, so ← Publicités leaves without a question; a rename beside it still asks', async () => {
    const { page, url } = app;
    await page.goto(`${url}/adverts/edit/${advertId}`);
    const name = page.getByTestId('field-name');
    await expect.poll(() => name.inputValue()).not.toBe('');
    const uploadLogo = async () => {
      const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 20_000 }), page.getByTestId('upload-logo').click()]);
      await chooser.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
      await page.locator('.Toastify__toast--success', { hasText: MEDIA.logoSaved.text }).first().waitFor({ timeout: 20_000 });
    };

    await uploadLogo();
    await page.getByRole('link', { name: '← Publicités' }).click();
    await page.waitForURL((u) => u.pathname === '/adverts');
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);

    // The logo is on the server; a name typed beside a new upload is not, and is asked about.
    await page.goto(`${url}/adverts/edit/${advertId}`);
    await expect.poll(() => page.getByTestId('media-logo').count()).toBe(1);
    await name.fill('Pub renommée avec logo');
    await uploadLogo();
    await page.getByRole('link', { name: '← Publicités' }).click();
    await expect.poll(() => page.getByTestId('confirm-message').textContent()).toBe(M.leaveQuestion);
    await page.getByRole('button', { name: M.leave }).click();
    await page.waitForURL((u) => u.pathname === '/adverts');
  });

  it('audience editor: rename, ← Audiences asks; Rester keeps the change, Quitter leaves; a reload asks too', async () => {
    const { page, url } = app;
    await page.goto(`${url}/audiences/${audienceId}`);
    const name = page.getByTestId('audience-name');
    await expect.poll(() => name.inputValue()).toBe('Audience à garder');
    await name.fill('Audience renommée');

    await page.getByRole('link', { name: '← Audiences' }).click();
    await expect.poll(() => page.getByTestId('confirm-message').textContent()).toBe(M.leaveQuestion);
    await page.getByRole('button', { name: M.stay }).click();
    await expect.poll(() => page.getByTestId('confirm-dialog').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/audiences/${audienceId}`);
    expect(await name.inputValue()).toBe('Audience renommée');

    await reloadIsQuestioned();
    expect(await name.inputValue()).toBe('Audience renommée');

    await page.getByRole('link', { name: '← Audiences' }).click();
    await page.getByRole('button', { name: M.leave }).click();
    await page.waitForURL((u) => u.pathname === '/audiences');
  });

  it('item 7: a group created from a saved audience stays in it after following its link and coming back', async () => {
    const { page, url } = app;
    const api = await adminApi(app);
    await page.goto(`${url}/audiences/${audienceId}`);
    await expect.poll(() => page.getByTestId('audience-name').inputValue()).toBe('Audience à garder');
    await page.getByTestId('audience-new-group').click();
    await page.getByTestId('group-new-name').fill('Groupe du walk');
    await page.getByTestId('group-new-create').click();
    const link = page.getByRole('link', { name: /Groupe du walk/ });
    await expect.poll(() => link.count()).toBe(1);

    await link.click();
    await page.waitForURL((u) => u.pathname.startsWith('/group/OrGroup/'));
    await expect.poll(() => page.getByTestId('group-name').inputValue().catch(() => '')).toBe('Groupe du walk');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === `/audiences/${audienceId}`);
    await expect.poll(() => page.getByRole('link', { name: /Groupe du walk/ }).count()).toBe(1);
    const saved = await api('GET', `/audience/${audienceId}`);
    expect(saved.relationships.map((r: { node: { name?: string } }) => r.node.name)).toContain('Groupe du walk');
  });
});

import type { Dialog, Page } from '@playwright/test';
import { ADVERT_MEDIA_NOTICES as MEDIA } from '@shared/messages/advert-media';
import { UNSAVED_CHANGES_MESSAGES as M } from '@shared/messages/unsaved-changes';
import { PNG } from '../fixtures/storage-files';
import { expect, signIn, test } from './fixtures';
import { adminApi } from './population';

let advertId: number;
let audienceId: number;

// The tests of this file share one web host and build on one another's steps.
test.describe.configure({ mode: 'serial' });
test.use({
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      advertId = (await api('POST', '/advert/create', { advert: { name: 'Pub à garder', type: 'post' } })).id;
      audienceId = (await api('POST', '/audience', { name: 'Audience à garder', type: 'timeline', area: 'french' })).id;
      await signIn(app.page, app.url, 'ADMIN');
    },
  },
});

/** Reloads with changes: the browser's beforeunload prompt is shown, and dismissed (the page stays). */
async function reloadIsQuestioned(page: Page): Promise<void> {
  const seen: string[] = [];
  const onDialog = (dialog: Dialog) => {
    seen.push(dialog.type());
    void dialog.dismiss();
  };
  page.on('dialog', onDialog);
  // A beforeunload prompt needs a user gesture on the page first (the edit was one); reload() then waits on it.
  await page.reload({ timeout: 2000 }).catch(() => undefined);
  await expect.poll(() => seen).toContain('beforeunload');
  page.off('dialog', onDialog);
}

test.describe('unsaved changes (web host, Chromium)', () => {
  test('advert editor: rename, ← Publicités asks; Rester keeps the change, Quitter leaves; a reload asks too', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/adverts/edit/${advertId}`);
    const name = page.getByTestId('field-name');
    await expect(name).toHaveValue('Pub à garder');
    await name.fill('Pub renommée');

    await page.getByRole('link', { name: '← Publicités' }).click();
    await expect(page.getByTestId('confirm-message')).toHaveText(M.leaveQuestion);
    await page.getByRole('button', { name: M.stay }).click();
    await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe(`/adverts/edit/${advertId}`);
    await expect(name).toHaveValue('Pub renommée');

    await reloadIsQuestioned(page);
    await expect(name).toHaveValue('Pub renommée');

    await page.getByRole('link', { name: '← Publicités' }).click();
    await page.getByRole('button', { name: M.leave }).click();
    await page.waitForURL((u) => u.pathname === '/adverts');

    // Saved changes leave without a question.
    await page.goto(`${url}/adverts/edit/${advertId}`);
    await expect(name).toHaveValue('Pub à garder');
    await name.fill('Pub enregistrée');
    await page.getByTestId('editor-save-quit').click();
    await page.waitForURL((u) => u.pathname === '/adverts');
    await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  });

  test('advert editor: an uploaded logo is stored with the advert, so ← Publicités leaves without a question; a rename beside it still asks', async ({
    app,
  }) => {
    const { page, url } = app;
    await page.goto(`${url}/adverts/edit/${advertId}`);
    const name = page.getByTestId('field-name');
    await expect(name).not.toHaveValue('');
    const uploadLogo = async () => {
      const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 20_000 }), page.getByTestId('upload-logo').click()]);
      await chooser.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
      await expect(page.locator('.Toastify__toast--success', { hasText: MEDIA.logoSaved.text }).first()).toBeVisible({ timeout: 20_000 });
    };

    await uploadLogo();
    await page.getByRole('link', { name: '← Publicités' }).click();
    await page.waitForURL((u) => u.pathname === '/adverts');
    await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);

    // The logo is on the server; a name typed beside a new upload is not, and is asked about.
    await page.goto(`${url}/adverts/edit/${advertId}`);
    await expect(page.getByTestId('media-logo')).toHaveCount(1);
    await name.fill('Pub renommée avec logo');
    await uploadLogo();
    await page.getByRole('link', { name: '← Publicités' }).click();
    await expect(page.getByTestId('confirm-message')).toHaveText(M.leaveQuestion);
    await page.getByRole('button', { name: M.leave }).click();
    await page.waitForURL((u) => u.pathname === '/adverts');
  });

  test('audience editor: rename, ← Audiences asks; Rester keeps the change, Quitter leaves; a reload asks too', async ({ app }) => {
    const { page, url } = app;
    await page.goto(`${url}/audiences/${audienceId}`);
    const name = page.getByTestId('audience-name');
    await expect(name).toHaveValue('Audience à garder');
    await name.fill('Audience renommée');

    await page.getByRole('link', { name: '← Audiences' }).click();
    await expect(page.getByTestId('confirm-message')).toHaveText(M.leaveQuestion);
    await page.getByRole('button', { name: M.stay }).click();
    await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe(`/audiences/${audienceId}`);
    await expect(name).toHaveValue('Audience renommée');

    await reloadIsQuestioned(page);
    await expect(name).toHaveValue('Audience renommée');

    await page.getByRole('link', { name: '← Audiences' }).click();
    await page.getByRole('button', { name: M.leave }).click();
    await page.waitForURL((u) => u.pathname === '/audiences');
  });

  test('item 7: a group created from a saved audience stays in it after following its link and coming back', async ({ app }) => {
    const { page, url } = app;
    const api = await adminApi(app);
    await page.goto(`${url}/audiences/${audienceId}`);
    await expect(page.getByTestId('audience-name')).toHaveValue('Audience à garder');
    await page.getByTestId('audience-new-group').click();
    await page.getByTestId('group-new-name').fill('Groupe du walk');
    await page.getByTestId('group-new-create').click();
    const link = page.getByRole('link', { name: /Groupe du walk/ });
    await expect(link).toHaveCount(1);

    await link.click();
    await page.waitForURL((u) => u.pathname.startsWith('/group/OrGroup/'));
    await expect
      .poll(() =>
        page
          .getByTestId('group-name')
          .inputValue()
          .catch(() => ''),
      )
      .toBe('Groupe du walk');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === `/audiences/${audienceId}`);
    await expect(page.getByRole('link', { name: /Groupe du walk/ })).toHaveCount(1);
    const saved = await api('GET', `/audience/${audienceId}`);
    expect(saved.relationships.map((r: { node: { name?: string } }) => r.node.name)).toContain('Groupe du walk');
  });
});

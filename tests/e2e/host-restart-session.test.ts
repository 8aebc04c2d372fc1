import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { AUDIENCE_MESSAGES, MESSAGES } from '@shared/messages';
import { CONFLICT_MESSAGES as M } from '@shared/messages/conflicts';
import { demoAccount, expect, signIn, test, type WebApp } from './fixtures';
import { e2eRendererDir } from './global-setup';
import { adminApi } from './population';

/**
 * The web host restarted under an open page (a new per-launch secret, its browser sessions gone): the save the
 * page queued while the host was down meets an unknown session, not a role refusal, and takes the one path of an
 * ended session: sign in again, back on the same screen, where the typed values are offered back.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
let audienceId: number;

test.use({
  appOptions: {
    prepare: async (app) => {
      const api = await adminApi(app);
      await api('POST', '/population/users', [{ externalId: 'restart-1', email: 'restart1@exemple.fr', professionId: 2, area: 'french', roles: [] }]);
      const doctor = (await api('GET', '/search?term=M%C3%A9decin&label=Profession&isGroup=true'))[0];
      const relationships = [{ node: { label: 'Profession', id: doctor.id } }];
      audienceId = (await api('POST', '/audience', { name: 'Audience avant', type: 'timeline', area: 'french', relationships })).id;
    },
  },
});

/** Stops the whole web host (page server and embedded API), then starts it again on the same port and data. */
async function stopHost(app: WebApp) {
  const port = Number(new URL(app.url).port);
  await app.host.close();
  return async () => {
    const { startWebHost } = await import('../../src-main/hosts/web');
    const restarted = await startWebHost({
      port,
      rendererDir: e2eRendererDir(root),
      dataDir: join(app.dataDir, 'pglite'),
      templateDir: join(root, '.data/pglite-template'),
      settingsFile: join(app.dataDir, 'settings.json'),
      demo: true,
      demoPopulation: false,
      logger: pino({ level: 'silent' }),
    });
    // The fixture closes the host at the end: the one running now.
    app.host.close = () => restarted.close();
  };
}

test('a save queued before a host restart leads to sign-in, back on the audience with the typed name offered', async ({ app }) => {
  const page = app.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.url, 'CSM_LEAD');
  await page.goto(`${app.url}/audiences/${audienceId}`);
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience avant');

  const restart = await stopHost(app);
  await page.getByTestId('audience-name').fill('Audience tapée pendant la coupure');
  await page.getByTestId('audience-save').click();
  await expect(page.getByTestId('offline-banner')).toHaveText(M.offline);
  await restart();

  // The queued save's retry meets the restarted host: sign-in, never « User not allowed ».
  await expect(page).toHaveURL(/\/login$/, { timeout: 30_000 });
  await expect(page.getByText(MESSAGES.userNotAllowed)).toHaveCount(0);
  const { email, password } = demoAccount('CSM_LEAD');
  await page.getByTestId('login-username').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();

  // Back on the audience, the name typed is offered back; resumed and saved, it is the audience's.
  await expect(page).toHaveURL(new RegExp(`/audiences/${audienceId}$`));
  await expect(page.getByTestId('draft-resume')).toBeVisible();
  await page.getByTestId('draft-resume').click();
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience tapée pendant la coupure');
  await page.getByTestId('audience-save').click();
  await expect(page.getByText(AUDIENCE_MESSAGES.audienceSaved)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('audience-name')).toHaveValue('Audience tapée pendant la coupure');
});

import { POLICY_MESSAGES } from '@shared/messages/workplace';
import { expect, openWebApp, signIn, test } from './fixtures';

/**
 * A setting IT fixed for the machine (here through the environment, as a scripted install sets it): it beats the
 * user's settings, and the About page shows it read-only with where the lock comes from (issue 52, item 2).
 */
test('a setting fixed by policy shows read-only, with its source, and is the one in use', async ({ browser }) => {
  const app = await openWebApp(browser, { env: { BACKOFFICE_POLICY_ENVIRONMENT_LABEL: 'formation' } });
  try {
    const { page } = app;
    await signIn(page, app.url, 'ADMIN');
    await expect(page.getByTestId('env-marker')).toHaveText('formation');
    await page.getByTestId('about-link').click();
    const locked = page.getByTestId('about-locked');
    await expect(locked.getByRole('heading')).toHaveText(POLICY_MESSAGES.title);
    await expect(locked.getByRole('listitem')).toHaveText(POLICY_MESSAGES.lockedEntry('environmentLabel', 'formation', "variables d'environnement"));
    // Read-only: nothing on the page edits it.
    await expect(locked.getByRole('textbox')).toHaveCount(0);
  } finally {
    await app.close();
  }
});

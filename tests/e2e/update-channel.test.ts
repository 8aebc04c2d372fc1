import { UPDATE_MESSAGES } from '@shared/messages/diagnostics';
import { POLICY_MESSAGES } from '@shared/messages/workplace';
import { expect, openWebApp, signIn, test } from './fixtures';

/**
 * The About page says which update feed and channel the app follows, and when it last checked (issue 52, item 3).
 * The browser version has no updater: it says so in place of a last check. Feed and channel come from IT's policy
 * here (the environment, as a scripted install sets it), which also locks the channel.
 */
test('the About page shows the update feed, the channel and why the browser version never checks', async ({ browser }) => {
  const app = await openWebApp(browser, {
    env: { BACKOFFICE_POLICY_UPDATE_URL: 'https://maj.exemple.fr/back-office/', BACKOFFICE_POLICY_UPDATE_CHANNEL: 'beta' },
  });
  try {
    const { page } = app;
    await signIn(page, app.url, 'ADMIN');
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-update-feed')).toHaveText('https://maj.exemple.fr/back-office');
    await expect(page.getByTestId('about-update-channel')).toHaveText(UPDATE_MESSAGES.channels.beta);
    await expect(page.getByTestId('about-update-last-check')).toHaveText(UPDATE_MESSAGES.browser);
    await expect(page.getByTestId('about-locked').getByRole('listitem')).toHaveText([
      POLICY_MESSAGES.lockedEntry('updateUrl', 'https://maj.exemple.fr/back-office', "variables d'environnement"),
      POLICY_MESSAGES.lockedEntry('updateChannel', 'beta', "variables d'environnement"),
    ]);
  } finally {
    await app.close();
  }
});

test("without a policy, the About page shows the user's own channel and says no feed is set", async ({ browser }) => {
  const app = await openWebApp(browser, { settings: { updateChannel: 'beta' } });
  try {
    const { page } = app;
    await signIn(page, app.url, 'ADMIN');
    await page.getByTestId('about-link').click();
    await expect(page.getByTestId('about-update-feed')).toHaveText(UPDATE_MESSAGES.noFeed);
    await expect(page.getByTestId('about-update-channel')).toHaveText(UPDATE_MESSAGES.channels.beta);
    await expect(page.getByTestId('about-update-last-check')).toHaveText(UPDATE_MESSAGES.browser);
    await expect(page.getByTestId('about-locked')).toHaveCount(0);
  } finally {
    await app.close();
  }
});

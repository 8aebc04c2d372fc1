import { MESSAGES } from '@shared/messages';
import { demoAccount, expect, test } from './fixtures';

/**
 * The same notice raised again while it is still shown stacks once (lib/notices.tsx): asking twice for a password
 * reset, as an impatient user does, shows one « Si cet e-mail est reconnu… », not two, and it counts its time again.
 */
test('the same notice raised twice while shown appears once; as an impatient user asking twice for a reset', async ({ app }) => {
  const { page, url } = app;
  await page.goto(`${url}/login`);
  await page.getByTestId('login-reset-switch').check();
  await page.getByTestId('login-username').fill(demoAccount('CSM').email);
  const submit = page.getByTestId('login-submit');
  const accepted = page.locator('.Toastify__toast--success', { hasText: MESSAGES.resetAccepted });

  await submit.click();
  await expect(accepted).toHaveCount(1);
  await expect(submit).toBeEnabled();
  // The second answer is in once the button is enabled again: its notice was raised in the same update.
  const secondAnswer = page.waitForResponse((response) => Boolean(response.request().postData()?.includes('password.reset')));
  // Submitted from the keyboard with the pointer resting on the toast: it stays (paused) for the count below.
  await accepted.hover();
  // Its progress bar is its timer: the second raise gives it a new one, so the toast counts its time again.
  await page.locator('.Toastify__progress-bar').evaluate((bar) => bar.setAttribute('data-first-raise', ''));
  await page.getByTestId('login-username').press('Enter');
  await secondAnswer;
  await expect(submit).toBeEnabled();
  // Counted once, not retried: a duplicate would be on screen now, and retrying would only wait for it to expire.
  expect(await page.locator('.Toastify__toast').count()).toBe(1);
  await expect(accepted).toBeVisible();
  await expect(accepted.locator('.Toastify__progress-bar[data-first-raise]')).toHaveCount(0);
  await expect(accepted.locator('.Toastify__progress-bar')).toHaveCount(1);
});

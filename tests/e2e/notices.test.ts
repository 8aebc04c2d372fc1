import { MESSAGES } from '@shared/messages';
import type { Page } from '@playwright/test';
import { demoAccount, expect, test } from './fixtures';

/** A password reset asked once, as a user does: its « Si cet e-mail est reconnu… » toast is up, the button usable again. */
async function askResetOnce(page: Page) {
  await page.getByTestId('login-reset-switch').check();
  await page.getByTestId('login-username').fill(demoAccount('CSM').email);
  const submit = page.getByTestId('login-submit');
  const accepted = page.locator('.Toastify__toast--success', { hasText: MESSAGES.resetAccepted });
  await submit.click();
  await expect(accepted).toHaveCount(1);
  await expect(submit).toBeEnabled();
  return { submit, accepted };
}

/**
 * The same notice raised again while it is still shown stacks once (lib/notices.tsx): asking twice for a password
 * reset, as an impatient user does, shows one « Si cet e-mail est reconnu… », not two, and it counts its time again.
 */
test('the same notice raised twice while shown appears once; as an impatient user asking twice for a reset', async ({ app }) => {
  const { page, url } = app;
  await page.goto(`${url}/login`);
  const { submit, accepted } = await askResetOnce(page);
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

/**
 * A toast on its way out keeps its id until its exit animation ends: the same notice raised then is a new toast, not
 * lost (CI once missed a second 'Enregistré' saved while the first one was leaving).
 */
test('the same notice raised while its toast is leaving shows again', async ({ app }) => {
  const { page, url } = app;
  await page.goto(`${url}/login`);
  // The exit animation lasts long enough for the second answer to come while the first toast is still leaving.
  // (A rule added through the CSSOM: the page's CSP refuses an inline style tag.)
  await page.evaluate(() => document.styleSheets[0].insertRule('.Toastify--animate[class*="-exit"] { animation-duration: 60s !important; }'));
  const { submit, accepted } = await askResetOnce(page);
  // Clicked, the toast leaves (closeOnClick): still on screen, in its exit animation.
  await accepted.click();
  await expect(page.locator('.Toastify__toast[class*="-exit"]')).toHaveCount(1);
  await submit.click();
  await expect(accepted).toHaveCount(2);
  await expect(accepted.and(page.locator(':not([class*="-exit"])'))).toHaveCount(1);
});

/**
 * Raised again in the last moment of its toast, the notice stays for its time: the toaster used to apply the update
 * 100 ms later, by when the old toast had run out and left, and the end of its exit deleted the update that had come
 * back under its id (CI lost a third import's 'CSV en cours de traitement' so, on a busy machine).
 */
test('the same notice raised as its toast runs out stays for its time', async ({ app }) => {
  const { page, url } = app;
  await page.goto(`${url}/login`);
  // Exits end at once, as a late update met them on that busy machine.
  await page.evaluate(() => document.styleSheets[0].insertRule('.Toastify--animate[class*="-exit"] { animation-duration: 1ms !important; }'));
  const { submit, accepted } = await askResetOnce(page);
  await accepted.locator('.Toastify__progress-bar').evaluate((bar) => bar.setAttribute('data-first-raise', ''));
  const timeOf = (bar: string) => page.evaluate((selector) => Number(document.querySelector(selector)?.getAnimations()[0]?.currentTime ?? 0), bar);
  // Its timer runs once the toast has come in.
  await expect.poll(() => timeOf('.Toastify__progress-bar[data-first-raise]')).toBeGreaterThan(0);
  // When the second answer reaches the page, the toast's timer (its progress bar) is left 60 ms: the notice is
  // raised again just before the toast runs out.
  await page.evaluate(() => {
    const fetchOfPage = window.fetch;
    window.fetch = async (...args) => {
      const response = await fetchOfPage(...args);
      if (String(args[1]?.body).includes('password.reset')) {
        const [timer] = document.querySelector('.Toastify__progress-bar[data-first-raise]')?.getAnimations() ?? [];
        if (timer) timer.currentTime = Number(timer.effect?.getTiming().duration) - 60;
      }
      return response;
    };
  });
  const secondAnswer = page.waitForResponse((response) => Boolean(response.request().postData()?.includes('password.reset')));
  await page.getByTestId('login-username').press('Enter');
  await secondAnswer;
  await expect(submit).toBeEnabled();
  // Half a second on the new timer: past the moment the old toast's exit would have deleted it.
  await expect.poll(() => timeOf('.Toastify__toast--success .Toastify__progress-bar:not([data-first-raise])')).toBeGreaterThan(500);
  await expect(accepted).toHaveCount(1);
});

import type { Page } from 'playwright-core';

/** Logs out through the top bar (confirming the question), back to /login. */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('logout').click();
  await page.getByRole('button', { name: 'Oui' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
}

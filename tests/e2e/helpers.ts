import type { Page } from '@playwright/test';

/** Logs out through the top bar (confirming the question), back to /login. */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('logout').click();
  await page.getByRole('button', { name: 'Oui', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/login');
}

/**
 * Changes an account behind the page's back, as another administrator would: straight in the embedded
 * database. `roles` null deletes the account.
 */
export async function changeAccountElsewhere(
  app: { host: { embedded: { database: { db: unknown } } | null } },
  email: string,
  roles: string[] | null,
): Promise<void> {
  const { sql } = await import('drizzle-orm');
  const db = app.host.embedded!.database.db as { execute(query: unknown): Promise<unknown> };
  if (roles === null) await db.execute(sql`delete from accounts where lower(email) = lower(${email})`);
  else await db.execute(sql`update accounts set roles = ${sql.raw(`'{${roles.join(',')}}'`)}::text[] where lower(email) = lower(${email})`);
}

/**
 * A look at the screen as staff see it, at 1366 × 768, when E2E_SCREENSHOT_DIR names a folder (a person checks the
 * PNG); nothing otherwise, so a run of the suite writes no picture.
 */
export async function lookAt(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: `${dir}/${name}.png` });
}

import type { Page } from '@playwright/test';

/** Logs out through the top bar (confirming the question), back to /login. */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('logout').click();
  await page.getByRole('button', { name: 'Oui' }).click();
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

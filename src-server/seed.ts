import { count } from 'drizzle-orm';
import type { Role } from '@shared/roles';
import { hashPassword, passwordProblem } from './auth/passwords';
import type { Database } from './db/client';
import { accounts } from './db/schema';

export interface DemoAccount {
  role: Role;
  name: string;
  email: string;
  password: string;
}

/** One account per role; the passwords are public (README) and only ever used on a demo workspace. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { role: 'ADMIN', name: 'Alice Admin', email: 'admin@demo.backoffice.local', password: 'demo-admin-2026' },
  { role: 'CSM', name: 'Camille Martin', email: 'csm@demo.backoffice.local', password: 'demo-csm-2026' },
  { role: 'CSM_LEAD', name: 'Claire Durand', email: 'csm-lead@demo.backoffice.local', password: 'demo-csm-lead-2026' },
  { role: 'SALES', name: 'Samuel Bernard', email: 'sales@demo.backoffice.local', password: 'demo-sales-2026' },
  { role: 'CONTENT_CREATOR', name: 'Chloé Petit', email: 'content@demo.backoffice.local', password: 'demo-content-2026' },
  { role: 'CONTENT_CREATOR_LEAD', name: 'Léa Moreau', email: 'content-lead@demo.backoffice.local', password: 'demo-content-lead-2026' },
];

export async function accountCount(db: Database): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(accounts);
  return total;
}

/**
 * First start: with no account at all, create the administrator named by the environment. The password obeys
 * the same rules as one chosen through a link: a weak one stops the start with the rule's message.
 */
export async function ensureFirstAdmin(db: Database, email: string | undefined, password: string | undefined): Promise<boolean> {
  if (!email || !password || (await accountCount(db)) > 0) return false;
  const problem = await passwordProblem(password);
  if (problem) throw new Error(`BACKOFFICE_ADMIN_PASSWORD : ${problem}`);
  await db
    .insert(accounts)
    .values({ name: 'Administrateur', email, passwordHash: await hashPassword(password), roles: ['ADMIN'] })
    .onConflictDoNothing();
  return true;
}

/** Seeds the demo workspace on an empty database; returns the accounts created (none if it was not empty). */
export async function seedDemo(db: Database): Promise<DemoAccount[]> {
  if ((await accountCount(db)) > 0) return [];
  const rows = await Promise.all(
    DEMO_ACCOUNTS.map(async (demo) => ({
      name: demo.name,
      nickname: demo.name.split(' ')[0],
      email: demo.email,
      roles: [demo.role],
      passwordHash: await hashPassword(demo.password),
    })),
  );
  await db.insert(accounts).values(rows).onConflictDoNothing();
  return [...DEMO_ACCOUNTS];
}

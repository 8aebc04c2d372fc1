import { and, asc, count, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Account } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { ROLES, isRole, type Role } from '@shared/roles';
import { unusablePasswordHash } from '../auth/passwords';
import type { ServerContext } from '../context';
import { accounts } from '../db/schema';
import { HttpError } from '../errors';
import { sendPasswordLink } from './auth';
import type { Handlers } from './register';

type AdminHandlers = Pick<
  Handlers,
  | 'admin.roles'
  | 'admin.accounts.list'
  | 'admin.accounts.create'
  | 'admin.accounts.update'
  | 'admin.accounts.setRoles'
  | 'admin.accounts.delete'
>;

const accountColumns = {
  id: accounts.id,
  uuid: accounts.uuid,
  name: accounts.name,
  nickname: accounts.nickname,
  email: accounts.email,
  roles: accounts.roles,
};

type AccountRow = { id: number; uuid: string; name: string; nickname: string; email: string; roles: string[] };

export function toAccount(row: AccountRow): Account {
  return { id: row.id, uuid: row.uuid, name: row.name, nickname: row.nickname, username: row.email, email: row.email, roles: row.roles.filter(isRole) };
}

/** Roles in the spec's order, each once. */
function normalizeRoles(roles: readonly Role[]): Role[] {
  return ROLES.filter((role) => roles.includes(role));
}

/** `%` and `_` typed by a user are letters, not wildcards. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

export function adminHandlers(context: ServerContext): AdminHandlers {
  const { db, clock } = context;

  async function findAccount(id: number): Promise<AccountRow> {
    const [row] = await db.select(accountColumns).from(accounts).where(eq(accounts.id, id));
    if (!row) throw new HttpError(404, MESSAGES.accountNotFound);
    return row;
  }

  async function assertEmailFree(email: string, exceptId?: number): Promise<void> {
    const sameEmail = sql`lower(${accounts.email}) = ${email.toLowerCase()}`;
    const [taken] = await db.select({ id: accounts.id }).from(accounts).where(exceptId ? and(sameEmail, ne(accounts.id, exceptId)) : sameEmail);
    if (taken) throw new HttpError(409, MESSAGES.emailAlreadyUsed);
  }

  return {
    'admin.roles': async () => [...ROLES],

    'admin.accounts.list': async ({ query }) => {
      let where: SQL | undefined;
      if (query.term) {
        const pattern = likePattern(query.term);
        where = or(sql`${accounts.name} ILIKE ${pattern}`, sql`${accounts.nickname} ILIKE ${pattern}`, sql`${accounts.email} ILIKE ${pattern}`);
      }
      const [rows, [{ total }]] = await Promise.all([
        db.select(accountColumns).from(accounts).where(where).orderBy(asc(sql`lower(${accounts.name})`), asc(accounts.id)).limit(query.limit).offset(query.skip),
        db.select({ total: count() }).from(accounts).where(where),
      ]);
      return { items: rows.map(toAccount), total };
    },

    'admin.accounts.create': async ({ body }) => {
      await assertEmailFree(body.username);
      const passwordHash = await unusablePasswordHash();
      let row: AccountRow;
      try {
        [row] = await db
          .insert(accounts)
          .values({ name: body.name, nickname: body.nickname, email: body.username, roles: normalizeRoles(body.roles), passwordHash })
          .returning(accountColumns);
      } catch (error) {
        if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.emailAlreadyUsed);
        throw error;
      }
      await sendPasswordLink(context, row, true);
      return toAccount(row);
    },

    'admin.accounts.update': async ({ params, body }) => {
      await findAccount(params.accountId);
      await assertEmailFree(body.username, params.accountId);
      try {
        const [row] = await db
          .update(accounts)
          .set({ name: body.name, nickname: body.nickname, email: body.username, updatedAt: clock.now() })
          .where(eq(accounts.id, params.accountId))
          .returning(accountColumns);
        return toAccount(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.emailAlreadyUsed);
        throw error;
      }
    },

    'admin.accounts.setRoles': async ({ params, body, account }) => {
      const target = await findAccount(params.accountId);
      const roles = normalizeRoles(body.roles);
      if (account?.id === target.id && target.roles.includes('ADMIN') && !roles.includes('ADMIN')) {
        throw new HttpError(400, MESSAGES.cannotRemoveOwnAdmin);
      }
      const [row] = await db.update(accounts).set({ roles, updatedAt: clock.now() }).where(eq(accounts.id, target.id)).returning(accountColumns);
      return toAccount(row);
    },

    'admin.accounts.delete': async ({ params }) => {
      const target = await findAccount(params.accountId);
      if (target.roles.includes('ADMIN')) throw new HttpError(409, MESSAGES.cannotDeleteAdmin);
      // Refresh tokens and reset links go with the row (ON DELETE CASCADE); access tokens die with the account lookup.
      const deleted = await db
        .delete(accounts)
        .where(and(eq(accounts.id, target.id), sql`NOT ('ADMIN' = ANY(${accounts.roles}))`))
        .returning({ id: accounts.id });
      if (!deleted.length) throw new HttpError(409, MESSAGES.cannotDeleteAdmin);
      return { ok: true as const };
    },
  };
}

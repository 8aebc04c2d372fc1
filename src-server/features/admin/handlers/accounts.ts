import { MESSAGES } from '@shared/messages';
import { ROLES, type Role } from '@shared/roles';
import { toAccount } from '../../../accounts/account';
import { sendPasswordLink } from '../../../accounts/password-links';
import { endSessions, isUniqueViolation, revokePasswordLinks } from '../../../accounts/queries';
import { unusablePasswordHash } from '../../../auth/passwords';
import type { ServerContext } from '../../../context';
import { nameOfEditor, staleVersion } from '../../../db/versioning';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import * as queries from '../queries';

export type AdminHandlers = Pick<
  Handlers,
  'admin.roles' | 'admin.accounts.list' | 'admin.accounts.create' | 'admin.accounts.update' | 'admin.accounts.setRoles' | 'admin.accounts.delete'
>;

/** The 409 of a write based on an older version of `row` (docs/architecture.md, "Versions and conflicts"). */
async function stale(context: ServerContext, row: queries.AccountRow) {
  return staleVersion('account', { ...row, editorName: await nameOfEditor(context.db, row.updatedBy) }, toAccount(row));
}

/** Roles in the spec's order, each once. */
function normalizeRoles(roles: readonly Role[]): Role[] {
  return ROLES.filter((role) => roles.includes(role));
}

/** A concurrent write may pass the e-mail check and still hit the unique index: the same 409 either way. */
async function orEmailConflict<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, MESSAGES.emailAlreadyUsed, {}, 'username');
    throw error;
  }
}

export function adminHandlers(context: ServerContext): AdminHandlers {
  const { db, clock } = context;

  async function findAccount(id: number): Promise<queries.AccountRow> {
    const row = await queries.findAccount(db, id);
    if (!row) throw new HttpError(404, MESSAGES.accountNotFound);
    return row;
  }

  async function assertEmailFree(email: string, exceptId?: number): Promise<void> {
    if (await queries.emailTaken(db, email, exceptId)) throw new HttpError(409, MESSAGES.emailAlreadyUsed, {}, 'username');
  }

  return {
    'admin.roles': async () => [...ROLES],

    'admin.accounts.list': async ({ query }) => {
      const { rows, total } = await queries.listAccounts(db, query);
      return { items: rows.map(toAccount), total };
    },

    'admin.accounts.create': async ({ body }) => {
      await assertEmailFree(body.username);
      const passwordHash = await context.passwordHashing.run(unusablePasswordHash);
      const row = await orEmailConflict(
        queries.insertAccount(db, {
          name: body.name,
          nickname: body.nickname,
          email: body.username,
          roles: normalizeRoles(body.roles),
          passwordHash,
        }),
      );
      await sendPasswordLink(context, row, 'welcome');
      return toAccount(row);
    },

    'admin.accounts.update': async ({ params, body, account }) => {
      const before = await findAccount(params.accountId);
      await assertEmailFree(body.username, params.accountId);
      const now = clock.now();
      const emailChanged = before.email.trim().toLowerCase() !== body.username.trim().toLowerCase();
      const row = await orEmailConflict(
        db.transaction(async (tx) => {
          const fields = { name: body.name, nickname: body.nickname, email: body.username };
          const updated = await queries.updateAccount(tx, params.accountId, { fields, version: body.version, by: account?.id ?? null }, now);
          // Stale: answered once the transaction is over (its connection is the only one on PGlite).
          if (!updated) return null;
          if (emailChanged) {
            // Links mailed to the old address must not outlive it; one's own new e-mail is a new sign-in name.
            await revokePasswordLinks(tx, params.accountId, now);
            if (account?.id === params.accountId) await endSessions(tx, params.accountId, now);
          }
          return updated;
        }),
      );
      if (!row) throw await stale(context, await findAccount(params.accountId));
      if (emailChanged && account?.id === params.accountId) context.accountCache.changed(params.accountId);
      return toAccount(row);
    },

    'admin.accounts.setRoles': async ({ params, body, account }) => {
      const target = await findAccount(params.accountId);
      const roles = normalizeRoles(body.roles);
      if (account?.id === target.id && target.roles.includes('ADMIN') && !roles.includes('ADMIN')) {
        throw new HttpError(400, MESSAGES.cannotRemoveOwnAdmin);
      }
      const row = await queries.updateAccount(db, target.id, { fields: { roles }, version: body.version, by: account?.id ?? null }, clock.now());
      if (!row) throw await stale(context, await findAccount(target.id));
      context.accountCache.changed(target.id);
      return toAccount(row);
    },

    'admin.accounts.delete': async ({ params, query }) => {
      const target = await findAccount(params.accountId);
      if (query.version !== undefined && query.version !== target.version) throw await stale(context, target);
      if (target.roles.includes('ADMIN')) throw new HttpError(409, MESSAGES.cannotDeleteAdmin);
      if (!(await queries.deleteNonAdminAccount(db, target.id, query.version))) {
        // Changed between the two reads: stale when its version moved, else it now holds ADMIN.
        const now = await queries.findAccount(db, target.id);
        if (now && query.version !== undefined && now.version !== query.version) throw await stale(context, now);
        throw new HttpError(409, MESSAGES.cannotDeleteAdmin);
      }
      context.accountCache.changed(target.id);
      return { ok: true as const };
    },
  };
}

import { and, eq } from 'drizzle-orm';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import type { ServerContext } from '../../../context';
import { labProjectAccounts } from '../../../db/schema';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { accountsOf, existingAccountIds, searchAccounts } from '../queries';
import { existingProject } from './shared';

export type LabAccountHandlers = Pick<Handlers, 'laboratory.setAccounts' | 'laboratory.removeAccount' | 'laboratory.searchAccounts'>;

/** The Access tab: the accounts allowed on a project (they read it), their search, additions and removals. */
export function labAccountHandlers(context: ServerContext): LabAccountHandlers {
  const { db } = context;
  return {
    'laboratory.setAccounts': async ({ body }) => {
      await existingProject(context, body.projectId);
      const ids = [...new Set(body.userAccounts.map((account) => account.id))];
      const existing = await existingAccountIds(db, ids);
      if (ids.some((id) => !existing.has(id))) throw new HttpError(404, LAB_MESSAGES.accountNotFound);
      await db.transaction(async (tx) => {
        await tx.delete(labProjectAccounts).where(eq(labProjectAccounts.projectId, body.projectId));
        if (ids.length > 0) await tx.insert(labProjectAccounts).values(ids.map((accountId) => ({ projectId: body.projectId, accountId })));
      });
      return accountsOf(db, body.projectId);
    },

    'laboratory.removeAccount': async ({ body }) => {
      await existingProject(context, body.projectId);
      await db
        .delete(labProjectAccounts)
        .where(and(eq(labProjectAccounts.projectId, body.projectId), eq(labProjectAccounts.accountId, body.accountId)));
      return { ok: true as const };
    },

    'laboratory.searchAccounts': async ({ body }) => {
      await existingProject(context, body.projectId);
      return searchAccounts(db, body.term, body.projectId);
    },
  };
}

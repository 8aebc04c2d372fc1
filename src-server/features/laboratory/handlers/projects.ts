import { and, eq, sql } from 'drizzle-orm';
import { contract, type MultipartSpec } from '@shared/contract';
import type { LabProjectListItem } from '@shared/contract/laboratory';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import type { ServerContext } from '../../../context';
import { labProjects } from '../../../db/schema';
import { bumpVersion } from '../../../db/versioning';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { receiveFile } from '../../../storage/multipart';
import type { PanelCounts } from '../panel-cache';
import { matchPanel, PGLITE_PANEL_ROWS_PER_STATEMENT, readPanel } from '../panel-import';
import { holdLease, LEASE_INTERVAL } from '../../../jobs/lease';
import { deleteProject, listProjects, toListItem } from '../queries';
import { existingProject, loadProject, readableProject, staleLabProject, writesAll } from './shared';
import { saveTags } from './tags';

export type LabProjectHandlers = Pick<
  Handlers,
  'laboratory.list' | 'laboratory.get' | 'laboratory.create' | 'laboratory.update' | 'laboratory.delete'
>;

/**
 * A project from its panel file, read as it arrives: the header is checked ('Missing columns : …', spec §5), then
 * the project exists at once as `pending` (the list shows its spinner) while the rows are written in batches; the
 * members are matched to app users, and it is no longer pending. Any failure (bad file, upload cut) removes it.
 */
async function createFromPanel(context: ServerContext, request: Parameters<Handlers['laboratory.create']>[0]['request']) {
  const { db } = context;
  let projectId = 0;
  let lease: { stop(): void } | null = null;
  const perStatement = context.dbKind === 'pglite' ? PGLITE_PANEL_ROWS_PER_STATEMENT : undefined;
  return receiveFile<{ projectName: string; specialtyId: number }, LabProjectListItem>(
    request,
    contract['laboratory.create'].multipart as MultipartSpec,
    async (file) => {
      try {
        const { rows } = await readPanel(
          db,
          file.body,
          async (_headers, crits) => {
            const [created] = await db
              .insert(labProjects)
              .values({
                name: file.fields.projectName,
                specialtyId: file.fields.specialtyId,
                pending: true,
                crits,
                leaseUntil: sql`now() + ${LEASE_INTERVAL}::interval`,
              })
              .returning({ id: labProjects.id });
            projectId = created.id;
            // Renewed while this instance loads it; should the instance die, any instance removes it (jobs/lease.ts).
            lease = holdLease(context, `laboratory panel ${projectId}`, () =>
              db.execute(sql`UPDATE lab_projects SET lease_until = now() + ${LEASE_INTERVAL}::interval WHERE id = ${created.id} AND pending`),
            );
            return projectId;
          },
          perStatement,
        );
        const matched = await matchPanel(db, projectId, rows, perStatement);
        const [row] = await db
          .update(labProjects)
          .set({ pending: false, usersCount: rows, matchedCount: matched, updatedAt: new Date(context.clock.now()) })
          .where(eq(labProjects.id, projectId))
          .returning();
        return toListItem(row, 0);
      } catch (error) {
        file.body.destroy();
        if (projectId) await db.delete(labProjects).where(eq(labProjects.id, projectId));
        if (error instanceof HttpError) throw error;
        context.logger.warn({ err: error }, 'laboratory panel refused');
        throw new HttpError(400, LAB_MESSAGES.panelUnreadable);
      } finally {
        lease?.stop();
      }
    },
  );
}

export function labProjectHandlers(context: ServerContext, panels: PanelCounts): LabProjectHandlers {
  const { db } = context;
  return {
    'laboratory.list': async ({ body, account }) =>
      listProjects(db, { term: body.term || undefined, grantedTo: writesAll(account) ? undefined : (account?.id ?? 0) }),

    'laboratory.get': async ({ params, account }) => loadProject(context, await readableProject(context, params.id, account)),

    'laboratory.create': async ({ request }) => createFromPanel(context, request),

    'laboratory.update': async ({ params, body, account }) => {
      const row = await existingProject(context, params.id);
      if (row.pending) throw new HttpError(409, LAB_MESSAGES.stillPending);
      // Based on an older version: nothing is written (docs/architecture.md, "Versions and conflicts").
      const { version: basedOn } = body;
      if (basedOn !== undefined && basedOn !== row.version) throw await staleLabProject(context, row.id);
      const changes: Partial<typeof labProjects.$inferInsert> = { updatedAt: new Date(context.clock.now()) };
      if (body.name !== undefined) changes.name = body.name;
      if (body.specialtyId !== undefined) changes.specialtyId = body.specialtyId;
      if (body.tags) await saveTags(context, panels, row, body.tags, account?.id ?? null);
      // The version read above is claimed as the row is written: of two saves based on it, the second is refused.
      const current = basedOn === undefined ? eq(labProjects.id, row.id) : and(eq(labProjects.id, row.id), eq(labProjects.version, basedOn));
      const [updated] = await db
        .update(labProjects)
        .set({ ...changes, ...bumpVersion(labProjects, account?.id ?? null) })
        .where(current)
        .returning();
      if (!updated) throw await staleLabProject(context, row.id);
      return loadProject(context, updated);
    },

    'laboratory.delete': async ({ params, body }) => {
      const row = await existingProject(context, params.id);
      if (row.name.trim() !== body.name.trim()) throw new HttpError(400, LAB_MESSAGES.nameMismatch, {}, 'name');
      await deleteProject(db, row.id);
      panels.forget(row.id);
      return { ok: true as const };
    },
  };
}

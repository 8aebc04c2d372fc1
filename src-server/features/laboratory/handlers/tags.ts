import { and, eq } from 'drizzle-orm';
import type { TagInput } from '@shared/contract/laboratory';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { toBase64 } from '@shared/rules/laboratory';
import type { ServerContext } from '../../../context';
import { labTags } from '../../../db/schema';
import { bumpVersion } from '../../../db/versioning';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import type { LabProjectRow } from '../queries';
import { toTag } from '../queries';
import type { PanelCounts } from '../panel-cache';
import { compileTagQuery } from '../tag-query';
import { existingProject, readableProject, staleLabTag } from './shared';

export type LabTagHandlers = Pick<Handlers, 'laboratory.addTag' | 'laboratory.deleteTag' | 'laboratory.countTag'>;

const EMPTY = toBase64('');

/** Panel members a tag's query selects (a mistake in it is a 400 naming its position). */
async function usersCountOf(panels: PanelCounts, project: LabProjectRow, query: string, params: string): Promise<number> {
  return panels.count(project, compileTagQuery(query, params, project.crits));
}

/** A tag whose version is no longer the one a save or delete was based on (thrown inside a transaction, answered after it). */
class StaleTag extends Error {
  constructor(readonly tagId: number) {
    super('stale tag');
  }
}

/** The tag as a write claims it: its id on the project, and the version it was based on when one is sent. */
const claimed = (projectId: number, tagId: number, basedOn: number | undefined) =>
  and(eq(labTags.id, tagId), eq(labTags.projectId, projectId), ...(basedOn === undefined ? [] : [eq(labTags.version, basedOn)]));

/** No row matched: a tag still there was changed meanwhile (409 naming who), a tag gone is not found. */
async function tagMissed(tx: Pick<ServerContext['db'], 'select'>, projectId: number, tagId: number): Promise<never> {
  const [still] = await tx
    .select({ id: labTags.id })
    .from(labTags)
    .where(and(eq(labTags.id, tagId), eq(labTags.projectId, projectId)));
  if (still) throw new StaleTag(tagId);
  throw new HttpError(404, LAB_MESSAGES.tagNotFound);
}

/** Runs a tag write; a stale tag answers its 409 once the transaction is over (the conflict reads the project). */
async function answeringStale(context: ServerContext, projectId: number, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (error instanceof StaleTag) throw await staleLabTag(context, projectId, error.tagId);
    throw error;
  }
}

/**
 * The Save of a project's page: every tag sent is written (new ones inserted, the others updated), each with the
 * count of panel members its query selects, computed here; one wrong query refuses the whole save. A tag sent with
 * the version it was based on is written only if that is still its version (docs/architecture.md, "Versions and
 * conflicts"): otherwise nothing of the save is written and it answers 409 naming who changed the tag and when.
 */
export async function saveTags(
  context: ServerContext,
  panels: PanelCounts,
  project: LabProjectRow,
  tags: TagInput[],
  accountId: number | null,
): Promise<void> {
  const counted: (TagInput & { usersCount: number })[] = [];
  for (const tag of tags) counted.push({ ...tag, usersCount: await usersCountOf(panels, project, tag.query, tag.params) });
  await answeringStale(context, project.id, () =>
    context.db.transaction(async (tx) => {
      for (const { id, version: basedOn, ...tag } of counted) {
        if (id === undefined) {
          await tx.insert(labTags).values({ ...tag, projectId: project.id, updatedBy: accountId });
          continue;
        }
        const updated = await tx
          .update(labTags)
          .set({ ...tag, updatedAt: new Date(context.clock.now()), ...bumpVersion(labTags, accountId) })
          .where(claimed(project.id, id, basedOn))
          .returning({ id: labTags.id });
        if (updated.length === 0) await tagMissed(tx, project.id, id);
      }
    }),
  );
}

export function labTagHandlers(context: ServerContext, panels: PanelCounts): LabTagHandlers {
  const { db } = context;
  return {
    'laboratory.addTag': async ({ params, body, account }) => {
      if (body.projectId !== params.projectId) throw new HttpError(400, LAB_MESSAGES.projectNotFound, {}, 'projectId');
      const project = await existingProject(context, params.projectId);
      if (project.pending) throw new HttpError(409, LAB_MESSAGES.stillPending);
      const query = body.query ?? EMPTY;
      const tagParams = body.params ?? EMPTY;
      const usersCount = await usersCountOf(panels, project, query, tagParams);
      const [row] = await db
        .insert(labTags)
        .values({
          projectId: project.id,
          type: body.type,
          name: body.name ?? '',
          level: body.level ?? 'UNDERSTAND',
          content: body.content ?? '',
          linkTitle: body.linkTitle ?? '',
          link: body.link ?? '',
          query,
          params: tagParams,
          usersCount,
          updatedBy: account?.id ?? null,
        })
        .returning();
      return toTag(row);
    },

    'laboratory.deleteTag': async ({ params, body }) => {
      await existingProject(context, params.projectId);
      await answeringStale(context, params.projectId, async () => {
        const deleted = await db
          .delete(labTags)
          .where(claimed(params.projectId, body.tagId, body.version))
          .returning({ id: labTags.id });
        if (deleted.length === 0) await tagMissed(db, params.projectId, body.tagId);
      });
      return { ok: true as const };
    },

    'laboratory.countTag': async ({ params, body, account }) => {
      const project = await readableProject(context, params.projectId, account);
      return { usersCount: await usersCountOf(panels, project, body.query, body.params) };
    },
  };
}

import { and, eq } from 'drizzle-orm';
import type { TagInput } from '@shared/contract/laboratory';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { toBase64 } from '@shared/rules/laboratory';
import type { ServerContext } from '../../../context';
import { labTags } from '../../../db/schema';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import type { LabProjectRow } from '../queries';
import { toTag } from '../queries';
import type { PanelCounts } from '../panel-cache';
import { compileTagQuery } from '../tag-query';
import { existingProject, readableProject } from './shared';

export type LabTagHandlers = Pick<Handlers, 'laboratory.addTag' | 'laboratory.deleteTag' | 'laboratory.countTag'>;

const EMPTY = toBase64('');

/** Panel members a tag's query selects (a mistake in it is a 400 naming its position). */
async function usersCountOf(panels: PanelCounts, project: LabProjectRow, query: string, params: string): Promise<number> {
  return panels.count(project, compileTagQuery(query, params, project.crits));
}

/**
 * The Save of a project's page: every tag sent is written (new ones inserted, the others updated), each with the
 * count of panel members its query selects, computed here; one wrong query refuses the whole save.
 */
export async function saveTags(context: ServerContext, panels: PanelCounts, project: LabProjectRow, tags: TagInput[]): Promise<void> {
  const counted: (TagInput & { usersCount: number })[] = [];
  for (const tag of tags) counted.push({ ...tag, usersCount: await usersCountOf(panels, project, tag.query, tag.params) });
  await context.db.transaction(async (tx) => {
    for (const { id, ...tag } of counted) {
      if (id === undefined) {
        await tx.insert(labTags).values({ ...tag, projectId: project.id });
        continue;
      }
      const updated = await tx
        .update(labTags)
        .set(tag)
        .where(and(eq(labTags.id, id), eq(labTags.projectId, project.id)))
        .returning({ id: labTags.id });
      if (updated.length === 0) throw new HttpError(404, LAB_MESSAGES.tagNotFound);
    }
  });
}

export function labTagHandlers(context: ServerContext, panels: PanelCounts): LabTagHandlers {
  const { db } = context;
  return {
    'laboratory.addTag': async ({ params, body }) => {
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
        })
        .returning();
      return toTag(row);
    },

    'laboratory.deleteTag': async ({ params, body }) => {
      await existingProject(context, params.projectId);
      const deleted = await db
        .delete(labTags)
        .where(and(eq(labTags.id, body.tagId), eq(labTags.projectId, params.projectId)))
        .returning({ id: labTags.id });
      if (deleted.length === 0) throw new HttpError(404, LAB_MESSAGES.tagNotFound);
      return { ok: true as const };
    },

    'laboratory.countTag': async ({ params, body, account }) => {
      const project = await readableProject(context, params.projectId, account);
      return { usersCount: await usersCountOf(panels, project, body.query, body.params) };
    },
  };
}

import { and, eq } from 'drizzle-orm';
import type { LabProject } from '@shared/contract/laboratory';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { hasAnyRole, type Role } from '@shared/roles';
import { tagQueryFields } from '@shared/rules/laboratory';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import { nameOfEditor, staleVersion, type ConflictError } from '../../../db/versioning';
import { labTags } from '../../../db/schema';
import { accountsOf, isGranted, projectRow, tagsOf, type LabProjectRow } from '../queries';

/** SALES (and ADMIN) read and write every laboratory project (README "Laboratory projects"). */
export const writesAll = (account: { roles: Role[] } | null) => Boolean(account && hasAnyRole(account.roles, ['SALES']));

/**
 * The project, if the caller may read it: SALES and ADMIN every one, any other account those granted to it. A
 * project the caller may not read is 'not found', so its existence is not told.
 */
export async function readableProject(context: ServerContext, id: number, account: { id: number; roles: Role[] } | null): Promise<LabProjectRow> {
  const row = await projectRow(context.db, id);
  if (!row || !account) throw new HttpError(404, LAB_MESSAGES.projectNotFound);
  if (!writesAll(account) && !(await isGranted(context.db, id, account.id))) throw new HttpError(404, LAB_MESSAGES.projectNotFound);
  return row;
}

export async function existingProject(context: ServerContext, id: number): Promise<LabProjectRow> {
  const row = await projectRow(context.db, id);
  if (!row) throw new HttpError(404, LAB_MESSAGES.projectNotFound);
  return row;
}

export async function loadProject(context: ServerContext, row: LabProjectRow): Promise<LabProject> {
  const [tags, userAccounts] = await Promise.all([tagsOf(context.db, row.id), accountsOf(context.db, row.id)]);
  return {
    id: row.id,
    name: row.name,
    specialtyId: row.specialtyId,
    pending: row.pending,
    usersCount: row.usersCount,
    matchedCount: row.matchedCount,
    tags,
    userAccounts,
    fields: tagQueryFields(row.crits),
    version: row.version,
  };
}

/**
 * The 409 of a save based on an older version of the project (docs/architecture.md, "Versions and conflicts"): who
 * changed it and when, with the project as it is now.
 */
export async function staleLabProject(context: ServerContext, id: number): Promise<ConflictError> {
  const row = await existingProject(context, id);
  const editorName = await nameOfEditor(context.db, row.updatedBy);
  return staleVersion('labProject', { version: row.version, updatedAt: row.updatedAt, editorName }, await loadProject(context, row));
}

/**
 * The 409 of a tag save or delete based on an older version of the tag: who changed the tag and when, with its
 * project as it is now (a tag is read with its project, so the page can show theirs beside yours).
 */
export async function staleLabTag(context: ServerContext, projectId: number, tagId: number): Promise<ConflictError> {
  const project = await existingProject(context, projectId);
  const [tag] = await context.db
    .select({ version: labTags.version, updatedAt: labTags.updatedAt, updatedBy: labTags.updatedBy })
    .from(labTags)
    .where(and(eq(labTags.id, tagId), eq(labTags.projectId, projectId)));
  if (!tag) throw new HttpError(404, LAB_MESSAGES.tagNotFound);
  const editorName = await nameOfEditor(context.db, tag.updatedBy);
  return staleVersion('labTag', { version: tag.version, updatedAt: tag.updatedAt, editorName }, await loadProject(context, project));
}

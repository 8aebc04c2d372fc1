import { sql } from 'drizzle-orm';
import type { ProjectComment, TargetComment } from '@shared/contract/projects/comments';
import { param, rows, type Executor } from '../../../db/rows';

// ---- comments -------------------------------------------------------------------------------------------------

const commentColumns = sql`c.id, c.author_id AS author, a.name AS "authorName", c.content,
  floor(extract(epoch FROM c.created_at) * 1000)::float8 AS "createdAt", floor(extract(epoch FROM c.updated_at) * 1000)::float8 AS "updatedAt"`;

export function projectCommentsOf(db: Executor, projectId: number, commentId?: number) {
  return rows<ProjectComment & { projectId: number }>(
    db,
    sql`SELECT ${commentColumns}, c.project_id AS "projectId" FROM project_comments c JOIN accounts a ON a.id = c.author_id
        WHERE ${commentId ? sql`c.id = ${commentId}` : sql`c.project_id = ${projectId}`} ORDER BY c.id`,
  );
}

export function targetCommentsOf(db: Executor, targetIds: number[], commentId?: number) {
  return rows<TargetComment>(
    db,
    sql`SELECT ${commentColumns}, c.target_id AS "targetId" FROM target_comments c JOIN accounts a ON a.id = c.author_id
        WHERE ${commentId ? sql`c.id = ${commentId}` : sql`c.target_id = ANY(${param(targetIds)}::int[])`} ORDER BY c.id`,
  );
}

// ---- writes of comments ----------------------------------------------------------------------------------------

export type CommentTable = 'project_comments' | 'target_comments';

/** A new comment on a project or a target; answers its id. */
export async function insertComment(
  db: Executor,
  on: { projectId: number } | { targetId: number },
  authorId: number,
  content: string,
): Promise<number> {
  const [{ id }] = await rows<{ id: number }>(
    db,
    'projectId' in on
      ? sql`INSERT INTO project_comments (project_id, author_id, content) VALUES (${on.projectId}, ${authorId}, ${content}) RETURNING id`
      : sql`INSERT INTO target_comments (target_id, author_id, content) VALUES (${on.targetId}, ${authorId}, ${content}) RETURNING id`,
  );
  return id;
}

export async function commentAuthor(db: Executor, table: CommentTable, id: number): Promise<number | undefined> {
  const [found] = await rows<{ authorId: number }>(db, sql`SELECT author_id AS "authorId" FROM ${sql.identifier(table)} WHERE id = ${id}`);
  return found?.authorId;
}

export async function updateComment(db: Executor, table: CommentTable, id: number, content: string): Promise<void> {
  await db.execute(sql`UPDATE ${sql.identifier(table)} SET content = ${content}, updated_at = now() WHERE id = ${id}`);
}

export async function deleteComment(db: Executor, table: CommentTable, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE id = ${id}`);
}

import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import {
  commentAuthor,
  deleteComment,
  insertComment,
  projectCommentsOf,
  targetCommentsOf,
  updateComment,
  type CommentTable,
} from '../queries/comments';
import { type Executor } from '../../../db/rows';
import { accountId, loadTarget, projectRow, type ProjectFeatureParts } from './shared';

export type CommentHandlers = Pick<
  Handlers,
  'comments.create' | 'comments.update' | 'comments.delete' | 'targetComments.create' | 'targetComments.update' | 'targetComments.delete'
>;

/** Only its author changes or deletes a comment. */
async function assertOwnComment(executor: Executor, table: CommentTable, id: number, author: number): Promise<void> {
  const found = await commentAuthor(executor, table, id);
  if (found === undefined) throw new HttpError(404, PROJECT_MESSAGES.commentNotFound);
  if (found !== author) throw new HttpError(403, PROJECT_MESSAGES.notCommentAuthor);
}

async function projectComment(executor: Executor, id: number) {
  const [comment] = await projectCommentsOf(executor, 0, id);
  const { projectId: _, ...rest } = comment;
  return rest;
}

async function targetComment(executor: Executor, id: number) {
  const [comment] = await targetCommentsOf(executor, [], id);
  return comment;
}

/** Comments on projects and on targets. */
export function commentHandlers({ context }: ProjectFeatureParts): CommentHandlers {
  const { db } = context;
  return {
    'comments.create': async (input) => {
      const author = accountId(input);
      await projectRow(db, input.body.projectId);
      return projectComment(db, await insertComment(db, { projectId: input.body.projectId }, author, input.body.content));
    },

    'comments.update': async (input) => {
      await assertOwnComment(db, 'project_comments', input.params.id, accountId(input));
      await updateComment(db, 'project_comments', input.params.id, input.body.content);
      return projectComment(db, input.params.id);
    },

    'comments.delete': async (input) => {
      await assertOwnComment(db, 'project_comments', input.params.id, accountId(input));
      await deleteComment(db, 'project_comments', input.params.id);
      return { ok: true as const };
    },

    'targetComments.create': async (input) => {
      const author = accountId(input);
      await loadTarget(db, input.body.targetId);
      return targetComment(db, await insertComment(db, { targetId: input.body.targetId }, author, input.body.content));
    },

    'targetComments.update': async (input) => {
      await assertOwnComment(db, 'target_comments', input.params.id, accountId(input));
      await updateComment(db, 'target_comments', input.params.id, input.body.content);
      return targetComment(db, input.params.id);
    },

    'targetComments.delete': async (input) => {
      await assertOwnComment(db, 'target_comments', input.params.id, accountId(input));
      await deleteComment(db, 'target_comments', input.params.id);
      return { ok: true as const };
    },
  };
}

import { z } from 'zod';
import { projectReaders } from '../../access-rules';
import { defineOperation } from '../define';
import { idParam, okSchema, shortText } from '../entities';
import { id } from './shared';

/** Comments on a project (its side panel) and on a target (the timeline): every reader writes and edits their own (spec §6). */

export const commentSchema = z.object({
  id: z.number().int(),
  /** The author's account id (spec §3); the name is given for the label. */
  author: z.number().int(),
  authorName: z.string(),
  content: z.string(),
  /** Milliseconds. */
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type ProjectComment = z.infer<typeof commentSchema>;
export const targetCommentSchema = commentSchema.extend({ targetId: z.number().int() });
export type TargetComment = z.infer<typeof targetCommentSchema>;

const commentContent = shortText(5000).min(1);

export const commentOperations = {
  'comments.create': defineOperation({
    method: 'POST',
    path: '/newcomment',
    summary: 'Comment on a project',
    access: projectReaders,
    body: z.strictObject({ projectId: id, content: commentContent }),
    response: commentSchema,
    successStatus: 201,
  }),
  'comments.update': defineOperation({
    method: 'PUT',
    path: '/comment/:id',
    summary: "Edit one's own project comment",
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ content: commentContent }),
    response: commentSchema,
  }),
  'comments.delete': defineOperation({
    method: 'DELETE',
    path: '/comment/:id',
    summary: "Delete one's own project comment",
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    response: okSchema,
  }),
  'targetComments.create': defineOperation({
    method: 'POST',
    path: '/targets/comment',
    summary: 'Comment on a target (timeline)',
    access: projectReaders,
    body: z.strictObject({ targetId: id, content: commentContent }),
    response: targetCommentSchema,
    successStatus: 201,
  }),
  'targetComments.update': defineOperation({
    method: 'PUT',
    path: '/targets/comment/:id',
    summary: "Edit one's own target comment",
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ content: commentContent }),
    response: targetCommentSchema,
  }),
  'targetComments.delete': defineOperation({
    method: 'DELETE',
    path: '/targets/comment/:id',
    summary: "Delete one's own target comment",
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    response: okSchema,
  }),
};

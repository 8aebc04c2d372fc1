import { z } from 'zod';
import { projectReaders, projectWriters } from '../../access-rules';
import { ACTORS, DEFAULT_PROJECT_LIST_STATUSES, MAX_PROJECT_LINES, PROJECT_FIRST_PAGE_SIZE, PROJECT_HEADER_MAX } from '../../rules/projects';
import { defineOperation } from '../define';
import { basedOnVersion, idParam, okSchema, recordVersionSchema, shortText, versionQuery } from '../entities';
import { briefingSchema } from './briefings';
import { commentSchema, targetCommentSchema } from './comments';
import { id, keyAccountSchema, order, projectStatus, status, textList } from './shared';
import { targetFilterShape, targetSchema } from './targets';

/** Projects (spec §6): the list with its filters, one project with its targets, comments and briefing, the timeline. */

export const projectSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  clientName: z.string(),
  keyAccount: keyAccountSchema,
  actor: z.string().nullable(),
  actionCode: z.string().nullable(),
  status: projectStatus,
  estimateId: z.string().nullable(),
  targets: z.array(targetSchema),
  comments: z.array(commentSchema),
  briefing: briefingSchema.nullable(),
  isProjectCommented: z.boolean(),
  createdAt: z.number().int(),
  /** Its version (docs/architecture.md, "Versions and conflicts"): writes send theirs as `version`. */
  version: recordVersionSchema,
});
export type Project = z.infer<typeof projectSchema>;
/** A target row of the projects list: the columns its table shows (the editor loads the whole target). */
export const projectListTargetSchema = targetSchema.pick({
  id: true,
  actionCode: true,
  status: true,
  type: true,
  advertId: true,
  populationCategory: true,
  populationSample: true,
  goal: true,
  startDate: true,
  checkDate: true,
  endDate: true,
});
export type ProjectListTarget = z.infer<typeof projectListTargetSchema>;
export const projectListItemSchema = projectSchema.omit({ comments: true, briefing: true }).extend({ targets: z.array(projectListTargetSchema) });
export type ProjectListItem = z.infer<typeof projectListItemSchema>;

export const projectListBodySchema = z.strictObject({
  limit: z.number().int().min(1).max(100).default(PROJECT_FIRST_PAGE_SIZE),
  skip: z.number().int().min(0).max(10_000_000).default(0),
  orderBy: z.enum(['id', 'name', 'clientName']).default('id'),
  order,
  /** Project name or client. */
  term: shortText(200).optional(),
  /** Project statuses; absent: drafts and active ones (DEFAULT_PROJECT_LIST_STATUSES). `projectStatus` is the filter bar's name for the same list. */
  status: z.array(projectStatus).max(10).default(DEFAULT_PROJECT_LIST_STATUSES),
  projectStatus: z.array(projectStatus).max(10).optional(),
  name: textList().optional(),
  clientName: textList().optional(),
  /** CSM ids. */
  keyAccount: z.array(id).max(200).optional(),
  ...targetFilterShape,
});
export type ProjectListBody = z.output<typeof projectListBodySchema>;

const projectFields = {
  name: shortText(PROJECT_HEADER_MAX).min(1),
  clientName: shortText(PROJECT_HEADER_MAX).min(1),
  keyAccount: id,
  actor: z.enum(ACTORS),
};

const timelineTargetSchema = z.object({
  id: z.number().int(),
  actionCode: z.string().nullable(),
  type: z.string().nullable(),
  status,
  startDate: z.number().int().nullable(),
  endDate: z.number().int().nullable(),
  comments: z.array(targetCommentSchema),
});

export const projectResourceOperations = {
  'projects.create': defineOperation({
    method: 'POST',
    path: '/project',
    summary: 'Create a project with its number of lines (targets carrying generated action codes)',
    access: projectWriters,
    body: z.strictObject({ ...projectFields, lines: z.number().int().min(0).max(MAX_PROJECT_LINES) }),
    response: projectSchema,
    successStatus: 201,
  }),
  'projects.update': defineOperation({
    method: 'PUT',
    path: '/project',
    summary: 'Change a project (name and client inline, CSM, actor, status)',
    access: projectWriters,
    body: z.strictObject({
      id,
      name: projectFields.name.optional(),
      clientName: projectFields.clientName.optional(),
      keyAccount: id.nullable().optional(),
      actor: projectFields.actor.nullable().optional(),
      status: projectStatus.optional(),
      actionCode: shortText(60).nullable().optional(),
      ...basedOnVersion,
    }),
    response: projectSchema,
  }),
  'projects.get': defineOperation({
    method: 'GET',
    path: '/project/:id',
    summary: 'One project with its targets, comments and briefing',
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    response: projectSchema,
  }),
  'projects.delete': defineOperation({
    method: 'DELETE',
    path: '/project/:id',
    summary: 'Delete a project with its targets, comments and briefing',
    access: projectWriters,
    params: z.strictObject({ id: idParam }),
    query: versionQuery,
    response: okSchema,
  }),
  'projects.list': defineOperation({
    method: 'POST',
    path: '/projects',
    summary: 'Projects page (8 first, then 25) with their targets; term on project and client; every filter list',
    access: projectReaders,
    body: projectListBodySchema,
    response: z.object({ items: z.array(projectListItemSchema) }),
  }),
  'projects.timeline': defineOperation({
    method: 'POST',
    path: '/projects/timeline',
    summary: 'Targets of the given projects with their dates and comments, for the timeline overlay',
    access: projectReaders,
    body: z.strictObject({ ids: z.array(id).min(1).max(100) }),
    response: z.array(z.object({ projectId: z.number().int(), projectName: z.string(), targets: z.array(timelineTargetSchema) })),
  }),
};

/** The filter lists' autocomplete, over projects and targets. */
export const projectSearchOperations = {
  'projects.search': defineOperation({
    method: 'GET',
    path: '/search/:label',
    summary: 'Filter-list autocomplete: distinct values of a Project or Target field starting with or containing the term',
    access: projectReaders,
    params: z.strictObject({ label: z.enum(['Project', 'Target']) }),
    query: z.strictObject({
      term: shortText(200).default(''),
      field: z.enum(['name', 'clientName', 'projectName', 'actionCode', 'type', 'status', 'populationCategory', 'populationSample', 'advertId']),
      limit: z
        .union([z.literal('5'), z.literal('10'), z.literal('15'), z.literal(5), z.literal(10), z.literal(15)])
        .default(10)
        .transform(Number),
    }),
    response: z.array(z.string()),
  }),
};

import { z } from 'zod';
import { PROJECT_MESSAGES } from '../messages/projects';
import { DELAY_REASON_KEYS } from '../rules/campaigns';
import {
  ACTORS,
  DEFAULT_PROJECT_LIST_STATUSES,
  ESTIMATE_FILE_MAX_CHARS,
  ESTIMATE_ID_PATTERN,
  MAX_PROJECT_LINES,
  MAX_TARGET_BATCH,
  PROJECT_FIRST_PAGE_SIZE,
  PROJECT_STATUSES,
  TARGET_AMOUNT_MAX,
  TARGET_EXPORT_MAX_ROWS,
  TARGET_PAGE_SIZE,
  TARGET_STATUSES,
  TARGET_TEXT_MAX,
  TARGET_TYPES,
} from '../rules/projects';
import { defineOperation } from './define';
import { basedOnVersion, idParam, multilineText, okSchema, recordVersionSchema, shortText, versionQuery } from './entities';
import { estimateImporters, projectReaders, projectWriters } from '../access-rules';

/**
 * Projects menu: CSM, CSM_LEAD and SALES read (spec §6). Writes of §6 (project create, update, delete; target add,
 * duplicate, delete, unset advert, cell editing; estimate imports) are refused to SALES without ADMIN: 403 'User
 * not allowed'. Comments and briefings are not in that list: every reader writes their own.
 */

const id = z.number().int().min(1).max(2_147_483_647);
/** Epoch seconds from 1970 to 2100; null clears the date (spec §4 "A cleared date gives null"). */
const epochSeconds = z.number().int().min(0).max(4_102_444_800);
/** Euros with cents. */
const amount = z.number().min(-TARGET_AMOUNT_MAX).max(TARGET_AMOUNT_MAX).multipleOf(0.01);
const status = z.enum(TARGET_STATUSES);
const targetType = z.enum(TARGET_TYPES);
const projectStatus = z.enum(PROJECT_STATUSES);
const order = z.enum(['ASC', 'DESC']).default('DESC');
const textList = (max = 200) => z.array(shortText(max).min(1)).max(200);
const estimateId = z.string().regex(ESTIMATE_ID_PATTERN, 'numéro de devis attendu (DEV-…)');

export const goalSchema = z.object({ views: z.number().int().min(0), days: z.number().int().min(0), shipments: z.number().int().min(0) });
const goalInput = z
  .strictObject({
    views: z.number().int().min(0).max(1e12).default(0),
    days: z.number().int().min(0).max(100_000).default(0),
    shipments: z.number().int().min(0).max(1e12).default(0),
  })
  .refine((goal) => [goal.views, goal.days, goal.shipments].filter(Boolean).length <= 1, 'un seul objectif : vues, jours ou envois');

const keyAccountSchema = z.object({ id: z.number().int(), name: z.string() }).nullable();

export const targetSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  clientName: z.string(),
  position: z.number().int(),
  actionCode: z.string().nullable(),
  status,
  type: z.string().nullable(),
  advertId: z.number().int().nullable(),
  /** Read-only: where the linked advert is opened. */
  advertSource: z.string().nullable(),
  toolId: z.number().int().nullable(),
  promoteInSearch: z.boolean(),
  populationCategory: z.string().nullable(),
  populationSample: z.string().nullable(),
  populationSize: z.number().int().nullable(),
  goal: goalSchema,
  startDate: z.number().int().nullable(),
  endDate: z.number().int().nullable(),
  checkDate: z.number().int().nullable(),
  quotationSignedMonth: z.number().int().nullable(),
  initialQuotationDate: z.number().int().nullable(),
  revenue: z.number().nullable(),
  /** Read-only: days from the initial quotation date to the start. */
  releaseDateDiff: z.number().int().nullable(),
  delayReason: z.enum(DELAY_REASON_KEYS).nullable(),
  revenueDelayImpact: z.number().nullable(),
  actor: z.string().nullable(),
  keyAccount: keyAccountSchema,
  comment: z.string().nullable(),
  isNew: z.boolean(),
  /** Its version (docs/architecture.md, "Versions and conflicts"): a delete sends it as `?version=`. */
  version: recordVersionSchema,
});
export type Target = z.infer<typeof targetSchema>;

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

/** Lexical editor state; stored sanitised (known nodes, safe links only). */
const lexicalState = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 200_000, 'briefing trop long (200 000 caractères au plus)');
export const briefingSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  content: z.record(z.string(), z.unknown()),
  updatedAt: z.number().int(),
});

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

const range = (value: z.ZodNumber) =>
  z
    .strictObject({ from: value, to: value })
    .refine((r) => r.from <= r.to, { message: 'la date de début doit précéder la date de fin', path: ['from'] });
const dateRange = range(epochSeconds);
const numberRange = z
  .strictObject({ min: z.number().min(-1e12).max(1e12), max: z.number().min(-1e12).max(1e12) })
  .refine((r) => r.min <= r.max, { message: 'minimum au-dessus du maximum', path: ['min'] });

/** Filters on targets, shared by the project list (projects having such a target) and the target list. */
const targetFilterShape = {
  targetStatus: z.array(status).max(20).optional(),
  type: z.array(targetType).max(40).optional(),
  actionCodes: textList().optional(),
  /** Spé. */
  populationCategory: textList().optional(),
  /** Ciblage. */
  populationSample: textList().optional(),
  populationSize: numberRange.optional(),
  revenue: numberRange.optional(),
  startDate: dateRange.optional(),
  /** deadline sortie KPIs. */
  checkDate: dateRange.optional(),
  endDate: dateRange.optional(),
};

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

/** Columns of the target list that can be sorted and filtered (spec §2 /targets). */
export const TARGET_LIST_COLUMNS = [
  'projectName',
  'clientName',
  'advertId',
  'actionCode',
  'status',
  'type',
  'populationCategory',
  'populationSample',
  'populationSize',
  'startDate',
  'endDate',
  'checkDate',
  'goal',
  'id',
] as const;
export type TargetListColumn = (typeof TARGET_LIST_COLUMNS)[number];

const targetListFilters = z.strictObject({
  projectName: textList().optional(),
  clientName: textList().optional(),
  advertId: z.array(id).max(200).optional(),
  actionCode: textList().optional(),
  /** Absent: the default "2. en ligne", "3. stats à sortir", "3.1 Urgent - Stats à sortir", "3.2 stats intermédiaires"; [] : every status. */
  status: z.array(status).max(20).optional(),
  type: z.array(targetType).max(40).optional(),
  populationCategory: textList().optional(),
  populationSample: textList().optional(),
  populationSize: z.array(z.number().int().min(0).max(2_147_483_647)).max(200).optional(),
  startDate: dateRange.optional(),
  endDate: dateRange.optional(),
  checkDate: dateRange.optional(),
  /** The CSM filter (default "Tous": absent). */
  keyAccount: z.array(id).max(200).optional(),
});

const targetQueryShape = {
  skip: z.number().int().min(0).max(10_000_000).default(0),
  /** Project, advert id, action code or ciblage. */
  term: shortText(200).optional(),
  orderBy: z.enum(TARGET_LIST_COLUMNS).default('status'),
  order,
  filters: targetListFilters.default({}),
  /** Columns the screen shows (every column is answered; kept for the spec's call shape). */
  fields: z
    .array(z.enum([...TARGET_LIST_COLUMNS, 'comment']))
    .max(40)
    .optional(),
};
export const targetListBodySchema = z.strictObject({ ...targetQueryShape, limit: z.number().int().min(1).max(1000).default(TARGET_PAGE_SIZE) });
export type TargetListBody = z.output<typeof targetListBodySchema>;
export const targetExportBodySchema = z.strictObject({
  ...targetQueryShape,
  limit: z.number().int().min(1).max(TARGET_EXPORT_MAX_ROWS).default(TARGET_EXPORT_MAX_ROWS),
});
export type TargetExportBody = z.output<typeof targetExportBodySchema>;

export const targetListItemSchema = targetSchema.extend({ isProjectCommented: z.boolean() });

/** Changed fields only (spec §7); null clears. The date, delay and revenue rules are applied by the server too. */
export const targetPropertiesSchema = z.strictObject({
  /** Never emptied: an action is named by its code (null refused too). */
  actionCode: shortText(TARGET_TEXT_MAX.actionCode)
    .min(1, PROJECT_MESSAGES.actionCodeRequired)
    .nullable()
    .refine((value) => value !== null, PROJECT_MESSAGES.actionCodeRequired)
    .optional(),
  status: status.optional(),
  type: targetType.nullable().optional(),
  advertId: id.nullable().optional(),
  toolId: id.nullable().optional(),
  populationCategory: shortText(TARGET_TEXT_MAX.populationCategory).nullable().optional(),
  populationSample: shortText(TARGET_TEXT_MAX.populationSample).nullable().optional(),
  populationSize: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
  goal: goalInput.optional(),
  startDate: epochSeconds.nullable().optional(),
  endDate: epochSeconds.nullable().optional(),
  checkDate: epochSeconds.nullable().optional(),
  quotationSignedMonth: epochSeconds.nullable().optional(),
  initialQuotationDate: epochSeconds.nullable().optional(),
  revenue: amount.nullable().optional(),
  /** null: "Aucune". */
  delayReason: z.enum(DELAY_REASON_KEYS).nullable().optional(),
  actor: shortText(100).nullable().optional(),
  keyAccount: id.nullable().optional(),
  comment: shortText(TARGET_TEXT_MAX.comment).nullable().optional(),
  isNew: z.boolean().optional(),
});
export type TargetProperties = z.output<typeof targetPropertiesSchema>;
export type TargetField = keyof TargetProperties;
const TARGET_FIELDS = Object.keys(targetPropertiesSchema.shape) as [TargetField, ...TargetField[]];

/**
 * What a cell edit was based on (docs/architecture.md, "Versions and conflicts", per cell): `base` gives, per changed
 * field, the value the cell had when the grid loaded it (a key account by its id, a goal as its three figures);
 * the server writes a field whose stored value still equals its base and reports the others as `conflicts`. Without
 * `base`, `version` checks the whole row (409 when stale); with neither, last write wins.
 */
const cellBase = {
  ...basedOnVersion,
  base: z.partialRecord(z.enum(TARGET_FIELDS), z.unknown()).optional(),
};

/** A cell somebody else changed since the grid loaded it: left as they made it, theirs beside yours. */
export const cellConflictSchema = z.object({
  field: z.enum(TARGET_FIELDS),
  theirs: z.unknown(),
  yours: z.unknown(),
  /** Who made the row's newest change, and when (ISO 8601); null when unknown. */
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type CellConflict = z.infer<typeof cellConflictSchema>;
const savedTargetSchema = targetSchema.extend({ needsDelayReason: z.boolean(), conflicts: z.array(cellConflictSchema) });

const projectFields = {
  name: shortText(200).min(1),
  clientName: shortText(200).min(1),
  keyAccount: id,
  actor: z.enum(ACTORS),
};

const commentContent = shortText(5000).min(1);
const timelineTargetSchema = z.object({
  id: z.number().int(),
  actionCode: z.string().nullable(),
  type: z.string().nullable(),
  status,
  startDate: z.number().int().nullable(),
  endDate: z.number().int().nullable(),
  comments: z.array(targetCommentSchema),
});

export const projectOperations = {
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
  'targets.list': defineOperation({
    method: 'POST',
    path: '/targets',
    summary: 'Flat target list (default order status DESC, default online-to-stats statuses), 25 a page',
    access: projectReaders,
    body: targetListBodySchema,
    response: z.object({ items: z.array(targetListItemSchema) }),
  }),
  'targets.export': defineOperation({
    method: 'POST',
    path: '/targets/export',
    summary: 'Every target matching (up to 1,000,000) as a CSV file streamed in batches (export columns of §3)',
    access: projectReaders,
    body: targetExportBodySchema,
    /** text/csv (BOM, ';', CRLF: the desktop's CSV format), streamed; never held whole by the server. */
    response: z.string(),
    answersFile: 'csv',
  }),
  'targets.update': defineOperation({
    method: 'PUT',
    path: '/target/:id/properties',
    summary: 'Change fields of a target (cell editing); answers the target and whether a delay reason is now needed',
    access: projectWriters,
    params: z.strictObject({ id: idParam }),
    body: targetPropertiesSchema.extend(cellBase),
    response: savedTargetSchema,
  }),
  'targets.updateMany': defineOperation({
    method: 'PUT',
    path: '/targets/properties',
    summary:
      'Change fields of several targets in one transaction (a paste or its undo); the rules of PUT /target/{id}/properties per row; one failure names its row and saves nothing',
    access: projectWriters,
    body: z.strictObject({
      items: z
        .array(z.strictObject({ id, changes: targetPropertiesSchema, ...cellBase }))
        .min(1)
        .max(MAX_TARGET_BATCH)
        .refine((items) => new Set(items.map((item) => item.id)).size === items.length, 'une action apparaît deux fois'),
    }),
    response: z.object({ items: z.array(savedTargetSchema) }),
  }),
  'targets.delete': defineOperation({
    method: 'DELETE',
    path: '/target/:id',
    summary: 'Delete a target',
    access: projectWriters,
    params: z.strictObject({ id: idParam }),
    query: versionQuery,
    response: okSchema,
  }),
  'targets.create': defineOperation({
    method: 'POST',
    path: '/project/:projectId/newtarget',
    summary: 'Add one target at the end of a project (action code stem + A1, unique in the project)',
    access: projectWriters,
    params: z.strictObject({ projectId: idParam }),
    response: targetSchema,
    successStatus: 201,
  }),
  'targets.newAdvert': defineOperation({
    method: 'POST',
    path: '/target/:targetId/newadvert',
    summary: 'Where the renderer creates an advert from a target: /adverts/edit/project-{CLIENT - project - action code}',
    access: projectWriters,
    params: z.strictObject({ targetId: idParam }),
    response: z.object({ targetId: z.number().int(), path: z.string() }),
  }),
  'targets.duplicate': defineOperation({
    method: 'POST',
    path: '/project/:projectId/target/:id/duplicate',
    summary: 'Copy a target into its project at a position (0 = first); the copy gets a new action code',
    access: projectWriters,
    params: z.strictObject({ projectId: idParam, id: idParam }),
    body: z.strictObject({ position: z.number().int().min(0).max(100_000) }),
    response: targetSchema,
    successStatus: 201,
  }),
  'targets.unsetRel': defineOperation({
    method: 'PUT',
    path: '/target/:id/unsetRel',
    summary: 'Detach the advert or tool of a target (advertId and toolId cleared)',
    access: projectWriters,
    params: z.strictObject({ id: idParam }),
    response: targetSchema,
  }),
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
  'briefings.create': defineOperation({
    method: 'POST',
    path: '/briefing/create',
    summary: "Write a project's briefing (Lexical JSON, stored sanitised)",
    access: projectReaders,
    body: z.strictObject({ projectId: id, content: lexicalState }),
    response: briefingSchema,
    successStatus: 201,
  }),
  'briefings.update': defineOperation({
    method: 'PUT',
    path: '/briefing/:id',
    summary: 'Rewrite a briefing',
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ content: lexicalState }),
    response: briefingSchema,
  }),
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
  'estimates.createProject': defineOperation({
    method: 'GET',
    path: '/project/estimate/:id',
    summary: 'Create a project from a quote (DEV-…): its lines become targets',
    access: projectWriters,
    params: z.strictObject({ id: estimateId }),
    query: z.strictObject({ name: shortText(200).min(1), actor: z.enum(ACTORS), keyAccount: idParam }),
    response: projectSchema,
  }),
  'estimates.importIntoProject': defineOperation({
    method: 'PUT',
    path: '/project/:projectId/estimate/:estimateId',
    summary: "Add a quote's lines to an existing project as targets",
    access: projectWriters,
    params: z.strictObject({ projectId: idParam, estimateId }),
    response: projectSchema,
  }),
  'estimates.importFile': defineOperation({
    method: 'POST',
    path: '/estimates/import',
    summary: "Load the invoicing tool's quote export (CSV) into the default estimate source; a quote's lines are replaced",
    access: estimateImporters,
    body: z.strictObject({ csv: multilineText(ESTIMATE_FILE_MAX_CHARS).min(1) }),
    // The JSON of 5 M characters of a French export is about 5.2 MB (accents take 2 bytes, each line end 4); 8 MiB
    // leaves room for a file heavy in accents, and a body past it is refused (413) before it is parsed.
    bodyLimit: 8 * 1024 * 1024,
    response: z.object({ quotes: z.number().int(), lines: z.number().int() }),
  }),
};

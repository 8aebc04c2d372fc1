import { z } from 'zod';
import { projectReaders, projectWriters } from '../../access-rules';
import { PROJECT_MESSAGES } from '../../messages/projects';
import { DELAY_REASON_KEYS } from '../../rules/campaigns';
import { MAX_TARGET_BATCH, TARGET_EXPORT_MAX_ROWS, TARGET_PAGE_SIZE, TARGET_TEXT_MAX } from '../../rules/projects';
import { defineOperation } from '../define';
import { basedOnVersion, idParam, okSchema, recordVersionSchema, shortText, versionQuery } from '../entities';
import { amount, dateRange, epochSeconds, id, keyAccountSchema, numberRange, order, status, targetType, textList } from './shared';

/** Targets (a project's lines, spec §7): the flat list and its export, cell editing with its conflicts, add, copy, delete. */

export const goalSchema = z.object({ views: z.number().int().min(0), days: z.number().int().min(0), shipments: z.number().int().min(0) });
const goalInput = z
  .strictObject({
    views: z.number().int().min(0).max(1e12).default(0),
    days: z.number().int().min(0).max(100_000).default(0),
    shipments: z.number().int().min(0).max(1e12).default(0),
  })
  .refine((goal) => [goal.views, goal.days, goal.shipments].filter(Boolean).length <= 1, 'un seul objectif : vues, jours ou envois');

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

/** Filters on targets, shared by the project list (projects having such a target) and the target list. */
export const targetFilterShape = {
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

export const targetOperations = {
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
};

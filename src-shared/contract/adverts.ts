import { z } from 'zod';
import { ADVERT_FILTER_PAGE_SIZE, ADVERT_TYPES } from '../rules/advert-model';
import { ADVERT_IMPORT_MAX_ROWS } from '../rules/advert-screens/csv-import';
import { AREAS } from '../rules/audiences';
import { defineOperation } from './define';
import { CONTENT_FIELD_RULES } from './field-access';
import {
  ADVERT_PROPERTIES,
  advertInputSchema,
  advertSchema,
  contentIdSchema,
  contentRowSchema,
  historyEntrySchema,
  screenSchema,
  targetPropsSchema,
} from './content';
import { basedOnVersion, idParam, messageSchema, okSchema, shortText, versionQuery, wholeNumber } from './entities';
import { contentReaders, contentWriters } from '../access-rules';

export * from './content';

export { contentReaders, contentWriters };

const ids = z.array(contentIdSchema).max(1000);
const codes = z.array(shortText(100).min(1)).max(200);

/** Filters of the advert list (spec §3 List filters); the store's default: not archived, latest model, updatedAt DESC. */
export const advertFiltersSchema = z.strictObject({
  skip: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(1000).default(ADVERT_FILTER_PAGE_SIZE),
  orderBy: z.enum(['id', 'type', 'name', 'published', 'updatedAt', 'weight', 'createdAt']).default('id'),
  order: z.enum(['ASC', 'DESC']).default('ASC'),
  term: shortText(200).optional(),
  type: z.enum(ADVERT_TYPES).optional(),
  published: z.boolean().optional(),
  archived: z.boolean().optional(),
  isFree: z.boolean().optional(),
  /** ROLE_EXPERT: attached to an expert audience; NOT:ROLE_EXPERT: to none. */
  isExpert: z.enum(['ROLE_EXPERT', 'NOT:ROLE_EXPERT']).optional(),
  /** true: attached to a catalogue audience; false: to a custom one. */
  isInCatalog: z.boolean().optional(),
  specialties: ids.optional(),
  professions: ids.optional(),
  audiences: ids.optional(),
  countries: ids.optional(),
  /** App-user roles required by an attached audience (ROLE_EXPERT, ...). */
  role: codes.optional(),
  area: z.array(z.enum(AREAS)).max(10).optional(),
  /** Action codes of the linked project targets. */
  actionCodes: codes.optional(),
  /** The model marker; 'latest' in the store's default filter. */
  model: shortText(20).optional(),
});
export type AdvertFilters = z.input<typeof advertFiltersSchema>;

export const advertPropertySchema = z.enum(ADVERT_PROPERTIES as [string, ...string[]]);

/** publish / updateDates flags (spec §4): both true starts the campaign, publish false with updateDates ends it. */
export const publishBodySchema = z.strictObject({
  publish: z.boolean(),
  updateDates: z.boolean().default(false),
  target: targetPropsSchema.optional(),
  ...basedOnVersion,
});

export const funnelSchema = z.object({
  uuid: z.uuid(),
  adverts: z.array(z.object({ id: z.number().int(), name: z.string(), minViews: z.number().int(), gracePeriodInMs: z.number().int() })),
});
export type Funnel = z.output<typeof funnelSchema>;

const advertParams = z.strictObject({ id: idParam });
const minViews = z.number().int().min(0).max(1_000_000);
const gracePeriod = z
  .number()
  .int()
  .min(0)
  .max(365 * 86_400_000);

/** An item in an older layout, as the migration page lists it: what the legacy mapping would make of it. */
export const legacyItemSchema = z.object({
  kind: z.enum(['advert', 'article']),
  id: z.number().int(),
  name: z.string(),
  type: z.string().nullable(),
  model: z.string(),
  /** The old nested-document layout (a `document` sub-object). */
  nestedDocument: z.boolean(),
  /** The type after mapping (spec §3 type inference). */
  mappedType: z.string(),
});
export type LegacyItem = z.infer<typeof legacyItemSchema>;

export const advertOperations = {
  'adverts.list': defineOperation({
    method: 'POST',
    path: '/adverts',
    summary: 'Advert list page with the filters of spec §3 (CSV export: skip 0, limit 1000, published true)',
    access: contentReaders,
    body: advertFiltersSchema,
    response: z.object({ items: z.array(contentRowSchema), total: z.number().int() }),
  }),
  'adverts.get': defineOperation({
    method: 'GET',
    path: '/v2/advert/:id',
    summary: 'One advert with its audiences and target link',
    access: contentReaders,
    params: advertParams,
    response: advertSchema,
  }),
  'adverts.create': defineOperation({
    method: 'POST',
    path: '/advert/create',
    summary: 'Create an advert, unpublished, with the defaults of spec §3; targetId links a project target, audienceIds its audiences',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    body: z.strictObject({ advert: advertInputSchema, targetId: contentIdSchema.optional(), audienceIds: ids.optional() }),
    response: advertSchema,
    successStatus: 201,
  }),
  'adverts.duplicate': defineOperation({
    method: 'POST',
    path: '/advert/:id/duplicate',
    summary: 'Copy an advert, unpublished, with its audiences; changes in `advert` apply to the copy',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: advertParams,
    body: z.strictObject({ advert: advertInputSchema.optional() }),
    response: advertSchema,
    successStatus: 201,
  }),
  'adverts.update': defineOperation({
    method: 'PUT',
    path: '/v2/advert/:id',
    summary:
      'Update an advert (the fields sent; audienceIds replaces its audiences, in the same transaction); publishing this way runs the publication checks',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: advertParams,
    body: z.strictObject({ advert: advertInputSchema, audienceIds: ids.optional(), ...basedOnVersion }),
    response: advertSchema,
  }),
  'adverts.updateProperty': defineOperation({
    method: 'PUT',
    path: '/v2/advert/:id/:prop',
    summary: 'Update one property (published included, with the publication checks)',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: z.strictObject({ id: idParam, prop: advertPropertySchema }),
    body: z.strictObject({ value: z.unknown(), ...basedOnVersion }),
    response: advertSchema,
  }),
  'adverts.publish': defineOperation({
    method: 'PUT',
    path: '/v2/advert/:id/publish',
    summary: 'Publish or unpublish; with updateDates, start or end the campaign (delay reason when overdue)',
    access: contentWriters,
    params: advertParams,
    body: publishBodySchema,
    response: advertSchema,
  }),
  'adverts.delete': defineOperation({
    method: 'DELETE',
    path: '/advert/:id',
    summary: 'Delete an advert (and its place in a funnel)',
    access: contentWriters,
    params: advertParams,
    query: versionQuery,
    response: okSchema,
  }),
  'adverts.attach': defineOperation({
    method: 'POST',
    path: '/advert/attach',
    summary: "Replace an advert's audiences",
    access: contentWriters,
    body: z.strictObject({ advert: z.strictObject({ ...advertInputSchema.shape, id: contentIdSchema }), audienceIds: ids }),
    response: advertSchema,
  }),
  'adverts.importMany': defineOperation({
    method: 'POST',
    path: '/advert/import',
    summary:
      'Create adverts from CSV rows (at most 5,000), all in one transaction: any row error imports nothing and answers every error with its row',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    body: z.strictObject({
      rows: z
        .array(z.record(shortText(100), z.string().max(10_000)))
        .min(1)
        .max(ADVERT_IMPORT_MAX_ROWS),
      /** The spreadsheet row of the first one (the header is row 1). */
      firstLine: z.number().int().min(1).max(10_000_000).default(2),
    }),
    response: z.object({
      imported: z.number().int(),
      ids: z.array(z.number().int()),
      errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
    }),
    bodyLimit: 32 * 1024 * 1024,
  }),
  'adverts.migrate': defineOperation({
    method: 'PUT',
    path: '/advert/:id/migrate',
    summary: 'Convert a post, video, quiz or story advert into an article (the audience is detached); the advert goes',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: advertParams,
    response: z.object({ id: z.number().int() }),
  }),
  'adverts.migrationList': defineOperation({
    method: 'GET',
    path: '/adverts/migration',
    summary: 'Adverts and articles stored in an older layout (model not latest), oldest first, at most 500',
    access: contentReaders,
    response: z.object({ items: z.array(legacyItemSchema), total: z.number().int() }),
  }),
  'adverts.migrationRun': defineOperation({
    method: 'POST',
    path: '/adverts/migration',
    summary: 'Maps the items given to the latest layout (spec §3 legacy mapping); each item on its own, failures answered',
    access: contentWriters,
    body: z.strictObject({
      items: z
        .array(z.strictObject({ kind: z.enum(['advert', 'article']), id: contentIdSchema }))
        .min(1)
        .max(500),
    }),
    response: z.object({
      migrated: z.number().int(),
      failed: z.array(z.object({ kind: z.enum(['advert', 'article']), id: z.number().int(), message: z.string() })),
    }),
  }),
  'adverts.search': defineOperation({
    method: 'GET',
    path: '/search/Advert',
    summary: 'Adverts by id or name (funnel append, pickers), at most 25',
    access: contentReaders,
    query: z.strictObject({ term: shortText(200).default(''), limit: wholeNumber(1, 100).default(25) }),
    response: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string().nullable(), published: z.boolean() })),
  }),
  'adverts.history': defineOperation({
    method: 'GET',
    path: '/advert/:id/history',
    summary: "An advert's recorded changes, newest first",
    access: contentReaders,
    params: advertParams,
    response: z.array(historyEntrySchema),
  }),
  'adverts.restore': defineOperation({
    method: 'POST',
    path: '/advert/:id/history/:entryId/restore',
    summary: 'Put back the fields as they were before a recorded change (audiences and publication untouched)',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: z.strictObject({ id: idParam, entryId: idParam }),
    response: advertSchema,
  }),

  'funnels.get': defineOperation({
    method: 'GET',
    path: '/advert/:id/funnel',
    summary: 'The funnel the advert belongs to, or null',
    access: contentReaders,
    params: advertParams,
    response: funnelSchema.nullable(),
  }),
  'funnels.create': defineOperation({
    method: 'POST',
    path: '/advert/:id/funnel/create',
    summary: 'Create a funnel starting with this advert',
    access: contentWriters,
    params: advertParams,
    response: funnelSchema,
    successStatus: 201,
  }),
  'funnels.delete': defineOperation({
    method: 'DELETE',
    // `:id` as in GET /advert/:id/funnel: one path, one parameter name (an OpenAPI path has one).
    path: '/advert/:id/funnel',
    summary: 'Delete a funnel',
    access: contentWriters,
    params: advertParams,
    body: z.strictObject({ funnelUuid: z.uuid() }),
    response: okSchema,
  }),
  'funnels.append': defineOperation({
    method: 'POST',
    path: '/advert/:advertId/funnel/append',
    summary: 'Append an advert at the end of a funnel',
    access: contentWriters,
    params: z.strictObject({ advertId: idParam }),
    body: z.strictObject({
      funnelUuid: z.uuid(),
      newAdvertId: contentIdSchema,
      minViews: minViews.optional(),
      gracePeriodInMs: gracePeriod.optional(),
    }),
    response: funnelSchema,
  }),
  'funnels.updateMinViews': defineOperation({
    method: 'POST',
    path: '/advert/:startAdvertId/funnel/update/minviews',
    summary: 'Views of the previous advert needed before the next one is shown (and its grace period)',
    access: contentWriters,
    params: z.strictObject({ startAdvertId: idParam }),
    body: z.strictObject({ nextAdvertId: contentIdSchema, funnelUuid: z.uuid(), minViews, gracePeriodInMs: gracePeriod.optional() }),
    response: funnelSchema,
  }),

  'stories.addScreen': defineOperation({
    method: 'POST',
    path: '/stories/:id/screen',
    summary: 'Add a screen to a story advert',
    access: contentWriters,
    params: advertParams,
    body: z.strictObject({ screen: screenSchema.partial({ id: true, uuid: true }).optional(), ...basedOnVersion }),
    response: advertSchema,
  }),
  'stories.removeScreen': defineOperation({
    method: 'DELETE',
    path: '/stories/:advertId/screen/:screenId',
    summary: 'Remove a screen of a story advert',
    access: contentWriters,
    params: z.strictObject({ advertId: idParam, screenId: idParam }),
    query: versionQuery,
    response: advertSchema,
  }),
  'stories.reset': defineOperation({
    method: 'PUT',
    path: '/stories/:advertId/reset',
    summary: "Reset a story's expiration: it shows again to users who saw it; the answer's text is shown 4.5 s",
    access: contentWriters,
    params: z.strictObject({ advertId: idParam }),
    response: messageSchema,
  }),
};

import { z } from 'zod';
import { ARTICLE_TYPES } from '../rules/advert-model';
import { ARTICLE_CRITERIA_MAX_PER_LABEL, ARTICLE_CRITERION_LABELS, CRITERION_SEARCH_LIMIT } from '../rules/article-audience';
import { AREAS } from '../rules/audiences';
import { contentReaders, contentWriters } from './adverts';
import { defineOperation } from './define';
import { CONTENT_FIELD_RULES } from './field-access';
import {
  ARTICLE_PROPERTIES,
  articleInputSchema,
  articleSchema,
  contentIdSchema,
  contentRowSchema,
  historyEntrySchema,
  screenSchema,
} from './content';
import { basedOnVersion, idParam, okSchema, shortText, versionQuery, wholeNumber } from './entities';

const ids = z.array(contentIdSchema).max(1000);
const codes = z.array(shortText(100).min(1)).max(200);

/** Article list filters: the advert ones without isFree and audiences, plus areas, roles, isPinned (spec §3). */
export const articleFiltersSchema = z.strictObject({
  skip: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(1000).default(50),
  orderBy: z.enum(['id', 'type', 'name', 'published', 'isPinned', 'updatedAt', 'createdAt']).default('id'),
  order: z.enum(['ASC', 'DESC']).default('ASC'),
  term: shortText(200).optional(),
  type: z.enum(ARTICLE_TYPES).optional(),
  published: z.boolean().optional(),
  archived: z.boolean().optional(),
  isPinned: z.boolean().optional(),
  isExpert: z.enum(['ROLE_EXPERT', 'NOT:ROLE_EXPERT']).optional(),
  isInCatalog: z.boolean().optional(),
  specialties: ids.optional(),
  professions: ids.optional(),
  countries: ids.optional(),
  areas: z.array(z.enum(AREAS)).max(10).optional(),
  area: z.array(z.enum(AREAS)).max(10).optional(),
  roles: codes.optional(),
  role: codes.optional(),
  actionCodes: codes.optional(),
  model: shortText(20).optional(),
});
export type ArticleFilters = z.input<typeof articleFiltersSchema>;

const criterionLabel = z.enum(ARTICLE_CRITERION_LABELS);
const nodeIds = z.array(z.number().int().min(1).max(2_147_483_647)).max(ARTICLE_CRITERIA_MAX_PER_LABEL);
export const criterionNodeSchema = z.object({ id: z.number().int(), label: criterionLabel, name: z.string() });
/** The article's own audience (spec §2.5): null until its criteria are first written. */
export const articleAudienceCriteriaSchema = z.object({ audienceId: z.number().int().nullable(), criteria: z.array(criterionNodeSchema) });
export type ArticleAudienceCriteria = z.infer<typeof articleAudienceCriteriaSchema>;

export const articlePropertySchema = z.enum(ARTICLE_PROPERTIES as [string, ...string[]]);
const articleParams = z.strictObject({ id: idParam });

export const articleOperations = {
  'articles.list': defineOperation({
    method: 'POST',
    path: '/article/list',
    summary: 'Article list page with the filters of spec §3',
    access: contentReaders,
    body: articleFiltersSchema,
    response: z.object({ items: z.array(contentRowSchema), total: z.number().int() }),
  }),
  'articles.get': defineOperation({
    method: 'GET',
    path: '/article/:id',
    summary: 'One article',
    access: contentReaders,
    params: articleParams,
    response: articleSchema,
  }),
  'articles.create': defineOperation({
    method: 'POST',
    path: '/article/create',
    summary: 'Create an article, unpublished (type post by default)',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    body: z.strictObject({ article: articleInputSchema, audienceIds: ids.optional() }),
    response: articleSchema,
    successStatus: 201,
  }),
  'articles.duplicate': defineOperation({
    method: 'POST',
    path: '/article/:id/duplicate',
    summary: 'Copy an article, unpublished',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: articleParams,
    response: articleSchema,
    successStatus: 201,
  }),
  'articles.update': defineOperation({
    method: 'PUT',
    path: '/article/:id',
    summary: 'Update an article (the fields sent; audienceIds replaces its audiences)',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: articleParams,
    body: z.strictObject({ article: articleInputSchema, audienceIds: ids.optional(), ...basedOnVersion }),
    response: articleSchema,
  }),
  'articles.updateProperty': defineOperation({
    method: 'PUT',
    path: '/article/:id/:prop',
    summary: 'Update one property of an article (published included)',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: z.strictObject({ id: idParam, prop: articlePropertySchema }),
    body: z.strictObject({ value: z.unknown(), ...basedOnVersion }),
    response: articleSchema,
  }),
  'articles.delete': defineOperation({
    method: 'DELETE',
    path: '/article/:id',
    summary: 'Delete an article',
    access: contentWriters,
    params: articleParams,
    query: versionQuery,
    response: okSchema,
  }),
  'articles.addScreen': defineOperation({
    method: 'POST',
    path: '/article/:id/screen',
    summary: 'Add a screen to a story article',
    access: contentWriters,
    params: articleParams,
    body: z.strictObject({
      article: articleInputSchema.optional(),
      screen: screenSchema.partial({ id: true, uuid: true }).optional(),
      ...basedOnVersion,
    }),
    response: articleSchema,
  }),
  'articles.removeScreen': defineOperation({
    method: 'DELETE',
    path: '/article/:id/screen',
    summary: 'Remove a screen of a story article',
    access: contentWriters,
    params: articleParams,
    body: z.strictObject({ article: articleInputSchema.optional(), screenId: z.number().int().min(0).max(1_000_000), ...basedOnVersion }),
    response: articleSchema,
  }),
  'articles.migrate': defineOperation({
    method: 'PUT',
    path: '/article/:id/migrate',
    summary: 'Convert an article into an advert (the audience is detached); returns the new advert id',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: articleParams,
    response: z.object({ id: z.number().int() }),
  }),
  'articles.getAudience': defineOperation({
    method: 'GET',
    path: '/article/:id/audience',
    summary: "The article's own audience criteria (Area, Country, Role, Profession, Specialty, Title, OrGroup)",
    access: contentReaders,
    params: articleParams,
    response: articleAudienceCriteriaSchema,
  }),
  'articles.setAudienceCriteria': defineOperation({
    method: 'PUT',
    path: '/article/:id/audience',
    summary: "Replace the article's own audience criteria at once (node ids per label; the audience is created on the first write)",
    access: contentWriters,
    params: articleParams,
    body: z.strictObject({ criteria: z.partialRecord(criterionLabel, nodeIds) }),
    response: articleAudienceCriteriaSchema,
  }),
  'articles.searchCriteria': defineOperation({
    method: 'GET',
    path: '/article/criteria/search',
    summary: "Nodes of one label for the article audience's criterion pickers",
    access: contentWriters,
    query: z.strictObject({ label: criterionLabel, term: shortText(200).min(1), limit: wholeNumber(1, 100).default(CRITERION_SEARCH_LIMIT) }),
    response: z.array(criterionNodeSchema),
  }),
  'articles.history': defineOperation({
    method: 'GET',
    path: '/article/:id/history',
    summary: "An article's recorded changes, newest first",
    access: contentReaders,
    params: articleParams,
    response: z.array(historyEntrySchema),
  }),
  'articles.restore': defineOperation({
    method: 'POST',
    path: '/article/:id/history/:entryId/restore',
    summary: 'Put back the fields as they were before a recorded change',
    access: contentWriters,
    fieldAccess: CONTENT_FIELD_RULES,
    params: z.strictObject({ id: idParam, entryId: idParam }),
    response: articleSchema,
  }),
};

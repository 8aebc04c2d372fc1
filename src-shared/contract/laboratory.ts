import { z } from 'zod';
import { LAB_MESSAGES } from '../messages/laboratory';
import { labReaders, labWriters } from '../access-rules';
import { isContentUrl } from '../rules/content-urls';
import {
  DEFAULT_LAB_SPECIALTY_ID,
  LAB_ACCOUNT_SEARCH_MIN_LENGTH,
  PANEL_FORMATS,
  PANEL_MAX_FILE_BYTES,
  TAG_LEVELS,
  TAG_TYPES,
} from '../rules/laboratory';
import { defineOperation } from './define';
import { basedOnVersion, idParam, okSchema, plainText, recordVersionSchema, shortText, wholeNumber } from './entities';

/** Laboratory projects ("Alphonse"): who reads and writes them is in access-rules.ts. */

const id = z.number().int().min(1).max(2_147_483_647);
/** base64 text (spec §3: a tag's query and params travel and are stored base64-encoded). */
const base64 = plainText(40_000).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64 attendu');

export const labAccountSchema = z.object({ id: z.number().int(), username: z.string() });
export type LabAccount = z.infer<typeof labAccountSchema>;

export const tagSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  name: z.string(),
  type: z.enum(TAG_TYPES),
  level: z.enum(TAG_LEVELS),
  content: z.string(),
  linkTitle: z.string(),
  link: z.string(),
  /** base64 of the query text (README "Tag queries"). */
  query: z.string(),
  /** base64 of the params' JSON object. */
  params: z.string(),
  /** Panel members the query selects, computed by the server when the tag is saved. */
  usersCount: z.number().int(),
  /** Its own version (docs/architecture.md, "Versions and conflicts"): a save or delete of it sends the one it was based on. */
  version: recordVersionSchema,
});
export type Tag = z.infer<typeof tagSchema>;

export const labProjectListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  specialtyId: z.number().int(),
  /** True while the panel's rows load. */
  pending: z.boolean(),
  usersCount: z.number().int(),
  matchedCount: z.number().int(),
  tagsCount: z.number().int(),
});
export type LabProjectListItem = z.infer<typeof labProjectListItemSchema>;

export const labProjectSchema = labProjectListItemSchema.omit({ tagsCount: true }).extend({
  tags: z.array(tagSchema),
  userAccounts: z.array(labAccountSchema),
  /** The fields a tag query may name on this project (its panel's columns, then the matched app users'). */
  fields: z.array(z.string()),
  /** Its version (docs/architecture.md, "Versions and conflicts"): Save sends the one it was based on as `version`. */
  version: recordVersionSchema,
});
export type LabProject = z.infer<typeof labProjectSchema>;

const tagFields = {
  name: shortText(200),
  type: z.enum(TAG_TYPES),
  level: z.enum(TAG_LEVELS),
  content: shortText(5000),
  linkTitle: shortText(200),
  /** Opened by the app: http(s) or a deeplink of the app, as an advert's links. */
  link: shortText(2000).refine((value) => isContentUrl(value, 'link'), LAB_MESSAGES.tagLinkInvalid),
  query: base64,
  params: base64,
};
const tagInput = z.strictObject({ id: id.optional(), ...tagFields, ...basedOnVersion });
export type TagInput = z.input<typeof tagInput>;

export const createLabProjectFieldsSchema = z.object({
  projectName: shortText(200).min(1),
  specialtyId: wholeNumber(1, 2_147_483_647).default(DEFAULT_LAB_SPECIALTY_ID),
});

const projectParams = z.strictObject({ projectId: idParam });

export const laboratoryOperations = {
  'laboratory.list': defineOperation({
    method: 'POST',
    path: '/alphonse/projects',
    summary: 'Laboratory projects by name (every one for SALES and ADMIN, the projects granted to the caller otherwise)',
    access: labReaders,
    body: z.strictObject({ term: shortText(200).optional() }),
    response: z.array(labProjectListItemSchema),
  }),
  'laboratory.get': defineOperation({
    method: 'GET',
    path: '/alphonse/project/:id',
    summary: 'One laboratory project with its tags, allowed accounts and query fields',
    access: labReaders,
    params: z.strictObject({ id: idParam }),
    response: labProjectSchema,
  }),
  'laboratory.create': defineOperation({
    method: 'POST',
    path: '/alphonse/project',
    summary: 'Creates a laboratory project from its panel CSV (multipart: projectName, specialtyId, then file), read streamed',
    access: labWriters,
    response: labProjectListItemSchema,
    successStatus: 201,
    multipart: { fields: createLabProjectFieldsSchema, maxFileBytes: PANEL_MAX_FILE_BYTES, formats: PANEL_FORMATS },
  }),
  'laboratory.update': defineOperation({
    method: 'PUT',
    path: '/alphonse/project/:id',
    summary:
      "Saves a project's name, specialty and tags (query and params base64-encoded); each tag's count is computed; a stale project or tag `version` answers 409",
    access: labWriters,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({
      name: shortText(200).min(1).optional(),
      specialtyId: id.optional(),
      tags: z.array(tagInput).max(500).optional(),
      ...basedOnVersion,
    }),
    response: labProjectSchema,
  }),
  'laboratory.delete': defineOperation({
    method: 'DELETE',
    path: '/alphonse/project/:id',
    summary: 'Deletes a project, its panel and tags; the body names it',
    access: labWriters,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ name: plainText(200) }),
    response: okSchema,
  }),
  'laboratory.addTag': defineOperation({
    method: 'POST',
    path: '/alphonse/project/:projectId/tag',
    summary: 'Adds a tag of a type to a project (the other fields optional); answers it with its count',
    access: labWriters,
    params: projectParams,
    body: z.strictObject({
      projectId: id,
      type: z.enum(TAG_TYPES),
      name: tagFields.name.optional(),
      level: tagFields.level.optional(),
      content: tagFields.content.optional(),
      linkTitle: tagFields.linkTitle.optional(),
      link: tagFields.link.optional(),
      query: base64.optional(),
      params: base64.optional(),
    }),
    response: tagSchema,
    successStatus: 201,
  }),
  'laboratory.deleteTag': defineOperation({
    method: 'DELETE',
    path: '/alphonse/project/:projectId/tag',
    summary: 'Deletes a tag of a project; a stale `version` answers 409',
    access: labWriters,
    params: projectParams,
    body: z.strictObject({ tagId: id, ...basedOnVersion }),
    response: okSchema,
  }),
  'laboratory.countTag': defineOperation({
    method: 'POST',
    path: '/alphonse/project/:projectId/tag/count',
    summary: "Panel members a query selects (the tag modal's live count); a mistake answers 400 naming its position",
    access: labReaders,
    params: projectParams,
    body: z.strictObject({ query: base64, params: base64 }),
    response: z.object({ usersCount: z.number().int() }),
  }),
  'laboratory.setAccounts': defineOperation({
    method: 'PUT',
    path: '/alphonse/accounts',
    summary: 'Sets the accounts allowed on a project',
    access: labWriters,
    body: z.strictObject({ projectId: id, userAccounts: z.array(z.strictObject({ id, username: z.string().max(254).optional() })).max(1000) }),
    response: z.array(labAccountSchema),
  }),
  'laboratory.removeAccount': defineOperation({
    method: 'DELETE',
    path: '/alphonse/account',
    summary: 'Removes one account from the accounts allowed on a project',
    access: labWriters,
    body: z.strictObject({ projectId: id, accountId: id }),
    response: okSchema,
  }),
  'laboratory.searchAccounts': defineOperation({
    method: 'POST',
    path: '/alphonse/account/search',
    summary: 'Accounts whose name or e-mail holds the term (3 characters or more), not yet on the project; 20 at most',
    access: labWriters,
    body: z.strictObject({ term: shortText(200).min(LAB_ACCOUNT_SEARCH_MIN_LENGTH), projectId: id }),
    response: z.array(labAccountSchema),
  }),
};

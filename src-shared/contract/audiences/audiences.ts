import { z } from 'zod';
import { access } from '../../roles';
import { AUDIENCE_PAGE_SIZE, NODE_SEARCH_LIMIT } from '../../rules/audiences';
import { audienceReaders, audienceSearchers, audienceSizers, audienceWriters } from '../../access-rules';
import { defineOperation } from '../define';
import { basedOnVersion, idParam, okSchema, recordVersionSchema, shortText, versionQuery, wholeNumber } from '../entities';
import { area, audienceType, id, nodeLabel, relationshipInputSchema, relationshipSchema, relationshipsField } from './shared';

/** Audiences (spec §6): the list, one audience with its relationships, its size and live tester, e-mail attachment. */

export const audienceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: audienceType.nullable(),
  area,
  relationships: z.array(relationshipSchema),
  groupedRelationships: z.record(z.string(), z.array(relationshipSchema)),
  /** Milliseconds (spec §3). */
  createdAt: z.number().int(),
  isUsed: z.boolean(),
  isInCatalog: z.boolean(),
  author: z.string(),
  /** Adverts that target the audience (id, name), by id. */
  adverts: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** App-user roles the audience requires (ROLE_EXPERT makes it an expert audience, adverts §6). */
  roles: z.array(z.string()),
  /** Its version (docs/architecture.md, "Versions and conflicts"): writes send theirs as `version`. */
  version: recordVersionSchema.optional(),
});
export type Audience = z.infer<typeof audienceSchema>;

export const audienceRowSchema = audienceSchema.omit({ relationships: true, groupedRelationships: true });

export const sizeSchema = z.object({
  size: z.number().int(),
  labels: z.array(z.object({ label: nodeLabel, size: z.number().int() })),
});

/** Sizes and membership of a saved audience or of an unsaved definition (the editor's live figures). */
export const audienceSizeOperations = {
  'audiences.size': defineOperation({
    method: 'POST',
    path: '/audience/size',
    summary: 'Size of a saved audience or of an unsaved definition, and of each label group alone',
    access: audienceSizers,
    body: z.union([z.strictObject({ audienceId: id }), z.strictObject({ area, type: audienceType.nullish(), relationships: relationshipsField })]),
    response: sizeSchema,
  }),
  'audiences.membership': defineOperation({
    method: 'POST',
    path: '/audience/membership',
    summary: "Whether one app user belongs to an unsaved audience definition, and to each of its label groups (the editor's live tester)",
    access: access.anyOf('CSM_LEAD'),
    body: z.strictObject({ userId: id, area, type: audienceType.nullish(), relationships: relationshipsField }),
    response: z.object({ member: z.boolean(), labels: z.array(z.object({ label: nodeLabel, member: z.boolean() })) }),
  }),
};

export const audienceResourceOperations = {
  'audiences.list': defineOperation({
    method: 'GET',
    path: '/audiences',
    summary: 'Audiences, newest first by default, with the filters of the list',
    access: audienceReaders,
    query: z.strictObject({
      limit: wholeNumber(1, 500).default(AUDIENCE_PAGE_SIZE),
      skip: wholeNumber(0, 10_000_000).default(0),
      orderBy: z.enum(['createdAt', 'name', 'id']).default('createdAt'),
      order: z.enum(['ASC', 'DESC']).default('DESC'),
      term: shortText(200).optional(),
      area: area.optional(),
      type: audienceType.optional(),
      isInCatalog: z.enum(['true', 'false']).optional(),
    }),
    response: z.object({ items: z.array(audienceRowSchema), total: z.number().int() }),
  }),
  'audiences.get': defineOperation({
    method: 'GET',
    path: '/audience/:id',
    summary: 'One audience with its relationships',
    access: audienceReaders,
    params: z.strictObject({ id: idParam }),
    response: audienceSchema,
  }),
  'audiences.create': defineOperation({
    method: 'POST',
    path: '/audience',
    summary: 'Create an audience (default name "Audience" + id, area french)',
    access: audienceWriters,
    body: z.strictObject({
      name: shortText(200).optional(),
      type: audienceType.optional(),
      area: area.default('french'),
      isInCatalog: z.boolean().default(false),
      relationships: relationshipsField.default([]),
    }),
    response: audienceSchema,
    successStatus: 201,
  }),
  'audiences.update': defineOperation({
    method: 'PUT',
    path: '/audience/:id',
    summary: 'Rename, retype, change the area (replaces the Area relationship) or the catalogue flag',
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({
      /** Empty: refused by the handler in French at the field ('Nom de l'audience : champ obligatoire'). */
      name: shortText(200).optional(),
      type: audienceType.nullish(),
      area: area.optional(),
      isInCatalog: z.boolean().optional(),
      ...basedOnVersion,
    }),
    response: audienceSchema,
  }),
  'audiences.duplicate': defineOperation({
    method: 'POST',
    path: '/audience/:id/duplicate',
    summary: 'Copy an audience with its relationships',
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    response: audienceSchema,
    successStatus: 201,
  }),
  'audiences.delete': defineOperation({
    method: 'DELETE',
    path: '/audience/:id/del',
    summary: 'Delete an audience',
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    query: versionQuery,
    response: okSchema,
  }),
  'audiences.bulkDelete': defineOperation({
    method: 'DELETE',
    path: '/audiences/del',
    summary: 'Delete several audiences',
    access: audienceWriters,
    body: z.strictObject({ ids: z.array(id).min(1).max(1000) }),
    response: z.object({ deleted: z.number().int() }),
  }),
  'audiences.setRelationships': defineOperation({
    method: 'PUT',
    path: '/audience/:id/relationships',
    summary: "Replace an audience's whole set of relationships at once",
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ relationships: relationshipsField, ...basedOnVersion }),
    response: audienceSchema,
  }),
  'relationships.create': defineOperation({
    method: 'POST',
    path: '/v2/relationship',
    summary: 'Add one relationship from an audience or a group to a node',
    access: audienceWriters,
    body: relationshipInputSchema.extend({ source: id }),
    response: relationshipSchema,
    successStatus: 201,
  }),
  'graph.delete': defineOperation({
    method: 'DELETE',
    path: '/delete',
    summary: 'Delete group nodes (with their relationships) and relationships given by source and target',
    access: audienceWriters,
    body: z.strictObject({
      nodes: z.array(id).max(1000).default([]),
      relationships: z
        .array(z.strictObject({ source: id, target: id }))
        .max(5000)
        .default([]),
    }),
    response: z.object({ nodes: z.number().int(), relationships: z.number().int() }),
  }),
  'graph.detach': defineOperation({
    method: 'DELETE',
    path: '/detach',
    summary: 'Remove relationships given by source and target; listed nodes are unlinked from every audience and group',
    access: audienceWriters,
    body: z.strictObject({
      nodes: z.array(id).max(1000).default([]),
      relationships: z
        .array(z.strictObject({ source: id, target: id }))
        .max(5000)
        .default([]),
    }),
    response: z.object({ nodes: z.number().int(), relationships: z.number().int() }),
  }),
  'audiences.attachEmails': defineOperation({
    method: 'PUT',
    path: '/audience/:id/emails/attach',
    summary: 'Attach app users by e-mail as User relationships; says how many were added and which matched nobody',
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ emails: z.array(shortText(254).min(1)).min(1).max(10_000) }),
    response: z.object({ added: z.number().int(), unmatched: z.array(z.string()) }),
  }),
  'audiences.matchEmails': defineOperation({
    method: 'POST',
    path: '/audience/emails/match',
    summary: 'How many of these e-mails belong to an app user, and which matched nobody; changes nothing',
    access: audienceWriters,
    body: z.strictObject({ emails: z.array(shortText(254).min(1)).min(1).max(10_000) }),
    response: z.object({ known: z.number().int(), unmatched: z.array(z.string()) }),
  }),
  'audiences.search': defineOperation({
    method: 'GET',
    path: '/audiences/search',
    summary: 'Audiences by name for the advert editor (limit 120) and the article editor (25), optionally of one type',
    access: audienceSearchers,
    query: z.strictObject({ term: shortText(200).default(''), type: audienceType.optional(), limit: wholeNumber(1, 120).default(NODE_SEARCH_LIMIT) }),
    response: z.array(z.object({ id: z.number().int(), name: z.string(), type: audienceType.nullable(), area, roles: z.array(z.string()) })),
  }),
};

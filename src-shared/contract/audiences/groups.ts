import { z } from 'zod';
import { audienceWriters } from '../../access-rules';
import { AUDIENCE_PAGE_SIZE, GROUP_LABELS } from '../../rules/audiences';
import { defineOperation } from '../define';
import { basedOnVersion, idParam, okSchema, recordVersionSchema, shortText, wholeNumber } from '../entities';
import { id, nodeLabel, relationshipSchema, relationshipsField } from './shared';

/** Groups (OrGroup, AndGroup): named sets of nodes an audience refers to; written by the audience writers. */

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.enum(GROUP_LABELS),
  relationships: z.array(relationshipSchema),
  /** Labels of the group's members. */
  labels: z.array(nodeLabel),
  audiencesCount: z.number().int(),
  updatedAt: z.number().int(),
  version: recordVersionSchema.optional(),
});
export type Group = z.infer<typeof groupSchema>;

export const groupOperations = {
  'groups.create': defineOperation({
    method: 'POST',
    path: '/v2/group',
    summary: 'Create an OrGroup or AndGroup',
    access: audienceWriters,
    body: z.strictObject({
      name: shortText(200).min(1),
      label: z.enum(GROUP_LABELS).default('OrGroup'),
      relationships: relationshipsField.default([]),
    }),
    response: groupSchema,
    successStatus: 201,
  }),
  'groups.update': defineOperation({
    method: 'PUT',
    path: '/v2/group/:id',
    summary: 'Rename a group and/or replace its members (cycles refused)',
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ name: shortText(200).min(1).optional(), relationships: relationshipsField.optional(), ...basedOnVersion }),
    response: groupSchema,
  }),
  'groups.delete': defineOperation({
    method: 'DELETE',
    path: '/v2/group/:id',
    summary: 'Delete a group; its name is repeated as a confirmation',
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ name: shortText(200), ...basedOnVersion }),
    response: okSchema,
  }),
  'groups.get': defineOperation({
    method: 'GET',
    path: '/v2/group/:label/:id',
    summary: 'One group with its members',
    access: audienceWriters,
    params: z.strictObject({ label: z.enum(GROUP_LABELS), id: idParam }),
    response: groupSchema,
  }),
  'groups.list': defineOperation({
    method: 'GET',
    path: '/v2/groups',
    summary: 'Groups by name (the export asks for 10,000)',
    access: audienceWriters,
    query: z.strictObject({
      limit: wholeNumber(1, 10_000).default(AUDIENCE_PAGE_SIZE),
      skip: wholeNumber(0, 10_000_000).default(0),
      term: shortText(200).optional(),
    }),
    response: z.object({ items: z.array(groupSchema), total: z.number().int() }),
  }),
  'groups.duplicate': defineOperation({
    method: 'POST',
    path: '/group/:id/duplicate',
    summary: 'Copy a group with its members',
    access: audienceWriters,
    params: z.strictObject({ id: idParam }),
    response: groupSchema,
    successStatus: 201,
  }),
  'groups.attachDocuments': defineOperation({
    method: 'POST',
    path: '/v2/relationships/documents',
    summary: 'Attach documents to a group (members already there are kept once)',
    access: audienceWriters,
    body: z.strictObject({ groupId: id, documents: z.array(id).min(1).max(1000) }),
    response: groupSchema,
  }),
};

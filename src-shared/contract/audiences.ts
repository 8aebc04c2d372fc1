import { z } from 'zod';
import { AUDIENCE_MESSAGES } from '../messages/audiences';
import { VALIDATION_MESSAGES } from '../messages/validation';
import { access } from '../roles';
import {
  AREAS,
  AUDIENCE_PAGE_SIZE,
  AUDIENCE_TYPES,
  EVENTS,
  GROUP_LABELS,
  INGEST_EVENTS_MAX,
  INGEST_USERS_MAX,
  ITEM_EVENTS,
  NODE_LABELS,
  NODE_SEARCH_LIMIT,
  OPERATING_SYSTEMS,
  RELATIONSHIP_KINDS,
  RELATIONSHIP_TYPES,
  TITLES,
} from '../rules/audiences';
import { defineOperation } from './define';
import { basedOnVersion, emailField, idParam, okSchema, readShortText, recordVersionSchema, shortText, versionQuery, wholeNumber } from './entities';
import { appUserReaders, audienceReaders, audienceSearchers, audienceSizers, audienceWriters } from '../access-rules';

/** Who reads audiences (the Audiences menu, spec §6) and who writes them (CSM_LEAD and ADMIN only). */

const id = z.number().int().min(1).max(2_147_483_647);
const nodeLabel = z.enum(NODE_LABELS);
const area = z.enum(AREAS);
const audienceType = z.enum(AUDIENCE_TYPES);
const event = z.enum(EVENTS);
/** "a number typed as text" (spec §3): 3 or '3'; null or absent is 1. */
const caping = z
  .union([z.number(), z.string().regex(/^\d{1,6}$/, 'nombre entier attendu')])
  .transform(Number)
  .pipe(z.number().int().min(1).max(1_000_000));

// ---- nodes and relationships ---------------------------------------------------------------------------------

export const nodeSchema = z.object({ id: z.number().int(), label: nodeLabel, name: z.string() });
export type AudienceNode = z.infer<typeof nodeSchema>;

/** A relationship as the editor sends it: to a node, with its type, kind ('req' is 'required'), event and caping. */
export const relationshipInputSchema = z.strictObject({
  node: z.strictObject({ label: nodeLabel, id }),
  type: z.enum(RELATIONSHIP_TYPES).default('AND'),
  kind: z
    .enum(RELATIONSHIP_KINDS)
    .default('required')
    .transform((kind) => (kind === 'req' ? 'required' : kind)),
  /** Absent or null: Auto, any event of the node. */
  event: event.nullish(),
  caping: caping.nullish(),
});
export type RelationshipInput = z.output<typeof relationshipInputSchema>;

export const relationshipSchema = z.object({
  id: z.number().int(),
  /** The audience or group the relationship belongs to. */
  source: z.number().int(),
  target: z.number().int(),
  node: nodeSchema,
  type: z.enum(RELATIONSHIP_TYPES),
  kind: z.enum(['required', 'not']),
  event: event.nullable(),
  /** Spec §3: a number typed as text; null is 1. */
  caping: z.string().nullable(),
  /** The event again, under the name the wire uses (spec §3 "on the wire action"). */
  action: event.nullable(),
});
export type Relationship = z.infer<typeof relationshipSchema>;

const relationshipsField = z.array(relationshipInputSchema).max(5_000);

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

export const sizeSchema = z.object({
  size: z.number().int(),
  labels: z.array(z.object({ label: nodeLabel, size: z.number().int() })),
});

export const appUserResultSchema = z.object({ id: z.number().int(), email: z.string(), name: z.string(), relsCount: z.number().int() });

// ---- population ingestion -------------------------------------------------------------------------------------

const attributeText = shortText(200);

/** First and last instants the feed may send: PostgreSQL has no year 0, and nobody joined or acted before 1970. */
const INSTANT_MIN_MS = Date.UTC(1970, 0, 1);
const INSTANT_MAX_MS = Date.UTC(2100, 0, 1);
/** An ISO 8601 instant with its offset, from 1970 to 2100 (year 0 or 9999 answered a 500). */
const instantField = z.iso.datetime({ offset: true }).refine((text) => {
  const ms = Date.parse(text);
  return ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS;
}, VALIDATION_MESSAGES.dateRange);

export const populationUserSchema = z.strictObject({
  externalId: shortText(200).min(1),
  email: z.union([emailField, z.literal('')]).default(''),
  name: shortText(200).default(''),
  professionId: z.number().int().min(1).max(100_000).optional(),
  specialtyId: z.number().int().min(1).max(100_000).optional(),
  title: z.enum(TITLES).optional(),
  area: area.optional(),
  countryId: z.number().int().min(1).max(100_000).optional(),
  zipcode: shortText(20).optional(),
  uga: attributeText.optional(),
  workplace: attributeText.optional(),
  roles: z.array(shortText(60).min(1)).max(20).default([]),
  feeds: z.array(attributeText.min(1)).max(200).default([]),
  apps: z.array(attributeText.min(1)).max(200).default([]),
  os: z.enum(OPERATING_SYSTEMS).optional(),
  createdAt: instantField.optional(),
  /**
   * The user's push tokens (docs/push.md), replacing those known; absent: unchanged. A token moves to the user who
   * sends it last (one device, one user).
   */
  pushTokens: z
    .array(z.strictObject({ platform: z.enum(OPERATING_SYSTEMS), token: shortText(4096).min(1) }))
    .max(20)
    .optional(),
});
export type PopulationUser = z.output<typeof populationUserSchema>;

const EVENT_ID_MAX = 200;
const NODE_NAME_MAX = 300;
const eventAt = instantField;
export const populationEventSchema = z
  .strictObject({
    eventId: shortText(EVENT_ID_MAX).min(1),
    userExternalId: shortText(EVENT_ID_MAX).min(1),
    event,
    node: z.strictObject({ label: z.enum(['Advert', 'Document', 'Keyword']), name: shortText(NODE_NAME_MAX).min(1) }),
    at: eventAt,
  })
  .refine((row) => (ITEM_EVENTS[row.node.label] as readonly string[]).includes(row.event), {
    message: AUDIENCE_MESSAGES.eventNotForLabel,
    path: ['event'],
  });
export type PopulationEvent = z.output<typeof populationEventSchema>;

const populationEventsBody = z.array(populationEventSchema).min(1).max(INGEST_EVENTS_MAX);

/**
 * populationEventsBody read by hand (Operation.fastBody): zod's generic reading of 50,000 rows costs about as much
 * as writing them.
 * Same answer as the schema (trimmed texts, keys in its order) for a plainly valid body, else undefined.
 */
export function readPopulationEvents(body: unknown): PopulationEvent[] | undefined {
  if (!Array.isArray(body) || body.length < 1 || body.length > INGEST_EVENTS_MAX) return undefined;
  const events: PopulationEvent[] = new Array(body.length);
  // Timestamps repeat within a batch: each distinct one goes through the schema's own check once.
  const validAt = new Map<string, boolean>();
  for (let index = 0; index < body.length; index += 1) {
    const row: unknown = body[index];
    if (typeof row !== 'object' || row === null || Array.isArray(row) || Object.keys(row).length !== 5) return undefined;
    const { eventId, userExternalId, event, node, at } = row as Record<string, unknown>;
    if (typeof node !== 'object' || node === null || Array.isArray(node) || Object.keys(node).length !== 2) return undefined;
    const { label, name } = node as Record<string, unknown>;
    if (typeof label !== 'string' || !Object.hasOwn(ITEM_EVENTS, label)) return undefined;
    if (typeof event !== 'string' || !(ITEM_EVENTS[label as keyof typeof ITEM_EVENTS] as readonly string[]).includes(event)) return undefined;
    if (typeof at !== 'string') return undefined;
    let atIsValid = validAt.get(at);
    if (atIsValid === undefined) validAt.set(at, (atIsValid = eventAt.safeParse(at).success));
    if (!atIsValid) return undefined;
    const readEventId = readShortText(eventId, EVENT_ID_MAX);
    const readUser = readShortText(userExternalId, EVENT_ID_MAX);
    const readName = readShortText(name, NODE_NAME_MAX);
    if (readEventId === undefined || readUser === undefined || readName === undefined) return undefined;
    // A row already as the schema would answer it is kept (no second copy of 50,000 objects); else the trimmed copy.
    const plain = Object.getPrototypeOf(row) === Object.prototype && Object.getPrototypeOf(node) === Object.prototype;
    events[index] =
      plain && readEventId === eventId && readUser === userExternalId && readName === name
        ? (row as PopulationEvent)
        : {
            eventId: readEventId,
            userExternalId: readUser,
            event: event as PopulationEvent['event'],
            node: { label: label as PopulationEvent['node']['label'], name: readName },
            at,
          };
  }
  return events;
}

/** Bodies of up to 50,000 events (about 8 MB of JSON). */
const INGEST_BODY_LIMIT = 16 * 1024 * 1024;

export const audienceOperations = {
  'population.users': defineOperation({
    method: 'POST',
    path: '/population/users',
    summary: 'Upsert app users by externalId (at most 10,000); a bad row refuses the whole request',
    access: access.anyOf('ADMIN'),
    serviceToken: 'ingest',
    bodyLimit: INGEST_BODY_LIMIT,
    body: z.array(populationUserSchema).min(1).max(INGEST_USERS_MAX),
    response: z.object({ inserted: z.number().int(), updated: z.number().int() }),
  }),
  'population.events': defineOperation({
    method: 'POST',
    path: '/population/events',
    summary: 'Add interaction events, idempotent by eventId (at most 50,000); unknown items create their node',
    access: access.anyOf('ADMIN'),
    serviceToken: 'ingest',
    bodyLimit: INGEST_BODY_LIMIT,
    body: populationEventsBody,
    fastBody: readPopulationEvents,
    response: z.object({ inserted: z.number().int(), duplicates: z.number().int() }),
  }),

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
  'audiences.debug': defineOperation({
    method: 'GET',
    path: '/debug/audience/:userId',
    summary: 'The audiences an app user belongs to; adverts stays empty until adverts exist',
    access: appUserReaders,
    params: z.strictObject({ userId: idParam }),
    response: z.object({
      audiences: z.array(z.object({ id: z.number().int(), name: z.string() })),
      adverts: z.array(z.object({ id: z.number().int(), name: z.string() })),
    }),
  }),

  'appUsers.byEmail': defineOperation({
    method: 'GET',
    path: '/users',
    summary: 'App users whose e-mail starts with the term (case-insensitive), at most 25',
    access: access.anyOf('CSM_LEAD'),
    query: z.strictObject({ email: shortText(254).min(1) }),
    response: z.array(appUserResultSchema),
  }),
  'appUsers.search': defineOperation({
    method: 'POST',
    path: '/search/users',
    summary: 'App user search by e-mail prefix for the live tester and test accounts, at most 25',
    access: access.anyOf('CSM_LEAD'),
    body: z.strictObject({ term: shortText(254).min(1), limit: z.number().int().min(1).max(NODE_SEARCH_LIMIT).default(NODE_SEARCH_LIMIT) }),
    response: z.array(appUserResultSchema),
  }),
  'appUsers.reset': defineOperation({
    method: 'PUT',
    path: '/user/:userId/reset',
    summary: "Delete an app user's interactions, keep the user (test accounts: CSM and CSM_LEAD)",
    access: access.allOf('CSM', 'CSM_LEAD'),
    params: z.strictObject({ userId: idParam }),
    response: z.object({ id: z.number().int(), relsCount: z.number().int() }),
  }),

  'nodes.search': defineOperation({
    method: 'GET',
    path: '/search',
    summary: 'Criteria search (spec §5 filters; items already attached to `audienceId` or `groupId` left out)',
    access: access.anyOf('CSM_LEAD'),
    query: z.strictObject({
      term: shortText(200).min(1),
      limit: wholeNumber(1, 100).default(NODE_SEARCH_LIMIT),
      isGroup: z.enum(['true', 'false']).default('false'),
      label: nodeLabel.optional(),
      audienceId: idParam.optional(),
      groupId: idParam.optional(),
    }),
    response: z.array(nodeSchema),
  }),

  'nodes.keyword': defineOperation({
    method: 'POST',
    path: '/keyword',
    summary: "The Keyword node of a text, created when no search made it yet (the editor's new keyword modal); trimmed and lowercased",
    access: access.anyOf('CSM_LEAD'),
    body: z.strictObject({
      name: shortText(200)
        .transform((text) => text.trim().toLowerCase())
        .pipe(z.string().min(1)),
    }),
    response: nodeSchema,
  }),

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

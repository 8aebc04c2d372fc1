import { z } from 'zod';
import { AUDIENCE_MESSAGES } from '../../messages/audiences';
import { VALIDATION_MESSAGES } from '../../messages/validation';
import { access } from '../../roles';
import { INGEST_EVENTS_MAX, INGEST_USERS_MAX, ITEM_EVENTS, OPERATING_SYSTEMS, TITLES } from '../../rules/audiences';
import { defineOperation } from '../define';
import { emailField, readShortText, shortText } from '../entities';
import { area, event } from './shared';

/** Population ingestion (docs/audiences.md): the feed upserts app users and adds their interaction events. */

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

export const populationOperations = {
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
};

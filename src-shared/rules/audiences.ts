/**
 * Vocabulary of audiences shared by the contract, the server's engine and the screens (spec audiences §3, docs/audiences.md).
 * Free of zod so that screens may import it.
 */

export const NODE_LABELS = [
  'Profession',
  'Specialty',
  'Feed',
  'Role',
  'Title',
  'App',
  'Document',
  'Keyword',
  'Advert',
  'Area',
  'Country',
  'Zip',
  'Zipcode',
  'Uga',
  'Workplace',
  'User',
  'OrGroup',
  'AndGroup',
] as const;
export type NodeLabel = (typeof NODE_LABELS)[number];

export const GROUP_LABELS = ['OrGroup', 'AndGroup'] as const;
export type GroupLabel = (typeof GROUP_LABELS)[number];

/** Labels matched against an attribute of the app user. */
export const ATTRIBUTE_LABELS = [
  'Profession',
  'Specialty',
  'Title',
  'Area',
  'Country',
  'Zip',
  'Zipcode',
  'Uga',
  'Workplace',
  'Role',
  'Feed',
  'App',
] as const;

/** Items that receive interaction events, with the events each may receive (spec §3 Node "relation actions"). */
export const ITEM_EVENTS = {
  Advert: ['advert.view', 'advert.click', 'quiz.view', 'quiz.answered'],
  Document: ['document.view'],
  Keyword: ['search'],
} as const;
export const EVENTS = ['advert.view', 'advert.click', 'quiz.view', 'quiz.answered', 'document.view', 'search'] as const;
export type InteractionEvent = (typeof EVENTS)[number];

export const AREAS = ['french', 'english', 'spanish', 'italian', 'german'] as const;
export type Area = (typeof AREAS)[number];
export const AUDIENCE_TYPES = ['timeline', 'search', 'story', 'notification', 'banner', 'tool'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];
export const TITLES = ['DOCTOR', 'STUDENT', 'PROFESSIONAL'] as const;
export const OPERATING_SYSTEMS = ['iOS', 'Android'] as const;
export const RELATIONSHIP_TYPES = ['AND', 'SEARCH', 'SHOULD_TARGET'] as const;
/** 'req' is the spec's short spelling of 'required' (spec §3 Relationship); stored as 'required'. */
export const RELATIONSHIP_KINDS = ['required', 'req', 'not'] as const;

export const EXPERT_ROLE = 'ROLE_EXPERT';

/** Node search and user search answer at most this many (spec §9). */
export const NODE_SEARCH_LIMIT = 25;
export const AUDIENCE_PAGE_SIZE = 25;
export const INGEST_USERS_MAX = 10_000;
export const INGEST_EVENTS_MAX = 50_000;

export function isGroupLabel(label: string): label is GroupLabel {
  return label === 'OrGroup' || label === 'AndGroup';
}

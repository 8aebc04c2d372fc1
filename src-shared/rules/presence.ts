import type { JobEvent } from '../jobs';

/**
 * Presence (docs/architecture.md, "Versions and conflicts"): who else has a record open in an editor. Carried by
 * the job-events stream (kind PRESENCE_JOB_KIND); nothing is stored.
 */
export const PRESENCE_JOB_KIND = 'presence';
/** The records an editor announces, with the contract operation whose access says who may edit them. */
export const PRESENCE_RECORDS = ['advert', 'article', 'audience', 'group', 'project', 'bat'] as const;
export type PresenceRecord = (typeof PRESENCE_RECORDS)[number];
export const PRESENCE_EDIT_OPERATION = {
  advert: 'adverts.update',
  article: 'articles.update',
  audience: 'audiences.update',
  group: 'groups.update',
  project: 'projects.update',
  bat: 'bat.save',
} as const satisfies Record<PresenceRecord, string>;
/** The operation whose access says who may read the record: anyone else is told it does not exist (404). */
export const PRESENCE_READ_OPERATION = {
  advert: 'adverts.get',
  article: 'articles.get',
  audience: 'audiences.get',
  group: 'groups.get',
  project: 'projects.get',
  bat: 'bat.fetch',
} as const satisfies Record<PresenceRecord, string>;
/** One announce per account, record and state this often; another within it is refused (429, docs/security.md). */
export const PRESENCE_MIN_INTERVAL_MS = 3_000;

/** An open editor says so again this often; someone silent for PRESENCE_EXPIRY_MS has left (a crash, a lost network). */
export const PRESENCE_HEARTBEAT_MS = 20_000;
export const PRESENCE_EXPIRY_MS = 50_000;

/** The job event's id of a record's presence. */
export const presenceEventId = (record: PresenceRecord, id: number) => `${record}:${id}`;

/** One other person's presence as the event carries it: who, whether they just opened it, whether they left. */
export interface PresenceSignal {
  accountId: number;
  name: string;
  joined: boolean;
  left: boolean;
  at: number;
}

export function presenceSignal(event: JobEvent): PresenceSignal | null {
  const accountId = event.progress.accountId;
  if (event.kind !== PRESENCE_JOB_KIND || !Number.isInteger(accountId) || !event.message) return null;
  return { accountId, name: event.message, joined: event.progress.joined === 1, left: event.state === 'done', at: event.at };
}

/** Others with the record open, by account, after `signal` (seen `now`); the caller's own account is never one. */
export function nextPresence(
  others: ReadonlyMap<number, { name: string; seenAt: number }>,
  signal: PresenceSignal,
  self: number,
  now: number,
): Map<number, { name: string; seenAt: number }> {
  const next = new Map(others);
  if (signal.accountId === self) return next;
  if (signal.left) next.delete(signal.accountId);
  else next.set(signal.accountId, { name: signal.name, seenAt: now });
  return next;
}

/** Those still present at `now`: heard from within PRESENCE_EXPIRY_MS. */
export function presentAt(others: ReadonlyMap<number, { name: string; seenAt: number }>, now: number): string[] {
  return [...others.values()].filter((other) => now - other.seenAt < PRESENCE_EXPIRY_MS).map((other) => other.name);
}

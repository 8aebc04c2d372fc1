import { filterParams, parseFilter, type FilterNode, type FilterValue } from './filter-language';
import { excludes, visitFilter } from './filter-visit';

/**
 * Push campaigns (platform.md §3 Push notification, §4 Push sending, §5 Push targeting, §9 push constants; docs/push.md):
 * the pure rules shared by the page and the server.
 */

/** §9: batch size 1000, pause between batches 1.8 s, default customId 'custom01', default area french. */
export const PUSH_BATCH_SIZE = 1000;
export const PUSH_PAUSE_MS = 1800;
export const DEFAULT_CUSTOM_ID = 'custom01';
export const DEFAULT_AREA = 'french';
/** The page asks for a confirmation before sending to more users than this (docs/push.md). */
export const PUSH_CONFIRM_ABOVE = 10_000;
export const EXPERT_CHOICES = ['all', 'experts', 'not-experts'] as const;
export type ExpertChoice = (typeof EXPERT_CHOICES)[number];
export const EXPERT_ROLE = 'ROLE_EXPERT';
export const PUSH_CAMPAIGN_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type PushCampaignState = (typeof PUSH_CAMPAIGN_STATES)[number];
/** The job kind of push campaigns' events (src-shared/jobs.ts). */
export const PUSH_JOB_KIND = 'push-campaign';
export const PUSH_TITLE_MAX = 200;
export const PUSH_BODY_MAX = 1000;
export const PUSH_CLAUSE_MAX = 2000;

/** §4: 0 if the count is 0, 1 if at most the batch size, else the count divided by the batch size rounded up. */
export function pushIterations(count: number, batchSize = PUSH_BATCH_SIZE): number {
  if (count <= 0) return 0;
  if (count <= batchSize) return 1;
  return Math.ceil(count / batchSize);
}

/**
 * A batch whose sending fails (the provider throws: quota, outage) is tried again after a growing pause, at most
 * PUSH_MAX_ATTEMPTS times in a row; then the campaign stops in the 'failed' state, its error kept for the history.
 */
export const PUSH_MAX_ATTEMPTS = 5;
export const PUSH_RETRY_BASE_MS = 5_000;

/** The pause after the n-th failed attempt (1-based) of a batch: 5 s, 10 s, 20 s, 40 s. */
export const pushRetryDelay = (attempt: number): number => PUSH_RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1);

/** The longest wait a provider's Retry-After may impose on a batch; a longer one is read as this. */
export const PUSH_RETRY_AFTER_MAX_MS = 60 * 60 * 1000;

/** The pause after a failed attempt when the provider said how long to wait (FCM's Retry-After): never less. */
export const pushRetryDelayAfter = (attempt: number, providerWaitMs: number | undefined): number =>
  Math.max(pushRetryDelay(attempt), Math.min(providerWaitMs ?? 0, PUSH_RETRY_AFTER_MAX_MS));

/** A campaign is still sending (the page keeps Send disabled and follows its progress). */
export const isSending = (state: PushCampaignState): boolean => state === 'queued' || state === 'running';

/**
 * The fields of the population the security clause may name, and the index label each one reads (the audience
 * engine's attribute bitmaps; `os` and the push token are the push feature's own).
 */
export const POPULATION_FIELDS = {
  profession: 'Profession',
  specialty: 'Specialty',
  title: 'Title',
  area: 'Area',
  country: 'Country',
  zipcode: 'Zipcode',
  zip: 'Zip',
  uga: 'Uga',
  workplace: 'Workplace',
  role: 'Role',
  feed: 'Feed',
  app: 'App',
  os: 'Os',
} as const;
export type PopulationField = keyof typeof POPULATION_FIELDS;
export const POPULATION_FIELD_NAMES = Object.keys(POPULATION_FIELDS) as PopulationField[];
/** The index label of the users holding at least one push token. */
export const PUSH_TOKEN_LABEL = 'PushToken';

/** Criteria over the population, answered by the audience engine's index (set operations on bitmaps). */
export type PopulationCriteria =
  | { kind: 'everyone' }
  | { kind: 'is'; label: string; value: string }
  | { kind: 'all' | 'any'; of: PopulationCriteria[] }
  | { kind: 'not'; of: PopulationCriteria };

/** The targeting `where` of a push (§3). */
export interface PushWhere {
  area: string;
  professions: readonly number[];
  specialties: readonly (number | string)[];
  titles: readonly string[];
  os: readonly string[];
  expert: ExpertChoice;
  clause?: string;
}

const isList = (label: string, values: readonly (number | string)[]): PopulationCriteria => ({
  kind: 'any',
  of: values.map((value) => ({ kind: 'is', label, value: String(value) })),
});

/** §5: specialties, titles and os are skipped when their first entry is empty. */
const skipped = (values: readonly (number | string)[]) => values.length === 0 || values[0] === '' || values[0] === null;

/**
 * §5 Push targeting → criteria: area (required), professions, specialties, titles and os as 'in' lists, the expert
 * choice on ROLE_EXPERT, the clause (already parsed) appended with AND, and only users with a push token. An empty
 * professions list does not filter (the page always sends the professions it shows as chosen).
 */
export function targetingCriteria(where: PushWhere, clause: PopulationCriteria | null = null): PopulationCriteria {
  const parts: PopulationCriteria[] = [
    { kind: 'is', label: PUSH_TOKEN_LABEL, value: 'any' },
    { kind: 'is', label: 'Area', value: where.area },
  ];
  if (where.professions.length) parts.push(isList('Profession', where.professions));
  if (!skipped(where.specialties)) parts.push(isList('Specialty', where.specialties));
  if (!skipped(where.titles)) parts.push(isList('Title', where.titles));
  if (!skipped(where.os)) parts.push(isList('Os', where.os));
  const expert: PopulationCriteria = { kind: 'is', label: 'Role', value: EXPERT_ROLE };
  if (where.expert === 'experts') parts.push(expert);
  if (where.expert === 'not-experts') parts.push({ kind: 'not', of: expert });
  if (clause) parts.push(clause);
  return { kind: 'all', of: parts };
}

/**
 * The parsed security clause → criteria. `field = v` is the users whose field holds v (for list fields — role,
 * feed, app — one of their values); `!=` and `not in` are everyone else. Values stay values: nothing is ever SQL.
 */
export function clauseCriteria(node: FilterNode): PopulationCriteria {
  return visitFilter<PopulationCriteria>(node, {
    condition: (leaf, negated) => {
      const label = POPULATION_FIELDS[leaf.field as PopulationField];
      const matched: PopulationCriteria =
        leaf.kind === 'compare' ? { kind: 'is', label, value: valueOf(leaf.value) } : isList(label, leaf.values.map(valueOf));
      return excludes(leaf, negated) ? { kind: 'not', of: matched } : matched;
    },
    combine: (operands, conjunction) => ({ kind: conjunction ? 'all' : 'any', of: [...operands] }),
  });
}

const valueOf = (value: FilterValue): string => (value.kind === 'literal' ? String(value.value) : `:${value.name}`);

/**
 * The security clause's text → criteria, or its French message with the position of the mistake (the field shows
 * it). Named parameters have no value on this page: one is refused like a mistake.
 */
export function parseClause(text: string): { ok: true; criteria: PopulationCriteria | null } | { ok: false; message: string; position: number } {
  const parsed = parseFilter(text, POPULATION_FIELD_NAMES);
  if (!parsed.ok) return parsed;
  const [param] = filterParams(parsed.node);
  if (param !== undefined) {
    const position = text.indexOf(`:${param}`) + 1;
    return { ok: false, message: `Erreur à la position ${position} : paramètre « :${param} » sans valeur sur cette page.`, position };
  }
  return { ok: true, criteria: parsed.node ? clauseCriteria(parsed.node) : null };
}

/** A one-line summary of a targeting for the history (area, lists, experts, clause). */
export function targetingSummary(
  where: PushWhere,
  names: { professions?: ReadonlyMap<number, string>; specialties?: ReadonlyMap<number, string> } = {},
): string {
  const parts = [where.area];
  if (where.professions.length) parts.push(where.professions.map((id) => names.professions?.get(id) ?? String(id)).join(', '));
  if (!skipped(where.specialties)) parts.push(where.specialties.map((id) => names.specialties?.get(Number(id)) ?? String(id)).join(', '));
  if (!skipped(where.titles)) parts.push(where.titles.join(', '));
  if (!skipped(where.os)) parts.push(where.os.join(', '));
  if (where.expert !== 'all') parts.push(where.expert);
  if (where.clause?.trim()) parts.push(where.clause.trim());
  return parts.join(' · ');
}

/** Duration of a campaign for the history, e.g. '1 min 05 s' or '12 s'. */
export function campaignDuration(startedAt: number | null, finishedAt: number | null): string {
  if (startedAt === null || finishedAt === null) return '';
  const seconds = Math.max(0, Math.round((finishedAt - startedAt) / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes ? `${minutes} min ${String(seconds % 60).padStart(2, '0')} s` : `${seconds} s`;
}

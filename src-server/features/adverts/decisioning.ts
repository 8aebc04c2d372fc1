import { sql } from 'drizzle-orm';
import type { Decision, ServedAdvert } from '@shared/contract/decisioning';
import { MESSAGES } from '@shared/messages';
import { epochSeconds } from '@shared/rules/advert-model';
import type { ServerContext } from '../../context';
import type { AudienceMembership } from '../../feature-services';
import { HttpError } from '../../errors';
import { funnelPredecessors } from './funnels';
import { rows, type Executor } from './store';
import { foldForSearch } from '@shared/rules/fold';

/**
 * Advert decisioning (docs/content.md): what the mobile app would be served to one app user. Membership and keyword
 * triggers come from the audience engine (in memory); the candidates from an in-memory copy of the published
 * adverts by audience, kept current through the content version; views and funnel progress from the user's own
 * advert events (recorded through population ingestion: node label Advert, node name the advert id).
 */

/** A published advert as decisioning keeps it in memory: what filtering needs and what is served. */
interface CachedAdvert {
  id: number;
  type: string | null;
  name: string;
  weight: number;
  maxViews: number;
  autoStartAt: number | null;
  autoStopAt: number | null;
  resetAt: number | null;
  tabs: string[];
  audiences: number[];
  data: Record<string, unknown>;
}

interface Snapshot {
  version: number;
  byAudience: Map<number, CachedAdvert[]>;
  predecessors: Map<number, { previous: number; minViews: number; gracePeriodMs: number }>;
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** The published adverts by audience and the funnels' steps, read in one snapshot of the database. */
async function loadPublished(db: ServerContext['db']): Promise<Snapshot> {
  return db.transaction(
    async (tx) => {
      const [current] = await rows<{ version: string | number }>(tx, sql`SELECT version FROM content_versions WHERE name = 'adverts'`);
      const found = await rows<{
        id: number;
        type: string | null;
        name: string;
        weight: number;
        maxViews: number;
        autoStartAt: string | number | null;
        autoStopAt: string | number | null;
        data: Record<string, unknown>;
        audiences: number[];
      }>(
        tx,
        sql`SELECT i.id, i.type, i.name, i.weight, i.max_views AS "maxViews", i.auto_start_at AS "autoStartAt", i.auto_stop_at AS "autoStopAt", i.data,
              array_agg(l.audience_id ORDER BY l.audience_id) AS audiences
            FROM adverts i JOIN advert_audiences l ON l.advert_id = i.id
            WHERE i.published AND NOT i.archived GROUP BY i.id`,
      );
      const byAudience = new Map<number, CachedAdvert[]>();
      for (const row of found) {
        const story = row.data.story as { resetAt?: number | null } | null | undefined;
        const search = row.data.search as { tabs?: string[] } | undefined;
        const advert: CachedAdvert = {
          id: row.id,
          type: row.type,
          name: row.name,
          weight: row.weight,
          maxViews: row.maxViews,
          autoStartAt: num(row.autoStartAt),
          autoStopAt: num(row.autoStopAt),
          resetAt: num(story?.resetAt),
          tabs: Array.isArray(search?.tabs) ? search!.tabs : [],
          audiences: row.audiences,
          data: row.data,
        };
        for (const audienceId of row.audiences) {
          const list = byAudience.get(audienceId) ?? [];
          list.push(advert);
          byAudience.set(audienceId, list);
        }
      }
      return { version: Number(current?.version ?? 0), byAudience, predecessors: await funnelPredecessors(tx) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * What one request reads, in one round trip: the content version, whether the app user exists (404 otherwise),
 * and the user's advert.view events, oldest first, per advert.
 */
async function requestState(db: Executor, userId: number): Promise<{ version: number; views: Map<number, number[]> }> {
  const [state] = await rows<{ version: string | number | null; userExists: boolean; views: [string, number][] | string }>(
    db,
    sql`SELECT (SELECT version FROM content_versions WHERE name = 'adverts') AS version,
          EXISTS (SELECT 1 FROM app_users WHERE id = ${userId}) AS "userExists",
          coalesce((SELECT json_agg(json_build_array(n.value, floor(extract(epoch FROM e.at) * 1000)) ORDER BY e.at, e.event_id)
                    FROM interaction_events e JOIN nodes n ON n.id = e.node_id
                    WHERE e.user_id = ${userId} AND e.event = 'advert.view' AND n.label = 'Advert'), '[]'::json) AS views`,
  );
  if (!state.userExists) throw new HttpError(404, MESSAGES.appUserNotFound);
  const views = new Map<number, number[]>();
  for (const [advertId, at] of typeof state.views === 'string' ? (JSON.parse(state.views) as [string, number][]) : state.views) {
    const id = Number(advertId);
    if (!Number.isInteger(id)) continue;
    const list = views.get(id) ?? [];
    list.push(Number(at));
    views.set(id, list);
  }
  return { version: Number(state.version ?? 0), views };
}

/** Decisioning over the audience engine's membership answers (the audiences feature provides them). */
export function decisioningService(context: ServerContext, engine: AudienceMembership) {
  const { db } = context;
  let snapshot: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  const membership = () => engine;

  /**
   * The published adverts by audience, reloaded when the content version moved (every advert, attachment and
   * funnel write bumps it in its transaction, on any instance): one primary-key read per request instead of a
   * join over thousands of published adverts.
   */
  async function published(version: number): Promise<Snapshot> {
    if (snapshot && snapshot.version === version) return snapshot;
    loading ??= loadPublished(db)
      .then((fresh) => (snapshot = fresh))
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  /** Whether one of the audience's Keyword triggers equals one of the (folded) keywords. */
  function triggers(audienceId: number, keywords: Set<string>): boolean {
    const definition = membership().audience(audienceId);
    return !!definition?.criteria.some((criterion) => criterion.label === 'Keyword' && keywords.has(fold(criterion.value)));
  }

  async function decide(
    state: { version: number; views: Map<number, number[]> },
    options: { types: string[]; limit: number; audienceIds: number[] | null; keywords?: Set<string>; tab?: string },
  ): Promise<ServedAdvert[]> {
    const now = context.clock.now().getTime();
    const nowSeconds = epochSeconds(now);
    const { byAudience, predecessors } = await published(state.version);
    const { views } = state;
    const types = new Set(options.types);
    const eligible = new Map<number, { advert: CachedAdvert; audienceId: number }>();
    const consider = (advert: CachedAdvert, audienceId: number) => {
      if (!types.has(advert.type ?? '')) return;
      if (advert.autoStartAt !== null && advert.autoStartAt > nowSeconds) return;
      if (advert.autoStopAt !== null && advert.autoStopAt <= nowSeconds) return;
      if (options.tab && advert.tabs.length && !advert.tabs.includes(options.tab) && !advert.tabs.includes('all')) return;
      if (options.keywords && !triggers(audienceId, options.keywords)) return;
      const known = eligible.get(advert.id);
      if (!known || audienceId < known.audienceId) eligible.set(advert.id, { advert, audienceId });
    };
    if (options.audienceIds) {
      for (const audienceId of options.audienceIds) for (const advert of byAudience.get(audienceId) ?? []) consider(advert, audienceId);
    } else {
      for (const [audienceId, adverts] of byAudience) for (const advert of adverts) consider(advert, audienceId);
    }
    if (!eligible.size) return [];
    const ordered = [...eligible.values()].sort((a, b) => b.advert.weight - a.advert.weight || a.advert.id - b.advert.id);
    const served: ServedAdvert[] = [];
    for (const { advert, audienceId } of ordered) {
      const all = views.get(advert.id) ?? [];
      // A story whose expiration was reset shows again: views before the reset no longer count.
      const count = advert.resetAt ? all.filter((at) => at >= advert.resetAt! * 1000).length : all.length;
      if (count >= advert.maxViews) continue;
      const step = predecessors.get(advert.id);
      if (step) {
        // The next advert of a funnel: only after minViews of the previous one, and its grace period after them.
        const previous = views.get(step.previous) ?? [];
        if (previous.length < step.minViews) continue;
        const reachedAt = step.minViews > 0 ? previous[step.minViews - 1] : Number.NEGATIVE_INFINITY;
        if (reachedAt + step.gracePeriodMs > now) continue;
      }
      served.push(toServed(advert, audienceId, count));
      if (served.length >= options.limit) break;
    }
    return served;
  }

  const service = {
    /** POST /v2/advert: adverts of the given types for the user. */
    async adverts(body: { userId: number; types: string[] }): Promise<Decision> {
      const state = await requestState(db, body.userId);
      const audiences = membership().audiencesOf(body.userId);
      const adverts = await decide(state, { types: body.types, limit: 50, audienceIds: audiences.map((audience) => audience.id) });
      return { audiences, adverts };
    },

    /**
     * POST /advert (type search): search adverts whose audience has a Keyword trigger equal to one of the keywords
     * (accents and case folded). withAudience false drops the membership condition (the trigger still applies).
     */
    async search(body: { userId: number; keywords: string[]; tab?: string; limit: number; withAudience: boolean }): Promise<Decision> {
      const state = await requestState(db, body.userId);
      const audiences = membership().audiencesOf(body.userId);
      const keywords = new Set(body.keywords.map(fold).filter(Boolean));
      if (!keywords.size) return { audiences, adverts: [] };
      const adverts = await decide(state, {
        types: ['search'],
        limit: body.limit,
        audienceIds: body.withAudience ? audiences.map((audience) => audience.id) : null,
        keywords,
        tab: body.tab,
      });
      return { audiences, adverts };
    },

    /** For the audience debug page: every type. */
    async forDebug(userId: number): Promise<{ id: number; name: string }[]> {
      const state = await requestState(db, userId);
      const audiences = membership().audiencesOf(userId);
      const served = await decide(state, {
        types: ['post', 'search', 'story', 'quiz', 'tool', 'notification', 'video', 'banner'],
        limit: 200,
        audienceIds: audiences.map((audience) => audience.id),
      });
      return served.map(({ id, name }) => ({ id, name }));
    },
  };
  return service;
}

function toServed(advert: CachedAdvert, audienceId: number, views: number): ServedAdvert {
  const { data } = advert;
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  const nullable = (key: string) => (typeof data[key] === 'string' && data[key] ? (data[key] as string) : null);
  return {
    id: advert.id,
    type: advert.type,
    name: advert.name,
    weight: advert.weight,
    title: text('title'),
    subtitle: text('subtitle'),
    tagline: text('tagline'),
    author: text('author'),
    source: text('source'),
    logo: nullable('logo'),
    images: Array.isArray(data.images) ? (data.images as string[]) : [],
    video: nullable('video'),
    openIn: nullable('openIn'),
    buttonLabel: text('buttonLabel'),
    footNote: text('footNote'),
    audienceId,
    views,
    maxViews: advert.maxViews,
  };
}

/** A keyword and a Keyword trigger compare folded (accents, ligatures and case off), both here in JavaScript. */
function fold(text: string): string {
  return foldForSearch(text).trim();
}

import { sql } from 'drizzle-orm';
import type { Decision, ServedAdvert } from '@shared/contract/decisioning';
import { MESSAGES } from '@shared/messages';
import { epochSeconds } from '@shared/rules/advert-model';
import type { ServerContext } from '../../context';
import { foldForSearch } from '../../db/schema';
import { featureServices } from '../../feature-services';
import { HttpError } from '../../errors';
import { funnelPredecessors } from './funnels';
import { param, rows } from './store';

/**
 * Advert decisioning (issue 10 §5): what the mobile app would be served to one app user. Membership comes from
 * the audience engine (in memory); the candidates from one indexed query over the adverts attached to the user's
 * audiences; views and funnel progress from the user's own advert events (recorded through population
 * ingestion: node label Advert, node name the advert id).
 */

interface Candidate {
  id: number;
  weight: number;
  maxViews: number;
  audienceId: number;
  resetAt: string | null;
}

interface UserView {
  advertId: number;
  at: Date;
}

/** The node name under which an advert's events are ingested. */
export const advertNodeName = (advertId: number) => String(advertId);

export function decisioningService(context: ServerContext) {
  const { db } = context;

  function membership() {
    const engine = featureServices(context).audienceMembership;
    if (!engine) throw new Error('the audience engine is not running');
    return engine;
  }

  async function userExists(userId: number): Promise<void> {
    const [user] = await rows(db, sql`SELECT 1 FROM app_users WHERE id = ${userId}`);
    if (!user) throw new HttpError(404, MESSAGES.appUserNotFound);
  }

  /** The user's advert.view events, oldest first, per advert. */
  async function viewsOf(userId: number): Promise<Map<number, Date[]>> {
    const found = await rows<{ advertId: string; at: string | Date }>(
      db,
      sql`SELECT n.value AS "advertId", e.at FROM interaction_events e JOIN nodes n ON n.id = e.node_id
          WHERE e.user_id = ${userId} AND e.event = 'advert.view' AND n.label = 'Advert' ORDER BY e.at, e.id`,
    );
    const views = new Map<number, Date[]>();
    for (const row of found as unknown as { advertId: string; at: string | Date }[]) {
      const id = Number(row.advertId);
      if (!Number.isInteger(id)) continue;
      const list = views.get(id) ?? [];
      list.push(new Date(row.at));
      views.set(id, list);
    }
    return views;
  }

  async function decide(
    userId: number,
    options: { types: string[]; limit: number; audienceIds: number[] | null; keywords?: string[]; tab?: string },
  ): Promise<ServedAdvert[]> {
    const now = context.clock.now();
    const nowSeconds = epochSeconds(now);
    const byAudience = options.audienceIds
      ? sql`AND l.audience_id = ANY(${param(options.audienceIds)}::int[])`
      : sql``;
    const byKeyword = options.keywords
      ? sql`AND EXISTS (SELECT 1 FROM relationships r JOIN nodes n ON n.id = r.node_id
                        WHERE r.audience_id = l.audience_id AND n.label = 'Keyword'
                          AND ${foldForSearch(sql`n.value`)} = ANY(${param(options.keywords)}::text[]))`
      : sql``;
    const byTab = options.tab
      ? sql`AND (coalesce(jsonb_array_length(i.data->'search'->'tabs'), 0) = 0 OR i.data->'search'->'tabs' ? ${options.tab} OR i.data->'search'->'tabs' ? 'all')`
      : sql``;
    if (options.audienceIds && !options.audienceIds.length) return [];
    const candidates = await rows<Candidate>(
      db,
      sql`SELECT i.id, i.weight, i.max_views AS "maxViews", min(l.audience_id) AS "audienceId", i.data->'story'->>'resetAt' AS "resetAt"
          FROM advert_audiences l JOIN adverts i ON i.id = l.advert_id
          WHERE i.published AND NOT i.archived AND i.type = ANY(${param(options.types)}::text[])
            AND (i.auto_start_at IS NULL OR i.auto_start_at <= ${nowSeconds})
            AND (i.auto_stop_at IS NULL OR i.auto_stop_at > ${nowSeconds})
            ${byAudience} ${byKeyword} ${byTab}
          GROUP BY i.id
          ORDER BY i.weight DESC, i.id ASC`,
    );
    if (!candidates.length) return [];
    const views = await viewsOf(userId);
    const predecessors = await funnelPredecessors(db);
    const viewCount = (candidate: Candidate) => {
      const list = views.get(candidate.id) ?? [];
      // A story whose expiration was reset shows again: views before the reset no longer count.
      const resetAt = candidate.resetAt ? Number(candidate.resetAt) * 1000 : null;
      return resetAt ? list.filter((at) => at.getTime() >= resetAt).length : list.length;
    };
    const chosen: { candidate: Candidate; views: number }[] = [];
    for (const candidate of candidates) {
      const count = viewCount(candidate);
      if (count >= candidate.maxViews) continue;
      const step = predecessors.get(candidate.id);
      if (step) {
        // The next advert of a funnel: only after minViews of the previous one, and its grace period after them.
        const previous = views.get(step.previous) ?? [];
        if (previous.length < step.minViews) continue;
        const reachedAt = step.minViews > 0 ? previous[step.minViews - 1].getTime() : Number.NEGATIVE_INFINITY;
        if (reachedAt + step.gracePeriodMs > now.getTime()) continue;
      }
      chosen.push({ candidate, views: count });
      if (chosen.length >= options.limit) break;
    }
    if (!chosen.length) return [];
    const details = await rows<{ id: number; type: string | null; name: string; data: Record<string, unknown> }>(
      db,
      sql`SELECT id, type, name, data FROM adverts WHERE id = ANY(${param(chosen.map((item) => item.candidate.id))}::int[])`,
    );
    const byId = new Map(details.map((row) => [row.id, row]));
    return chosen.map(({ candidate, views: count }) => {
      const { type, name, data } = byId.get(candidate.id)!;
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
      const nullable = (key: string) => (typeof data[key] === 'string' && data[key] ? (data[key] as string) : null);
      return {
        id: candidate.id,
        type,
        name,
        weight: candidate.weight,
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
        audienceId: candidate.audienceId,
        views: count,
        maxViews: candidate.maxViews,
      };
    });
  }

  const service = {
    /** POST /v2/advert: adverts of the given types for the user. */
    async adverts(body: { userId: number; types: string[] }): Promise<Decision> {
      await userExists(body.userId);
      const audiences = membership().audiencesOf(body.userId);
      const adverts = await decide(body.userId, { types: body.types, limit: 50, audienceIds: audiences.map((audience) => audience.id) });
      return { audiences, adverts };
    },

    /**
     * POST /advert (type search): search adverts whose audience has a Keyword trigger equal to one of the keywords
     * (accents and case folded). withAudience false drops the membership condition (the trigger still applies).
     */
    async search(body: { userId: number; keywords: string[]; tab?: string; limit: number; withAudience: boolean }): Promise<Decision> {
      await userExists(body.userId);
      const audiences = membership().audiencesOf(body.userId);
      const keywords = [...new Set(body.keywords.map(fold).filter(Boolean))];
      if (!keywords.length) return { audiences, adverts: [] };
      const adverts = await decide(body.userId, {
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
      const audiences = membership().audiencesOf(userId);
      const served = await decide(userId, {
        types: ['post', 'search', 'story', 'quiz', 'tool', 'notification', 'video', 'banner'],
        limit: 200,
        audienceIds: audiences.map((audience) => audience.id),
      });
      return served.map(({ id, name }) => ({ id, name }));
    },
  };
  return service;
}

/** Same folding as the database's foldForSearch (accents off, lower case), for keywords compared in SQL. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'OE')
    .toLowerCase()
    .trim();
}

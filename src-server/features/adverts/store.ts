import { sql, type SQL } from 'drizzle-orm';
import { advertDefaultsSchema, articleDefaultsSchema, type Advert, type Article, type HistoryEntry, type TargetLink } from '@shared/contract/adverts';
import { MESSAGES } from '@shared/messages';
import { applyQuizRules, LATEST_MODEL } from '@shared/rules/advert-model';
import { HttpError } from '../../errors';

import { param, rows, type Executor } from '../../db/rows';

export { param, rows, type Executor };

export type Kind = 'advert' | 'article';
export type Model<K extends Kind> = K extends 'advert' ? Advert : Article;
export type AnyModel = Advert | Article;

/** Table names of each kind, for raw SQL. */
export const TABLES = {
  advert: { items: sql.raw('adverts'), links: sql.raw('advert_audiences'), fk: sql.raw('advert_id'), flag: sql.raw('is_free'), flagField: 'isFree' },
  article: {
    items: sql.raw('articles'),
    links: sql.raw('article_audiences'),
    fk: sql.raw('article_id'),
    flag: sql.raw('is_pinned'),
    flagField: 'isPinned',
  },
} as const;

/** Model fields stored as columns; the rest of the writable fields live in `data`. */
const COLUMN_FIELDS = ['name', 'type', 'published', 'archived', 'weight', 'maxViews', 'autoStartAt', 'autoStopAt', 'isFree', 'isPinned'] as const;
/** Fields the server owns: accepted in writes, never taken from them. */
export const READ_ONLY_FIELDS = new Set([
  'id',
  'model',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'unpublishedAt',
  'targetId',
  '_$target',
  '_$audiences',
  '_$pinnedArticles',
  'isInCatalog',
  'version',
]);

export interface StoredRow {
  id: number;
  name: string;
  type: string | null;
  published: boolean;
  archived: boolean;
  weight: number;
  maxViews: number;
  model: string;
  createdAt: string | number;
  updatedAt: string | number;
  publishedAt: string | number | null;
  unpublishedAt: string | number | null;
  autoStartAt: string | number | null;
  autoStopAt: string | number | null;
  data: Record<string, unknown>;
  flag: boolean;
  version: number;
}

export const storedColumns = sql`i.id, i.name, i.type, i.published, i.archived, i.weight, i.max_views AS "maxViews", i.model,
  i.created_at AS "createdAt", i.updated_at AS "updatedAt", i.published_at AS "publishedAt", i.unpublished_at AS "unpublishedAt",
  i.auto_start_at AS "autoStartAt", i.auto_stop_at AS "autoStopAt", i.data, i.version`;

const num = (value: string | number | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

export interface LinkedAudience {
  ownerId: number;
  id: number;
  name: string;
  area: string;
  type: string | null;
  isInCatalog: boolean;
  roles: string[];
}

/** Audiences attached to the given items, with the app-user roles each requires (ROLE_EXPERT makes it expert). */
export async function linkedAudiences(db: Executor, kind: Kind, ids: number[]): Promise<Map<number, LinkedAudience[]>> {
  const byOwner = new Map<number, LinkedAudience[]>();
  if (!ids.length) return byOwner;
  const { links, fk } = TABLES[kind];
  const found = await rows<LinkedAudience>(
    db,
    sql`SELECT l.${fk} AS "ownerId", a.id, a.name, a.area, a.type, a.is_in_catalog AS "isInCatalog",
          coalesce((SELECT array_agg(DISTINCT n.value) FROM relationships r JOIN nodes n ON n.id = r.node_id
                    WHERE r.audience_id = a.id AND n.label = 'Role' AND r.kind = 'required'), '{}') AS roles
        FROM ${links} l JOIN audiences a ON a.id = l.audience_id
        WHERE l.${fk} = ANY(${param(ids)}::int[]) ORDER BY lower(a.name), a.id`,
  );
  for (const audience of found) {
    const list = byOwner.get(audience.ownerId) ?? [];
    list.push(audience);
    byOwner.set(audience.ownerId, list);
  }
  return byOwner;
}

const ADVERT_DEFAULTS = advertDefaultsSchema.parse({});
const ARTICLE_DEFAULTS = articleDefaultsSchema.parse({});

export function defaultsOf(kind: Kind): Record<string, unknown> {
  return structuredClone(kind === 'advert' ? ADVERT_DEFAULTS : ARTICLE_DEFAULTS) as Record<string, unknown>;
}

// ---- the project target link (docs/projects.md, Targets) ---------------------------------------------------------------------------

/**
 * How a target row `t` meets an item row `i`. The link has one source of truth: for an advert, the target's
 * `advert_id` (an advert serves one action; whichever side sets the link writes that column, see target-link.ts and
 * the projects feature); for an article (only ever converted from an advert), its own `target_id`.
 */
export const targetMeetsItem = (kind: Kind): SQL => (kind === 'advert' ? sql`t.advert_id = i.id` : sql`t.id = i.target_id`);

/**
 * The `_$target` of each item that has one, read from the target row itself: the target's real figures (initial
 * quotation date, end, revenue, delay) and its project. An advert linked twice by older data shows its first target.
 */
export async function targetLinks(db: Executor, kind: Kind, ids: number[]): Promise<Map<number, TargetLink>> {
  const links = new Map<number, TargetLink>();
  if (!ids.length) return links;
  const found = await rows<TargetLink & { itemId: number }>(
    db,
    sql`SELECT DISTINCT ON (i.id) i.id AS "itemId", t.id, t.project_id AS "projectId", t.initial_quotation_date::float8 AS "initialQuotationDate",
          t.end_date::float8 AS "endDate", t.revenue::float8 AS revenue, t.delay_reason AS "delayReason", t.release_date_diff AS "releaseDateDiff",
          t.revenue_delay_impact::float8 AS "revenueDelayImpact", t.action_code AS "actionCode"
        FROM ${TABLES[kind].items} i JOIN targets t ON ${targetMeetsItem(kind)}
        WHERE i.id = ANY(${param(ids)}::int[]) ORDER BY i.id, t.id`,
  );
  for (const { itemId, ...link } of found) links.set(itemId, link);
  return links;
}

/** The full item from its row, its audiences and its target link, defaults filled for fields never written. */
export function toModel<K extends Kind>(kind: K, row: StoredRow, audiences: LinkedAudience[], link: TargetLink | null = null): Model<K> {
  const defaults = defaultsOf(kind);
  const data: Record<string, unknown> = {};
  // Only known fields: an old key left in `data` by an earlier version never reaches the answer.
  for (const key of Object.keys(defaults)) if (key in row.data) data[key] = row.data[key];
  const model: Record<string, unknown> = {
    ...defaults,
    ...data,
    id: row.id,
    name: row.name,
    type: row.type,
    published: row.published,
    archived: row.archived,
    weight: row.weight,
    maxViews: row.maxViews,
    autoStartAt: num(row.autoStartAt),
    autoStopAt: num(row.autoStopAt),
    model: row.model,
    createdAt: num(row.createdAt),
    updatedAt: num(row.updatedAt),
    publishedAt: num(row.publishedAt),
    unpublishedAt: num(row.unpublishedAt),
    version: row.version,
    targetId: link?.id ?? null,
    _$target: link,
    [TABLES[kind].flagField]: row.flag,
  };
  if (kind === 'advert') model._$audiences = audiences.map(({ id, name, roles }) => ({ id, name, roles }));
  else {
    model._$audiences = audiences.map(({ id, name, area, roles }) => ({ id, name, label: area, roles }));
    model._$pinnedArticles = [];
  }
  return model as Model<K>;
}

/** One item in one statement (its audiences and target link as lateral joins; locked: its row only); 404 if none. */
export async function loadItem<K extends Kind>(
  db: Executor,
  kind: K,
  id: number,
  options: { lock?: boolean } = {},
): Promise<{ model: Model<K>; audiences: LinkedAudience[] }> {
  const { items, flag, links, fk } = TABLES[kind];
  const [row] = await rows<StoredRow & { audiences: LinkedAudience[]; link: TargetLink | null }>(
    db,
    sql`SELECT ${storedColumns}, i.${flag} AS flag, la.audiences, tl.link
        FROM ${items} i
        LEFT JOIN LATERAL (
          SELECT coalesce(jsonb_agg(jsonb_build_object('ownerId', l.${fk}, 'id', a.id, 'name', a.name, 'area', a.area, 'type', a.type,
                   'isInCatalog', a.is_in_catalog,
                   'roles', coalesce((SELECT to_jsonb(array_agg(DISTINCT n.value)) FROM relationships r JOIN nodes n ON n.id = r.node_id
                                      WHERE r.audience_id = a.id AND n.label = 'Role' AND r.kind = 'required'), '[]'::jsonb))
                   ORDER BY lower(a.name), a.id), '[]'::jsonb) AS audiences
          FROM ${links} l JOIN audiences a ON a.id = l.audience_id WHERE l.${fk} = i.id
        ) la ON true
        LEFT JOIN LATERAL (
          SELECT jsonb_build_object('id', t.id, 'projectId', t.project_id, 'initialQuotationDate', t.initial_quotation_date::float8,
                   'endDate', t.end_date::float8, 'revenue', t.revenue::float8, 'delayReason', t.delay_reason,
                   'releaseDateDiff', t.release_date_diff, 'revenueDelayImpact', t.revenue_delay_impact::float8, 'actionCode', t.action_code) AS link
          FROM targets t WHERE ${targetMeetsItem(kind)} ORDER BY t.id LIMIT 1
        ) tl ON true
        WHERE i.id = ${id} ${options.lock ? sql`FOR UPDATE OF i` : sql``}`,
  );
  if (!row) throw new HttpError(404, kind === 'advert' ? MESSAGES.advertNotFound : MESSAGES.articleNotFound);
  return { model: toModel(kind, row, row.audiences, row.link), audiences: row.audiences };
}

/**
 * The item after a write: the writable fields sent replace the current ones (read-only fields ignored), then the
 * rules every save applies (quiz label and link).
 */
export function mergeInput<M extends AnyModel>(current: M, input: Record<string, unknown>): M {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(input)) {
    if (READ_ONLY_FIELDS.has(key) || value === undefined || !(key in current)) continue;
    next[key] = value;
  }
  return applyQuizRules(current as never, next as never) as M;
}

/** Splits an item into its columns and its `data`. */
function storedParts(kind: Kind, model: AnyModel) {
  const data: Record<string, unknown> = {};
  const record = model as unknown as Record<string, unknown>;
  for (const key of Object.keys(defaultsOf(kind))) {
    if ((COLUMN_FIELDS as readonly string[]).includes(key)) continue;
    data[key] = record[key];
  }
  return { data, flag: Boolean(record[TABLES[kind].flagField]) };
}

export interface Timestamps {
  createdAt?: number;
  updatedAt: number;
  /** The account making the change (the version moves on whoever writes; null for the server's own jobs). */
  updatedBy?: number | null;
  publishedAt?: number | null;
  unpublishedAt?: number | null;
}

/**
 * Inserts a new item (published false unless told, dates in epoch seconds); returns its id. `targetId` is an
 * article's own link (an advert's is its target's advert_id: target-link.ts).
 */
export async function insertItem(db: Executor, kind: Kind, model: AnyModel, now: number, extra: { targetId?: number | null } = {}): Promise<number> {
  const { items, flag } = TABLES[kind];
  const parts = storedParts(kind, model);
  const [row] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO ${items} (name, type, published, archived, weight, max_views, model, created_at, updated_at, auto_start_at, auto_stop_at, target_id, data, ${flag})
        VALUES (${model.name}, ${model.type}, ${model.published}, ${model.archived}, ${model.weight}, ${model.maxViews}, ${LATEST_MODEL}, ${now}, ${now},
                ${model.autoStartAt}, ${model.autoStopAt}, ${kind === 'article' ? (extra.targetId ?? null) : null}, ${param(JSON.stringify(parts.data))}::jsonb, ${parts.flag})
        RETURNING id`,
  );
  if (kind === 'advert') await bumpContentVersion(db);
  return row.id;
}

/**
 * Inserts many new unpublished items in one statement (the CSV import), each with its 'create' history entry;
 * returns their ids in the order given.
 */
export async function insertItems(db: Executor, kind: Kind, models: AnyModel[], now: number, actor: Actor): Promise<number[]> {
  if (!models.length) return [];
  const { items, flag } = TABLES[kind];
  const payload = models.map((model, index) => {
    const parts = storedParts(kind, model);
    return {
      ord: index,
      name: model.name,
      type: model.type,
      archived: model.archived,
      weight: model.weight,
      max_views: model.maxViews,
      auto_start_at: model.autoStartAt,
      auto_stop_at: model.autoStopAt,
      data: parts.data,
      flag: parts.flag,
    };
  });
  const inserted = await rows<{ id: number; ord: number }>(
    db,
    sql`WITH wanted AS (
          SELECT * FROM jsonb_to_recordset(${param(JSON.stringify(payload))}::jsonb)
            AS r(ord int, name text, type text, archived boolean, weight int, max_views int, auto_start_at bigint, auto_stop_at bigint, data jsonb, flag boolean)
        ), made AS (
          INSERT INTO ${items} (name, type, published, archived, weight, max_views, model, created_at, updated_at, auto_start_at, auto_stop_at, data, ${flag})
          SELECT name, type, false, archived, weight, max_views, ${LATEST_MODEL}, ${now}, ${now}, auto_start_at, auto_stop_at, data, flag FROM wanted ORDER BY ord
          RETURNING id
        )
        SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ord FROM made`,
  );
  // Serial ids follow the insertion order of the ordered SELECT: the n-th smallest id is the n-th row.
  const ids = inserted.sort((a, b) => a.ord - b.ord).map((row) => row.id);
  const history = models.map((model, index) => {
    const after = { ...model, id: ids[index] } as unknown as Record<string, unknown>;
    const fields = changedFields(null, after);
    return { item_id: ids[index], fields, after: pick(after, fields) };
  });
  await db.execute(
    sql`INSERT INTO content_history (kind, item_id, action, account_id, account_name, fields, before, after)
        SELECT ${kind}, h.item_id, 'create', ${actor.id}, ${actor.name}, ARRAY(SELECT jsonb_array_elements_text(h.fields)), NULL, h.after
        FROM jsonb_to_recordset(${param(JSON.stringify(history))}::jsonb) AS h(item_id int, fields jsonb, after jsonb)`,
  );
  if (kind === 'advert') await bumpContentVersion(db);
  return ids;
}

/** Writes an item's fields back (not its audiences), with the dates given; answers the row as written (RETURNING). */
export async function updateItem(db: Executor, kind: Kind, model: AnyModel, dates: Timestamps): Promise<StoredRow> {
  const { items, flag } = TABLES[kind];
  const parts = storedParts(kind, model);
  const [row] = await rows<StoredRow>(
    db,
    sql`UPDATE ${items} i SET name = ${model.name}, type = ${model.type}, published = ${model.published}, archived = ${model.archived},
          weight = ${model.weight}, max_views = ${model.maxViews}, auto_start_at = ${model.autoStartAt}, auto_stop_at = ${model.autoStopAt},
          data = ${param(JSON.stringify(parts.data))}::jsonb, ${flag} = ${parts.flag}, updated_at = ${dates.updatedAt},
          version = version + 1, updated_by = ${dates.updatedBy ?? null}
          ${dates.publishedAt !== undefined ? sql`, published_at = ${dates.publishedAt}` : sql``}
          ${dates.unpublishedAt !== undefined ? sql`, unpublished_at = ${dates.unpublishedAt}` : sql``}
        WHERE i.id = ${model.id}
        RETURNING ${storedColumns}, i.${flag} AS flag`,
  );
  if (kind === 'advert') await bumpContentVersion(db);
  return row;
}

export async function setAudiences(db: Executor, kind: Kind, itemId: number, audienceIds: number[]): Promise<void> {
  const { links, fk } = TABLES[kind];
  const unique = [...new Set(audienceIds)];
  if (unique.length) {
    // An article's own audience (its inline criteria) belongs to that article only.
    const owner = kind === 'article' ? sql`(article_id IS NULL OR article_id = ${itemId})` : sql`article_id IS NULL`;
    const found = await rows<{ id: number }>(db, sql`SELECT id FROM audiences WHERE id = ANY(${param(unique)}::int[]) AND ${owner}`);
    if (found.length !== unique.length) throw new HttpError(400, MESSAGES.audienceNotFound, {}, 'audienceIds');
  }
  await db.execute(sql`DELETE FROM ${links} WHERE ${fk} = ${itemId}`);
  if (unique.length) await db.execute(sql`INSERT INTO ${links} (${fk}, audience_id) SELECT ${itemId}, unnest(${param(unique)}::int[])`);
  if (kind === 'advert') await bumpContentVersion(db);
}

// ---- history --------------------------------------------------------------------------------------------------

const NOT_COMPARED = new Set(['updatedAt', 'version']);

/** Top-level fields whose value differs (JSON comparison), the server's own bookkeeping left out. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((key) => !NOT_COMPARED.has(key) && JSON.stringify(before?.[key]) !== JSON.stringify(after?.[key])).sort();
}

function pick(model: Record<string, unknown> | null, fields: string[]): Record<string, unknown> | null {
  if (!model) return null;
  return Object.fromEntries(fields.map((field) => [field, model[field] ?? null]));
}

export interface Actor {
  id: number | null;
  name: string;
}

export async function actorOf(db: Executor, account: { id: number } | null): Promise<Actor> {
  if (!account) return { id: null, name: 'Service' };
  const [row] = await rows<{ name: string }>(db, sql`SELECT name FROM accounts WHERE id = ${account.id}`);
  return { id: account.id, name: row?.name ?? '' };
}

/** Records one change: the fields that changed, with their values before and after. Nothing changed, nothing kept. */
export async function recordHistory(
  db: Executor,
  kind: Kind,
  itemId: number,
  action: string,
  actor: Actor,
  before: AnyModel | null,
  after: AnyModel | null,
): Promise<void> {
  const fields = changedFields(before as Record<string, unknown> | null, after as Record<string, unknown> | null);
  if (!fields.length && before && after) return;
  await db.execute(
    sql`INSERT INTO content_history (kind, item_id, action, account_id, account_name, fields, before, after)
        VALUES (${kind}, ${itemId}, ${action}, ${actor.id}, ${actor.name}, ${param(fields)}::text[],
                ${before ? param(JSON.stringify(pick(before as Record<string, unknown>, fields))) : null}::jsonb,
                ${after ? param(JSON.stringify(pick(after as Record<string, unknown>, fields))) : null}::jsonb)`,
  );
}

export async function historyOf(db: Executor, kind: Kind, itemId: number): Promise<HistoryEntry[]> {
  const found = await rows<HistoryEntry & { at: string | Date; id: string | number }>(
    db,
    sql`SELECT id, item_id AS "itemId", action, account_id AS "accountId", account_name AS "accountName", at, fields, before, after
        FROM content_history WHERE kind = ${kind} AND item_id = ${itemId} ORDER BY id DESC LIMIT 500`,
  );
  return found.map((entry) => ({ ...entry, id: Number(entry.id), at: new Date(entry.at).getTime() }));
}

/** Tells every instance's decisioning cache that adverts, their audiences or funnels changed (in the writer's transaction). */
export async function bumpContentVersion(db: Executor): Promise<void> {
  await db.execute(
    sql`INSERT INTO content_versions (name, version) VALUES ('adverts', 1) ON CONFLICT (name) DO UPDATE SET version = content_versions.version + 1`,
  );
}

import { sql, type SQL } from 'drizzle-orm';
import type { ContentRow } from '@shared/contract/adverts';
import { EXPERT_ROLE } from '@shared/rules/audiences';
import { foldForSearch } from '../../db/schema';
import { linkedAudiences, param, rows, TABLES, targetMeetsItem, type Executor, type Kind } from './store';

/** The filters both lists understand (spec §3 List filters; articles say areas and roles, adverts area and role). */
export interface ListFilters {
  skip: number;
  limit: number;
  orderBy: string;
  order: 'ASC' | 'DESC';
  term?: string;
  type?: string;
  published?: boolean;
  archived?: boolean;
  isFree?: boolean;
  isPinned?: boolean;
  isExpert?: 'ROLE_EXPERT' | 'NOT:ROLE_EXPERT';
  isInCatalog?: boolean;
  specialties?: number[];
  professions?: number[];
  audiences?: number[];
  countries?: number[];
  role?: string[];
  roles?: string[];
  area?: string[];
  areas?: string[];
  actionCodes?: string[];
  model?: string;
}

const ORDER_COLUMNS: Record<string, SQL> = {
  id: sql`i.id`,
  type: sql`i.type`,
  name: sql`lower(i.name)`,
  published: sql`i.published`,
  updatedAt: sql`i.updated_at`,
  createdAt: sql`i.created_at`,
  weight: sql`i.weight`,
  isPinned: sql`i.is_pinned`,
};

/**
 * WHERE clauses of a list. Criteria filters (specialties, professions, countries, roles, areas) ask whether one
 * of the item's audiences requires that node, read from the audience tables themselves, so an audience edited
 * elsewhere is seen at once.
 */
/** Audiences that require (or exclude) one of these node values: a small list, read before the item query. */
async function audiencesWith(
  db: Executor,
  label: string,
  values: readonly (string | number)[],
  relation: 'required' | 'not' = 'required',
): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT DISTINCT r.audience_id AS id FROM nodes n JOIN relationships r ON r.node_id = n.id
        WHERE n.label = ${label} AND n.value = ANY(${param(values.map(String))}::text[]) AND r.kind = ${relation} AND r.audience_id IS NOT NULL`,
  );
  return found.map((row) => row.id);
}

/**
 * WHERE clauses of a list. Criteria filters (specialties, professions, countries, roles, areas, expert,
 * catalogue) first find the audiences that match — a few ids, read from the audience tables themselves so an
 * audience edited elsewhere is seen at once — then keep the items attached to one of them: a semi-join the planner
 * hashes or walks as it sees fit (an `= ANY(ARRAY(...))` of tens of thousands of ids is compared linearly per row:
 * seconds when a criterion, like ROLE_EXPERT, is on most audiences).
 */
export async function listConditions(db: Executor, kind: Kind, filters: ListFilters): Promise<SQL[]> {
  const { links, fk } = TABLES[kind];
  const where: SQL[] = [];
  const attachedTo = (audienceIds: number[]) =>
    audienceIds.length ? sql`i.id IN (SELECT l.${fk} FROM ${links} l WHERE l.audience_id = ANY(${param(audienceIds)}::int[]))` : sql`false`;
  if (filters.term?.trim()) {
    const term = filters.term.trim();
    const byText = sql`i.search_key LIKE '%' || ${foldForSearch(sql`${term}`)} || '%'`;
    where.push(/^\d{1,9}$/.test(term) ? sql`(i.id = ${Number(term)} OR ${byText})` : byText);
  }
  if (filters.type) where.push(sql`i.type = ${filters.type}`);
  if (filters.published !== undefined) where.push(sql`i.published = ${filters.published}`);
  if (filters.archived !== undefined) where.push(filters.archived ? sql`i.archived` : sql`NOT i.archived`);
  if (filters.model) where.push(sql`i.model = ${filters.model}`);
  if (kind === 'advert' && filters.isFree !== undefined) where.push(sql`i.is_free = ${filters.isFree}`);
  if (kind === 'article' && filters.isPinned !== undefined) where.push(sql`i.is_pinned = ${filters.isPinned}`);
  // ROLE_EXPERT: an audience requires the expert role; NOT:ROLE_EXPERT: an audience excludes it.
  if (filters.isExpert)
    where.push(attachedTo(await audiencesWith(db, 'Role', [EXPERT_ROLE], filters.isExpert === 'ROLE_EXPERT' ? 'required' : 'not')));
  if (filters.isInCatalog !== undefined) {
    const found = await rows<{ id: number }>(db, sql`SELECT id FROM audiences WHERE is_in_catalog = ${filters.isInCatalog}`);
    where.push(attachedTo(found.map((row) => row.id)));
  }
  if (filters.audiences?.length) where.push(attachedTo(filters.audiences));
  if (filters.specialties?.length) where.push(attachedTo(await audiencesWith(db, 'Specialty', filters.specialties)));
  if (filters.professions?.length) where.push(attachedTo(await audiencesWith(db, 'Profession', filters.professions)));
  if (filters.countries?.length) where.push(attachedTo(await audiencesWith(db, 'Country', filters.countries)));
  const roles = [...(filters.role ?? []), ...(filters.roles ?? [])];
  if (roles.length) where.push(attachedTo(await audiencesWith(db, 'Role', roles)));
  const areas = [...(filters.area ?? []), ...(filters.areas ?? [])];
  if (areas.length) {
    const found = await rows<{ id: number }>(db, sql`SELECT id FROM audiences WHERE area = ANY(${param(areas)}::text[])`);
    where.push(attachedTo(found.map((row) => row.id)));
  }
  // The linked target's action code (the target holds the link: docs/projects.md, Targets).
  if (filters.actionCodes?.length)
    where.push(sql`EXISTS (SELECT 1 FROM targets t WHERE ${targetMeetsItem(kind)} AND t.action_code = ANY(${param(filters.actionCodes)}::text[]))`);
  return where;
}

interface ListRow {
  id: number;
  type: string | null;
  name: string;
  title: string | null;
  author: string | null;
  source: string | null;
  logo: string | null;
  image: string | null;
  published: boolean;
  archived: boolean;
  flag: boolean;
  weight: number;
  model: string;
  createdAt: string | number;
  updatedAt: string | number;
  publishedAt: string | number | null;
  unpublishedAt: string | number | null;
  autoStartAt: string | number | null;
  autoStopAt: string | number | null;
  version: number;
  targetId: number | null;
}

const num = (value: string | number | null) => (value === null ? null : Number(value));

/** One page of a list, ordered with a stable tie-break on id, and the total count of the filtered list. */
export async function listItems(db: Executor, kind: Kind, filters: ListFilters): Promise<{ items: ContentRow[]; total: number }> {
  const { items, flag } = TABLES[kind];
  const conditions = await listConditions(db, kind, filters);
  const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  const direction = sql.raw(filters.order === 'DESC' ? 'DESC' : 'ASC');
  const order = ORDER_COLUMNS[filters.orderBy] ?? ORDER_COLUMNS.id;
  const found = await rows<ListRow>(
    db,
    sql`SELECT i.id, i.type, i.name, i.data->>'title' AS title, i.data->>'author' AS author, i.data->>'source' AS source,
          i.data->>'logo' AS logo, coalesce(i.data->>'image', i.data->'images'->>0) AS image, i.published, i.archived, i.${flag} AS flag,
          i.weight, i.model, i.created_at AS "createdAt", i.updated_at AS "updatedAt", i.published_at AS "publishedAt",
          i.unpublished_at AS "unpublishedAt", i.auto_start_at AS "autoStartAt", i.auto_stop_at AS "autoStopAt", i.version,
          (SELECT min(t.id) FROM targets t WHERE ${targetMeetsItem(kind)}) AS "targetId"
        FROM ${items} i ${where}
        ORDER BY ${order} ${direction}, i.id ${direction} LIMIT ${filters.limit} OFFSET ${filters.skip}`,
  );
  const total =
    found.length < filters.limit && (found.length > 0 || filters.skip === 0)
      ? filters.skip + found.length
      : await countItems(db, items, where, filters.skip + filters.limit);
  const audiences = await linkedAudiences(
    db,
    kind,
    found.map((row) => row.id),
  );
  return {
    total,
    items: found.map((row) => {
      const attached = audiences.get(row.id) ?? [];
      return {
        id: row.id,
        type: row.type,
        name: row.name,
        title: row.title ?? '',
        author: row.author ?? '',
        source: row.source ?? '',
        logo: row.logo,
        image: row.image,
        published: row.published,
        archived: row.archived,
        isFree: kind === 'advert' ? row.flag : false,
        isPinned: kind === 'article' ? row.flag : false,
        isInCatalog: attached.some((audience) => audience.isInCatalog),
        weight: row.weight,
        model: row.model,
        createdAt: num(row.createdAt),
        updatedAt: num(row.updatedAt),
        publishedAt: num(row.publishedAt),
        unpublishedAt: num(row.unpublishedAt),
        autoStartAt: num(row.autoStartAt),
        autoStopAt: num(row.autoStopAt),
        version: Number(row.version),
        targetId: row.targetId,
        _$audiences: attached.map(({ id, name, area, roles }) => ({ id, name, label: area, roles })),
        _$targets: row.targetId ? [{ id: row.targetId }] : [],
      };
    }),
  };
}

/**
 * The total of a list. Counting every match of a broad filter over 100,000 rows costs more than the page itself,
 * so the count stops a little past what the screen needs (the next pages); beyond that, the planner's estimate
 * stands for it (never less than what was counted).
 */
const COUNT_AHEAD = 5_000;
async function countItems(db: Executor, items: SQL, where: SQL, shown: number): Promise<number> {
  const cap = shown + COUNT_AHEAD;
  const [{ counted }] = await rows<{ counted: number }>(
    db,
    sql`SELECT count(*)::int AS counted FROM (SELECT 1 FROM ${items} i ${where} LIMIT ${cap}) t`,
  );
  if (counted < cap) return counted;
  const [plan] = await rows<{ 'QUERY PLAN': unknown }>(db, sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${items} i ${where}`);
  const raw = plan['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
  return Math.max(counted, Math.round(parsed[0].Plan['Plan Rows']));
}

/** Adverts by id or name, for pickers (funnel append). */
export async function searchAdverts(db: Executor, term: string, limit: number) {
  const trimmed = term.trim();
  const byText = sql`search_key LIKE '%' || ${foldForSearch(sql`${trimmed}`)} || '%'`;
  const where = /^\d{1,9}$/.test(trimmed) ? sql`(id = ${Number(trimmed)} OR ${byText})` : byText;
  return rows<{ id: number; name: string; type: string | null; published: boolean }>(
    db,
    sql`SELECT id, name, type, published FROM adverts WHERE ${where} ORDER BY (id::text = ${trimmed}) DESC, updated_at DESC, id DESC LIMIT ${limit}`,
  );
}

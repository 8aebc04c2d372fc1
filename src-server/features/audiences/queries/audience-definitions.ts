import { sql } from 'drizzle-orm';
import type { Audience } from '@shared/contract/audiences/audiences';
import type { AudienceType } from '@shared/rules/audiences';
import { foldForSearch } from '../../../db/schema';
import { param, rows, type Executor } from '../../../db/rows';
import type { Handlers } from '../../../operations';

// ---- audience definitions -------------------------------------------------------------------------------------

export interface AudienceRow {
  id: number;
  name: string;
  type: AudienceType | null;
  area: Audience['area'];
  isInCatalog: boolean;
  authorName: string;
  createdAt: Date | string;
  roles: string[];
  /** Some advert or article targets it. */
  isUsed: boolean;
  /** The adverts that target it (id, name), by id; JSON text on drivers that do not parse json. */
  adverts: { id: number; name: string }[] | string;
  version: number;
  updatedAt: Date | string;
  /** Who made the newest change (docs/architecture.md, "Versions and conflicts"); null when unknown. */
  editorName: string | null;
}

const audienceColumns = sql`a.id, a.name, a.type, a.area, a.is_in_catalog AS "isInCatalog", a.author_name AS "authorName", a.created_at AS "createdAt",
  a.version, a.updated_at AS "updatedAt", (SELECT e.name FROM accounts e WHERE e.id = a.updated_by) AS "editorName",
  coalesce((SELECT array_agg(DISTINCT n.value) FROM relationships r JOIN nodes n ON n.id = r.node_id
            WHERE r.audience_id = a.id AND n.label = 'Role' AND r.kind = 'required'), '{}') AS roles,
  (EXISTS (SELECT 1 FROM advert_audiences aa WHERE aa.audience_id = a.id)
    OR EXISTS (SELECT 1 FROM article_audiences ar WHERE ar.audience_id = a.id)) AS "isUsed",
  coalesce((SELECT json_agg(json_build_object('id', ad.id, 'name', ad.name) ORDER BY ad.id)
            FROM advert_audiences aa JOIN adverts ad ON ad.id = aa.advert_id WHERE aa.audience_id = a.id), '[]'::json) AS adverts`;

/** An audience by id; `lock` holds its row until the transaction ends. */
export async function audienceRow(db: Executor, id: number, lock = false): Promise<AudienceRow | undefined> {
  const [row] = await rows<AudienceRow>(db, sql`SELECT ${audienceColumns} FROM audiences a WHERE a.id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`);
  return row;
}

/** The list's filters, paging and order, as the contract gives them. */
export type AudienceListQuery = Parameters<Handlers['audiences.list']>[0]['query'];

/** A page of saved audiences with the count of all that match. */
export async function listAudiences(db: Executor, query: AudienceListQuery): Promise<{ found: AudienceRow[]; total: number }> {
  const orderColumn = { createdAt: sql`a.created_at`, name: sql`lower(a.name)`, id: sql`a.id` }[query.orderBy];
  const direction = sql.raw(query.order);
  const filters = [
    // An article's own audience (its inline criteria) is not one of the saved audiences.
    sql`a.article_id IS NULL`,
    query.term ? sql`${foldForSearch(sql`a.name`)} LIKE '%' || ${foldForSearch(sql`${query.term}`)} || '%'` : undefined,
    query.area ? sql`a.area = ${query.area}` : undefined,
    query.type ? sql`a.type = ${query.type}` : undefined,
    query.isInCatalog ? sql`a.is_in_catalog = ${query.isInCatalog === 'true'}` : undefined,
  ].filter((filter) => filter !== undefined);
  const where = sql`WHERE ${sql.join(filters, sql` AND `)}`;
  // The page's ids first (the index on created_at, no per-row work), then the columns of those rows only: the
  // Role subquery for every audience before the LIMIT made the first page cost ~100 ms at 10,000 audiences.
  const found = await rows<AudienceRow & { total: number }>(
    db,
    sql`WITH page AS (
          SELECT a.id, count(*) OVER ()::int AS total FROM audiences a ${where}
          ORDER BY ${orderColumn} ${direction}, a.id ${direction} LIMIT ${query.limit} OFFSET ${query.skip}
        )
        SELECT ${audienceColumns}, page.total FROM page JOIN audiences a ON a.id = page.id
        ORDER BY ${orderColumn} ${direction}, a.id ${direction}`,
  );
  const total =
    found[0]?.total ?? (query.skip ? ((await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audiences a ${where}`))[0]?.n ?? 0) : 0);
  return { found, total };
}

/** Saved audiences whose name holds the term (the pickers' search). */
export function searchAudiences(db: Executor, term: string, type: string | undefined, limit: number) {
  return rows<AudienceRow>(
    db,
    sql`SELECT ${audienceColumns} FROM audiences a
        WHERE a.article_id IS NULL AND ${foldForSearch(sql`a.name`)} LIKE '%' || ${foldForSearch(sql`${term}`)} || '%' ${type ? sql`AND a.type = ${type}` : sql``}
        ORDER BY lower(a.name), a.id LIMIT ${limit}`,
  );
}

/** Audiences share the nodes' id sequence (an id names an audience, a group or a node, never two of them). */
export async function nextDefinitionId(db: Executor): Promise<number> {
  const [{ id }] = await rows<{ id: number }>(db, sql`SELECT nextval('nodes_id_seq')::int AS id`);
  return id;
}

export interface NewAudience {
  id: number;
  name: string;
  type: AudienceType | null;
  area: string;
  isInCatalog: boolean;
  authorId: number | null;
  authorName: string;
  articleId?: number;
}

export async function insertAudience(db: Executor, audience: NewAudience): Promise<void> {
  await db.execute(
    sql`INSERT INTO audiences (id, name, type, area, is_in_catalog, author_id, author_name, article_id)
        VALUES (${audience.id}, ${audience.name}, ${audience.type}, ${audience.area}, ${audience.isInCatalog}, ${audience.authorId}, ${audience.authorName},
          ${audience.articleId ?? null})`,
  );
}

export async function updateAudience(db: Executor, id: number, fields: Pick<AudienceRow, 'name' | 'type' | 'area' | 'isInCatalog'>): Promise<void> {
  await db.execute(
    sql`UPDATE audiences SET name = ${fields.name}, type = ${fields.type}, area = ${fields.area}, is_in_catalog = ${fields.isInCatalog}, updated_at = now()
        WHERE id = ${id}`,
  );
}

/** Deletes audiences; answers the ids that were there. */
export async function deleteAudiences(db: Executor, ids: number[]): Promise<number[]> {
  const deleted = await rows<{ id: number }>(db, sql`DELETE FROM audiences WHERE id = ANY(${param(ids)}::int[]) RETURNING id`);
  return deleted.map((row) => row.id);
}

export async function hasKeywordCriterion(db: Executor, audienceId: number): Promise<boolean> {
  const found = await rows(
    db,
    sql`SELECT 1 FROM relationships r JOIN nodes n ON n.id = r.node_id WHERE r.audience_id = ${audienceId} AND n.label = 'Keyword' LIMIT 1`,
  );
  return found.length > 0;
}

export async function accountName(db: Executor, accountId: number): Promise<string | undefined> {
  const [row] = await rows<{ name: string }>(db, sql`SELECT name FROM accounts WHERE id = ${accountId}`);
  return row?.name;
}

/** A change of an audience's definition: its next version and who made it. */
export async function touchAudience(db: Executor, id: number, by: number | null): Promise<void> {
  await db.execute(sql`UPDATE audiences SET updated_at = now(), version = version + 1, updated_by = ${by} WHERE id = ${id}`);
}

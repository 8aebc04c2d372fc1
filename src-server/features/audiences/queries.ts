import type { UserAttributes } from './engine/semantics';
import { sql, type SQL } from 'drizzle-orm';
import type { Audience, Group } from '@shared/contract/audiences';
import type { AudienceType, NodeLabel } from '@shared/rules/audiences';
import { foldForSearch } from '../../db/schema';
import type { Handlers } from '../../operations';
import type { Criterion } from './engine/semantics';

import { param, rows, type Executor } from '../../db/rows';

export { param, rows, type Executor };

/**
 * A PostgreSQL array literal of texts or numbers, to bind as one text parameter cast to the array type
 * (`${arrayLiteral(ids)}::int[]`): node-postgres escapes each element of an array parameter with two regular
 * expressions, a quarter of a second for a 50,000-event batch; this does it in a few milliseconds. No nulls.
 */
export function arrayLiteral(values: ArrayLike<string | number>): SQL {
  let literal = '{';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (index > 0) literal += ',';
    if (typeof value === 'number') literal += value;
    else literal += NEEDS_ESCAPE.test(value) ? `"${value.replace(ESCAPED, '\\$&')}"` : `"${value}"`;
  }
  return sql`${`${literal}}`}`;
}
const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

// ---- relationships as criteria --------------------------------------------------------------------------------

export interface RelationshipRow {
  id: number;
  audienceId: number | null;
  groupId: number | null;
  nodeId: number;
  label: NodeLabel;
  value: string;
  name: string;
  type: Criterion['type'];
  kind: Criterion['kind'];
  event: string | null;
  caping: number | null;
}

const relationshipColumns = sql`r.id, r.audience_id AS "audienceId", r.group_id AS "groupId", r.node_id AS "nodeId", n.label, n.value, n.name,
  r.type, r.kind, r.event, r.caping`;

/** Relationships of the given audiences (null: all of them), in insertion order. */
export function audienceRelationships(db: Executor, audienceIds: number[] | null) {
  return rows<RelationshipRow>(
    db,
    sql`SELECT ${relationshipColumns} FROM relationships r JOIN nodes n ON n.id = r.node_id
        WHERE r.audience_id IS NOT NULL ${audienceIds ? sql`AND r.audience_id = ANY(${param(audienceIds)}::int[])` : sql``} ORDER BY r.id`,
  );
}

/** Members of the given groups (null: all of them). */
export function groupRelationships(db: Executor, groupIds: number[] | null) {
  return rows<RelationshipRow>(
    db,
    sql`SELECT ${relationshipColumns} FROM relationships r JOIN nodes n ON n.id = r.node_id
        WHERE r.group_id IS NOT NULL ${groupIds ? sql`AND r.group_id = ANY(${param(groupIds)}::int[])` : sql``} ORDER BY r.id`,
  );
}

export function toCriterion(row: Pick<RelationshipRow, 'nodeId' | 'label' | 'value' | 'type' | 'kind' | 'event' | 'caping'>): Criterion {
  return { nodeId: row.nodeId, label: row.label, value: row.value, type: row.type, kind: row.kind, event: row.event, caping: row.caping };
}

// ---- nodes ----------------------------------------------------------------------------------------------------

export interface NodeRow {
  id: number;
  label: NodeLabel;
  value: string;
  name: string;
}

export function nodesById(db: Executor, ids: number[]) {
  return rows<NodeRow>(db, sql`SELECT id, label, value, name FROM nodes WHERE id = ANY(${param(ids)}::int[])`);
}

/**
 * Creates the missing nodes and answers them all (a known node keeps its id); `answer: false` when the caller needs
 * no rows back. A known node is renamed only when its name changed, and one already named so is not even locked
 * (the NOT EXISTS probe, kept a sub-plan by OFFSET 0): rewriting or locking every row of a batch would cost as much as
 * inserting it.
 */
export async function upsertNodes(
  db: Executor,
  list: { label: string; value: string; name: string }[],
  { answer = true }: { answer?: boolean } = {},
): Promise<NodeRow[]> {
  if (!list.length) return [];
  // Written in (label, value) order whatever the caller's: concurrent writers of the same new nodes then wait for each other instead of deadlocking.
  const unique = [...new Map(list.map((node) => [`${node.label}\u0000${node.value}`, node])).values()].sort((a, b) =>
    a.label < b.label ? -1 : a.label > b.label ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0,
  );
  const labels = arrayLiteral(unique.map((n) => n.label));
  const values = arrayLiteral(unique.map((n) => n.value));
  const names = arrayLiteral(unique.map((n) => n.name));
  await db.execute(
    sql`INSERT INTO nodes (label, value, name)
        SELECT * FROM unnest(${labels}::text[], ${values}::text[], ${names}::text[]) AS wanted(label, value, name)
        WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.label = wanted.label AND n.value = wanted.value AND n.name = wanted.name OFFSET 0)
        ON CONFLICT (label, value) DO UPDATE SET name = excluded.name WHERE nodes.name IS DISTINCT FROM excluded.name`,
  );
  if (!answer) return [];
  return rows<NodeRow>(
    db,
    sql`SELECT n.id, n.label, n.value, n.name FROM nodes n JOIN unnest(${labels}::text[], ${values}::text[]) AS wanted(label, value)
        ON n.label = wanted.label AND n.value = wanted.value`,
  );
}

export interface NodeSearch {
  term: string;
  limit: number;
  label?: NodeLabel;
  /** Outside the group page, User results must end with one of these domains (spec §5). */
  userDomains: string[] | null;
  excludeAttachedTo?: { audienceId?: number; groupId?: number };
  /**
   * 'group': the group page's order, Feed, Document and App first (spec §4). 'criteria' (the audience editor and
   * the other searches, docs/audiences.md, criteria search): names where the term starts a word first, attribute labels (Specialty,
   * Profession, …) before feeds and apps, before keywords and groups, before documents, adverts and users; then
   * names starting with the term, shorter names first.
   */
  order?: 'group' | 'criteria';
}

/** The criteria ranking's tiers: what a person is first, then what they follow, then what they did. */
const CRITERIA_LABEL_TIER = sql.raw(
  `CASE n.label WHEN 'Specialty' THEN 0 WHEN 'Profession' THEN 0 WHEN 'Title' THEN 0 WHEN 'Role' THEN 0 WHEN 'Area' THEN 0
   WHEN 'Country' THEN 0 WHEN 'Zip' THEN 0 WHEN 'Zipcode' THEN 0 WHEN 'Uga' THEN 0 WHEN 'Workplace' THEN 0
   WHEN 'Feed' THEN 1 WHEN 'App' THEN 1 WHEN 'Keyword' THEN 2 WHEN 'OrGroup' THEN 2 WHEN 'AndGroup' THEN 2 ELSE 3 END`,
);

const escapeRegex = (text: string) => text.replace(/[.^$*+?()[\]{}|\\-]/g, (c) => `\\${c}`);

/** Criteria search with the filters of spec §5, in the order of `search.order` (group page or criteria ranking). */
export function searchNodes(db: Executor, search: NodeSearch) {
  const folded = foldForSearch(sql`${search.term}`);
  const name = foldForSearch(sql`n.name`);
  // 0: the name starts with the term; 1: a word of it does ('cardio' in 'Maladies cardio-vasculaires'); 2: inside a word.
  const match = sql`CASE WHEN starts_with(${name}, ${folded}) THEN 0 WHEN ${name} ~ ('(^|[^a-z0-9])' || ${foldForSearch(sql`${escapeRegex(search.term)}`)}) THEN 1 ELSE 2 END`;
  const order =
    search.order === 'group'
      ? sql`CASE n.label WHEN 'Feed' THEN 0 WHEN 'Document' THEN 1 WHEN 'App' THEN 2 ELSE 3 END, length(n.name), n.name, n.id`
      : sql`(${match}) = 2, ${CRITERIA_LABEL_TIER}, ${match}, length(n.name), n.name, n.id`;
  const pattern = sql`'%' || replace(replace(replace(${folded}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
  const domains = search.userDomains;
  const attached = search.excludeAttachedTo;
  return rows<NodeRow>(
    db,
    sql`SELECT n.id, n.label, n.value, n.name FROM nodes n
        WHERE ${foldForSearch(sql`n.name`)} LIKE ${pattern}
          ${search.label ? sql`AND n.label = ${search.label}` : sql``}
          AND (n.label <> 'Zip' OR n.value ~ '^[0-9]{2}$')
          AND NOT (n.label = 'Role' AND n.value = 'ROLE_PROSPECT')
          ${
            domains
              ? sql`AND (n.label <> 'User' OR EXISTS (SELECT 1 FROM unnest(${param(domains)}::text[]) d WHERE lower(n.name) LIKE '%@' || lower(d)))`
              : sql``
          }
          ${attached?.audienceId ? sql`AND NOT EXISTS (SELECT 1 FROM relationships r WHERE r.audience_id = ${attached.audienceId} AND r.node_id = n.id)` : sql``}
          ${attached?.groupId ? sql`AND NOT EXISTS (SELECT 1 FROM relationships r WHERE r.group_id = ${attached.groupId} AND r.node_id = n.id) AND n.id <> ${attached.groupId}` : sql``}
        ORDER BY ${order}
        LIMIT ${search.limit}`,
  );
}

// ---- app users ------------------------------------------------------------------------------------------------

export interface AppUserResult {
  id: number;
  email: string;
  name: string;
  relsCount: number;
}

/** E-mail prefix, case-insensitive (app_users_email_prefix_idx), with each user's interactions count. */
export function usersByEmailPrefix(db: Executor, term: string, limit: number) {
  const prefix = term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + '%';
  return rows<AppUserResult>(
    db,
    sql`SELECT u.id, u.email, u.name, (SELECT count(*)::int FROM interaction_events e WHERE e.user_id = u.id) AS "relsCount"
        FROM app_users u WHERE lower(u.email) LIKE ${prefix} ORDER BY lower(u.email), u.id LIMIT ${limit}`,
  );
}

/** An app user as read for the engine: its matching attributes, and what identifies it to people. */
export interface UserAttributeRow extends UserAttributes {
  externalId: string;
  email: string;
}

export const userAttributeColumns = sql`id, external_id AS "externalId", email, profession_id AS "professionId", specialty_id AS "specialtyId", title, area,
  country_id AS "countryId", zipcode, uga, workplace, roles, feeds, apps`;

// ---- audience and group definitions ---------------------------------------------------------------------------

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

export interface GroupRow {
  id: number;
  name: string;
  label: Group['label'];
  updatedAt: Date | string;
  audiencesCount: number;
  version: number;
}

export async function groupRow(db: Executor, id: number): Promise<GroupRow | undefined> {
  const [row] = await rows<GroupRow>(
    db,
    sql`SELECT g.node_id AS id, n.name, n.label, g.updated_at AS "updatedAt", g.version,
          (SELECT count(DISTINCT r.audience_id)::int FROM relationships r WHERE r.node_id = g.node_id AND r.audience_id IS NOT NULL) AS "audiencesCount"
        FROM audience_groups g JOIN nodes n ON n.id = g.node_id WHERE g.node_id = ${id}`,
  );
  return row;
}

/** A group's name and label, its row locked until the transaction ends. */
export interface LockedGroup {
  name: string;
  label: Group['label'];
  version: number;
  updatedAt: Date | string;
  editorName: string | null;
}

export async function lockGroup(db: Executor, id: number): Promise<LockedGroup | undefined> {
  const [row] = await rows<LockedGroup>(
    db,
    sql`SELECT n.name, n.label, g.version, g.updated_at AS "updatedAt", (SELECT e.name FROM accounts e WHERE e.id = g.updated_by) AS "editorName"
        FROM audience_groups g JOIN nodes n ON n.id = g.node_id WHERE g.node_id = ${id} FOR UPDATE OF g`,
  );
  return row;
}

/** A page of group ids in name order, with the count of all that match. */
export function groupIdsPage(db: Executor, term: string | undefined, limit: number, skip: number) {
  const where = term ? sql`AND ${foldForSearch(sql`n.name`)} LIKE '%' || ${foldForSearch(sql`${term}`)} || '%'` : sql``;
  return rows<{ id: number; total: number }>(
    db,
    sql`SELECT g.node_id AS id, count(*) OVER ()::int AS total FROM audience_groups g JOIN nodes n ON n.id = g.node_id WHERE true ${where}
        ORDER BY lower(n.name), g.node_id LIMIT ${limit} OFFSET ${skip}`,
  );
}

/** A group is a node of its label with a row in audience_groups. */
export async function insertGroup(db: Executor, name: string, label: Group['label']): Promise<number> {
  const [node] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO nodes (label, value, name) VALUES (${label}, gen_random_uuid()::text, ${name}) RETURNING id`,
  );
  await db.execute(sql`INSERT INTO audience_groups (node_id) VALUES (${node.id})`);
  return node.id;
}

export async function renameNode(db: Executor, id: number, name: string): Promise<void> {
  await db.execute(sql`UPDATE nodes SET name = ${name} WHERE id = ${id}`);
}

/** A change of a group: its date, its next version and who made it (docs/architecture.md, "Versions and conflicts"). */
export async function touchGroup(db: Executor, id: number, by: number | null = null): Promise<void> {
  await db.execute(sql`UPDATE audience_groups SET updated_at = now(), version = version + 1, updated_by = ${by} WHERE node_id = ${id}`);
}

/** A change of an audience's definition: its next version and who made it. */
export async function touchAudience(db: Executor, id: number, by: number | null): Promise<void> {
  await db.execute(sql`UPDATE audiences SET updated_at = now(), version = version + 1, updated_by = ${by} WHERE id = ${id}`);
}

/** Deletes nodes (their relationships and group rows go with them); answers the ids that were there. */
export async function deleteNodes(db: Executor, ids: number[]): Promise<number[]> {
  const deleted = await rows<{ id: number }>(db, sql`DELETE FROM nodes WHERE id = ANY(${param(ids)}::int[]) RETURNING id`);
  return deleted.map((row) => row.id);
}

// ---- relationships of definitions ------------------------------------------------------------------------------

/** The audience or group a relationship belongs to. */
export type RelationshipOwner = { audienceId: number } | { groupId: number };

const ownerColumn = (owner: RelationshipOwner) => sql.raw('audienceId' in owner ? 'audience_id' : 'group_id');
const ownerId = (owner: RelationshipOwner) => ('audienceId' in owner ? owner.audienceId : owner.groupId);

/** A relationship to insert: its node resolved and checked. */
export interface NewRelationship {
  nodeId: number;
  type: Criterion['type'];
  kind: Criterion['kind'];
  event: string | null;
  caping: number | null;
}

export async function insertRelationships(db: Executor, owner: RelationshipOwner, list: NewRelationship[]): Promise<void> {
  if (!list.length) return;
  await db.execute(
    sql`INSERT INTO relationships (${ownerColumn(owner)}, node_id, type, kind, event, caping)
        SELECT ${ownerId(owner)}, * FROM unnest(${param(list.map((r) => r.nodeId))}::int[], ${param(list.map((r) => r.type))}::text[],
          ${param(list.map((r) => r.kind))}::text[], ${param(list.map((r) => r.event))}::text[], ${param(list.map((r) => r.caping))}::int[])`,
  );
}

/** Required AND relationships to these nodes, those the owner has not already; answers how many were added. */
export async function attachNodes(db: Executor, owner: RelationshipOwner, nodeIds: number[]): Promise<number> {
  const column = ownerColumn(owner);
  const added = await rows(
    db,
    sql`INSERT INTO relationships (${column}, node_id, type, kind)
        SELECT ${ownerId(owner)}, wanted.node_id, 'AND', 'required' FROM unnest(${param(nodeIds)}::int[]) AS wanted(node_id)
        WHERE NOT EXISTS (SELECT 1 FROM relationships r WHERE r.${column} = ${ownerId(owner)} AND r.node_id = wanted.node_id) RETURNING id`,
  );
  return added.length;
}

/** Removes an owner's relationships: all of them, or only the one to `nodeId`, or only its Area relationship. */
export async function deleteRelationshipsOf(db: Executor, owner: RelationshipOwner, only?: { nodeId: number } | 'Area'): Promise<void> {
  if (only === 'Area') {
    await db.execute(
      sql`DELETE FROM relationships r USING nodes n WHERE r.${ownerColumn(owner)} = ${ownerId(owner)} AND n.id = r.node_id AND n.label = 'Area'`,
    );
  } else {
    await db.execute(
      sql`DELETE FROM relationships WHERE ${ownerColumn(owner)} = ${ownerId(owner)} ${only ? sql`AND node_id = ${only.nodeId}` : sql``}`,
    );
  }
}

export async function copyRelationships(db: Executor, from: RelationshipOwner, to: RelationshipOwner): Promise<void> {
  await db.execute(
    sql`INSERT INTO relationships (${ownerColumn(to)}, node_id, type, kind, event, caping)
        SELECT ${ownerId(to)}, node_id, type, kind, event, caping FROM relationships WHERE ${ownerColumn(from)} = ${ownerId(from)} ORDER BY id`,
  );
}

/** Audiences and groups that point at these nodes. */
export function relationshipOwners(db: Executor, nodeIds: number[]) {
  return rows<{ audienceId: number | null; groupId: number | null }>(
    db,
    sql`SELECT DISTINCT audience_id AS "audienceId", group_id AS "groupId" FROM relationships WHERE node_id = ANY(${param(nodeIds)}::int[])`,
  );
}

/** Removes relationships by (owner, node) and every relationship to `nodes` but Area ones; answers their owners. */
export function deleteRelationshipPairs(db: Executor, pairs: { source: number; target: number }[], nodes: number[]) {
  return rows<{ audienceId: number | null; groupId: number | null }>(
    db,
    sql`DELETE FROM relationships r
        WHERE (coalesce(r.audience_id, r.group_id), r.node_id) IN (SELECT * FROM unnest(${param(pairs.map((p) => p.source))}::int[], ${param(pairs.map((p) => p.target))}::int[]))
           OR (r.node_id = ANY(${param(nodes)}::int[]) AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = r.node_id AND n.label = 'Area'))
        RETURNING r.audience_id AS "audienceId", r.group_id AS "groupId"`,
  );
}

// ---- an article's own audience ---------------------------------------------------------------------------------

export async function articleExists(db: Executor, articleId: number, lock: boolean): Promise<boolean> {
  const found = await rows(db, sql`SELECT id FROM articles WHERE id = ${articleId} ${lock ? sql`FOR UPDATE` : sql``}`);
  return found.length > 0;
}

/** The id of the audience an article owns (its inline criteria), if it has one. */
export async function articleOwnAudienceId(db: Executor, articleId: number, lock = false): Promise<number | undefined> {
  const [owned] = await rows<{ id: number }>(db, sql`SELECT id FROM audiences WHERE article_id = ${articleId} ${lock ? sql`FOR UPDATE` : sql``}`);
  return owned?.id;
}

/** The nodes an audience points at, by label then name. */
export function audienceNodes(db: Executor, audienceId: number) {
  return rows<{ id: number; label: string; name: string }>(
    db,
    sql`SELECT n.id, n.label, n.name FROM relationships r JOIN nodes n ON n.id = r.node_id
        WHERE r.audience_id = ${audienceId} ORDER BY n.label, lower(n.name), n.id`,
  );
}

export async function setAudienceArea(db: Executor, audienceId: number, area: string): Promise<void> {
  await db.execute(sql`UPDATE audiences SET area = ${area}, updated_at = now() WHERE id = ${audienceId}`);
}

/** The article's audience is this one alone (in place of any saved audience it had). */
export async function setArticleAudience(db: Executor, articleId: number, audienceId: number): Promise<void> {
  await db.execute(sql`DELETE FROM article_audiences WHERE article_id = ${articleId}`);
  await db.execute(sql`INSERT INTO article_audiences (article_id, audience_id) VALUES (${articleId}, ${audienceId})`);
}

/** Deletes the audience an article owns; answers its id, if there was one. */
export async function deleteArticleOwnAudience(db: Executor, articleId: number): Promise<number[]> {
  const dropped = await rows<{ id: number }>(db, sql`DELETE FROM audiences WHERE article_id = ${articleId} RETURNING id`);
  return dropped.map((row) => row.id);
}

// ---- app users of the population -------------------------------------------------------------------------------

export async function appUserExists(db: Executor, userId: number, lock = false): Promise<boolean> {
  const found = await rows(db, sql`SELECT id FROM app_users WHERE id = ${userId} ${lock ? sql`FOR UPDATE` : sql``}`);
  return found.length > 0;
}

export function appUsersByEmails(db: Executor, lowerCaseEmails: string[]) {
  return rows<{ id: number; email: string }>(db, sql`SELECT id, email FROM app_users WHERE lower(email) = ANY(${param(lowerCaseEmails)}::text[])`);
}

/** Deletes a user's interaction events; answers the (node, event) of each. */
export function deleteUserEvents(db: Executor, userId: number) {
  return rows<{ nodeId: number; event: string }>(
    db,
    sql`DELETE FROM interaction_events WHERE user_id = ${userId} RETURNING node_id AS "nodeId", event`,
  );
}

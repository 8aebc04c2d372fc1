import type { UserAttributes } from './engine/semantics';
import { sql, type SQL } from 'drizzle-orm';
import type { NodeLabel } from '@shared/rules/audiences';
import { foldForSearch } from '../../db/schema';
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
 * Creates the missing nodes and answers them all (a known node keeps its id). A known node is renamed only when
 * its name changed: rewriting every row of a batch would cost as much as inserting it.
 */
export async function upsertNodes(db: Executor, list: { label: string; value: string; name: string }[]): Promise<NodeRow[]> {
  if (!list.length) return [];
  // Written in (label, value) order whatever the caller's: concurrent writers of the same new nodes then wait for each other instead of deadlocking.
  const unique = [...new Map(list.map((node) => [`${node.label}\u0000${node.value}`, node])).values()].sort((a, b) =>
    a.label < b.label ? -1 : a.label > b.label ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0,
  );
  const labels = param(unique.map((n) => n.label));
  const values = param(unique.map((n) => n.value));
  const names = param(unique.map((n) => n.name));
  await db.execute(
    sql`INSERT INTO nodes (label, value, name) SELECT * FROM unnest(${labels}::text[], ${values}::text[], ${names}::text[])
        ON CONFLICT (label, value) DO UPDATE SET name = excluded.name WHERE nodes.name IS DISTINCT FROM excluded.name`,
  );
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
   * the other searches, issue 21 item 13): names where the term starts a word first, attribute labels (Specialty,
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

/** Audience names by id (membership answers). */
export function audienceNames(db: Executor) {
  return rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM audiences ORDER BY lower(name), id`);
}

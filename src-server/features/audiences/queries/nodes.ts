import { sql } from 'drizzle-orm';
import type { NodeLabel } from '@shared/rules/audiences';
import { foldForSearch } from '../../../db/schema';
import { param, rows, type Executor } from '../../../db/rows';
import { arrayLiteral } from './array-literal';

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

export async function renameNode(db: Executor, id: number, name: string): Promise<void> {
  await db.execute(sql`UPDATE nodes SET name = ${name} WHERE id = ${id}`);
}

/** Deletes nodes (their relationships and group rows go with them); answers the ids that were there. */
export async function deleteNodes(db: Executor, ids: number[]): Promise<number[]> {
  const deleted = await rows<{ id: number }>(db, sql`DELETE FROM nodes WHERE id = ANY(${param(ids)}::int[]) RETURNING id`);
  return deleted.map((row) => row.id);
}

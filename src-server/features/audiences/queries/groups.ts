import { sql } from 'drizzle-orm';
import type { Group } from '@shared/contract/audiences/groups';
import { foldForSearch } from '../../../db/schema';
import { rows, type Executor } from '../../../db/rows';

// ---- group definitions ----------------------------------------------------------------------------------------

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

/** A change of a group: its date, its next version and who made it (docs/architecture.md, "Versions and conflicts"). */
export async function touchGroup(db: Executor, id: number, by: number | null = null): Promise<void> {
  await db.execute(sql`UPDATE audience_groups SET updated_at = now(), version = version + 1, updated_by = ${by} WHERE node_id = ${id}`);
}

import { sql } from 'drizzle-orm';
import type { NodeLabel } from '@shared/rules/audiences';
import { param, rows, type Executor } from '../../../db/rows';
import type { Criterion } from '../engine/semantics';

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

import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { diffSnapshots, historyAction, isEmptyChange, type DefinitionSnapshot, type SnapshotRelationship } from '@shared/rules/audience-history';
import { param, rows, type Executor } from '../../db/rows';

/** The request a write belongs to: who made it, through which operation, with what input. */
export interface WriteOrigin {
  operation: string;
  account: { id: number } | null;
  params?: unknown;
  body?: unknown;
}

/** What the audiences feature says it changed, after its work and before its commit. */
export interface ChangedDefinitions {
  audiences?: number[];
  groups?: number[];
  deletedNodes?: number[];
}

/** Definitions read before the work, by subject id. */
type Before = Map<number, DefinitionSnapshot>;

const origin = new AsyncLocalStorage<WriteOrigin>();

/** Runs a request's handler with its origin known to the recorder (who, which operation, what input). */
/** The audiences feature's writer of definitions (its transaction, the engine following after the commit). */
export type DefinitionsWriterLike = <T>(work: (tx: Executor) => Promise<ChangedDefinitions & { result: T }>) => Promise<T>;

export function withOrigin<T>(value: WriteOrigin, run: () => Promise<T>): Promise<T> {
  return origin.run(value, run);
}

const ids = (values: unknown): number[] => (Array.isArray(values) ? values.filter((v): v is number => Number.isInteger(v)) : []);

/** Every id a request names as an audience, a group or a node it removes. */
function namedIds(from: WriteOrigin): number[] {
  const params = (from.params ?? {}) as Record<string, unknown>;
  const body = (from.body && typeof from.body === 'object' && !Array.isArray(from.body) ? from.body : {}) as Record<string, unknown>;
  const named = [params.id, body.source, body.groupId, ...ids(body.ids), ...ids(body.nodes)];
  if (Array.isArray(body.relationships)) for (const r of body.relationships as { source?: unknown }[]) named.push(r?.source);
  return [...new Set(named.map(Number).filter((id) => Number.isInteger(id) && id > 0))];
}

/** Definitions of these audiences and groups as they are now in `executor`'s transaction. */
export async function loadSnapshots(executor: Executor, subjectIds: number[]): Promise<Map<number, DefinitionSnapshot>> {
  const found = new Map<number, DefinitionSnapshot>();
  if (!subjectIds.length) return found;
  const audiences = await rows<{
    id: number;
    name: string;
    type: string | null;
    area: string;
    isInCatalog: boolean;
    authorId: number | null;
    authorName: string;
    createdAt: string | Date;
  }>(
    executor,
    sql`SELECT id, name, type, area, is_in_catalog AS "isInCatalog", author_id AS "authorId", author_name AS "authorName", created_at AS "createdAt"
        FROM audiences WHERE id = ANY(${param(subjectIds)}::int[])`,
  );
  for (const a of audiences) {
    found.set(a.id, {
      kind: 'audience',
      id: a.id,
      name: a.name,
      type: a.type,
      area: a.area,
      isInCatalog: a.isInCatalog,
      authorId: a.authorId,
      authorName: a.authorName,
      createdAt: new Date(a.createdAt).getTime(),
      relationships: [],
    });
  }
  const groups = await rows<{ id: number; name: string; label: string }>(
    executor,
    sql`SELECT g.node_id AS id, n.name, n.label FROM audience_groups g JOIN nodes n ON n.id = g.node_id WHERE g.node_id = ANY(${param(subjectIds)}::int[])`,
  );
  for (const g of groups) found.set(g.id, { kind: 'group', id: g.id, name: g.name, label: g.label, relationships: [] });
  if (!found.size) return found;
  const relationships = await rows<SnapshotRelationship & { owner: number; relationshipId: number }>(
    executor,
    // One index each (relationships_audience_idx, relationships_group_idx): an OR of both would scan the table.
    sql`SELECT r.id AS "relationshipId", r.audience_id AS owner, r.node_id AS "nodeId", n.label, n.name, r.type, r.kind, r.event, r.caping
        FROM relationships r JOIN nodes n ON n.id = r.node_id
        WHERE r.audience_id = ANY(${param(audiences.map((a) => a.id))}::int[])
        UNION ALL
        SELECT r.id, r.group_id, r.node_id, n.label, n.name, r.type, r.kind, r.event, r.caping
        FROM relationships r JOIN nodes n ON n.id = r.node_id
        WHERE r.group_id = ANY(${param(groups.map((g) => g.id))}::int[])
        ORDER BY 1`,
  );
  for (const { owner, relationshipId: _, ...relationship } of relationships) found.get(owner)!.relationships.push(relationship);
  return found;
}

/**
 * Keeps the history of audiences and groups (docs/audience-history.md). Called by the audiences feature around each of its
 * writes, inside the write's transaction: `before` reads the definitions the request names (and those that point
 * at nodes it removes), `after` compares them with what the work left and writes one row per changed subject. So
 * a change and its history commit together or not at all.
 */
export class HistoryRecorder {
  async before(tx: Executor): Promise<Before> {
    const from = origin.getStore();
    if (!from) return new Map();
    const named = namedIds(from);
    if (!named.length) return new Map();
    // Audiences and groups pointing at a named node lose that relationship when the node goes (group deleted).
    const owners = await rows<{ id: number }>(
      tx,
      sql`SELECT DISTINCT coalesce(audience_id, group_id) AS id FROM relationships WHERE node_id = ANY(${param(named)}::int[])`,
    );
    return loadSnapshots(tx, [...new Set([...named, ...owners.map((o) => o.id)])]);
  }

  async after(tx: Executor, changed: ChangedDefinitions, before: unknown): Promise<void> {
    const from = origin.getStore();
    const previous = (before instanceof Map ? before : new Map()) as Before;
    const subjects = [...new Set([...(changed.audiences ?? []), ...(changed.groups ?? []), ...(changed.deletedNodes ?? [])])];
    if (!subjects.length) return;
    const now = await loadSnapshots(tx, subjects);
    // A subject the request did not name (changed through a group) is compared with its last recorded version.
    const unknown = subjects.filter((id) => !previous.has(id));
    if (unknown.length) {
      const recorded = await rows<{ subjectId: number; snapshot: DefinitionSnapshot; action: string }>(
        tx,
        sql`SELECT DISTINCT ON (subject_id) subject_id AS "subjectId", snapshot, action FROM audience_history
            WHERE subject_id = ANY(${param(unknown)}::int[]) ORDER BY subject_id, id DESC`,
      );
      for (const row of recorded) if (row.action !== 'delete') previous.set(row.subjectId, row.snapshot);
    }
    const [account] = from?.account ? await rows<{ name: string }>(tx, sql`SELECT name FROM accounts WHERE id = ${from.account.id}`) : [];
    const entries = subjects.flatMap((id) => {
      const old = previous.get(id) ?? null;
      const current = now.get(id) ?? null;
      if (!old && !current) return [];
      const changes = diffSnapshots(old, current);
      const action = historyAction(old, current, from?.operation === 'audienceHistory.restore');
      if (action === 'update' && isEmptyChange(changes)) return [];
      const snapshot = (current ?? old)!;
      return [{ kind: snapshot.kind, id, action, changes, snapshot }];
    });
    if (!entries.length) return;
    await tx.execute(
      sql`INSERT INTO audience_history (subject_kind, subject_id, action, operation, account_id, account_name, changes, snapshot)
          SELECT k, i, a, ${from?.operation ?? ''}, ${from?.account?.id ?? null}, ${account?.name ?? ''}, c, s
          FROM unnest(${param(entries.map((e) => e.kind))}::text[], ${param(entries.map((e) => e.id))}::int[], ${param(entries.map((e) => e.action))}::text[],
                      ${param(entries.map((e) => JSON.stringify(e.changes)))}::jsonb[], ${param(entries.map((e) => JSON.stringify(e.snapshot)))}::jsonb[]) AS t(k, i, a, c, s)`,
    );
  }
}

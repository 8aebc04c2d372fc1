import { sql } from 'drizzle-orm';
import type { HistoryEntry } from '@shared/contract/audience-history';
import { MESSAGES } from '@shared/messages';
import { NO_CHANGES, type DefinitionSnapshot, type HistoryChanges, type SnapshotRelationship } from '@shared/rules/audience-history';
import type { ServerContext } from '../../../context';
import { rows } from '../../../db/rows';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import type { DefinitionsWriterLike } from '../recorder';

export type AudienceHistoryHandlers = Pick<
  Handlers,
  'audienceHistory.audience' | 'audienceHistory.group' | 'audienceHistory.deleted' | 'audienceHistory.restore'
>;

interface HistoryRow {
  id: number;
  subjectKind: HistoryEntry['subjectKind'];
  subjectId: number;
  action: HistoryEntry['action'];
  operation: string;
  accountId: number | null;
  accountName: string;
  at: string | Date;
  changes: HistoryChanges;
  /** The snapshot's name only: the whole snapshot stays in the database until a restore needs it. */
  name: string;
  total: number;
}

const historyColumns = sql`h.id, h.subject_kind AS "subjectKind", h.subject_id AS "subjectId", h.action, h.operation, h.account_id AS "accountId",
  h.account_name AS "accountName", h.at, h.changes, h.snapshot->>'name' AS name, count(*) OVER ()::int AS total`;

function toEntry(row: HistoryRow): HistoryEntry {
  return {
    id: row.id,
    subjectKind: row.subjectKind,
    subjectId: row.subjectId,
    action: row.action,
    operation: row.operation,
    accountId: row.accountId,
    accountName: row.accountName,
    at: new Date(row.at).getTime(),
    name: row.name,
    changes: { ...NO_CHANGES, ...row.changes },
  };
}

const page = (found: HistoryRow[]) => ({ items: found.map(toEntry), total: found[0]?.total ?? 0 });

/** The last row of every audience whose last change is its deletion: the audiences that can be restored. */
const deletedAudiences = sql`SELECT DISTINCT ON (subject_id) * FROM audience_history WHERE subject_kind = 'audience' ORDER BY subject_id, id DESC`;
/**
 * A snapshot with a criterion besides its area: one without (a provisional audience deleted by the editor) would
 * come back matching every user of its area, which no audience may (spec §4), so it is neither listed nor restored.
 */
const hasCriterion = sql`EXISTS (SELECT 1 FROM jsonb_array_elements(h.snapshot -> 'relationships') r WHERE r ->> 'label' <> 'Area')`;

export function audienceHistoryHandlers(context: ServerContext, writer: () => DefinitionsWriterLike): AudienceHistoryHandlers {
  const { db } = context;

  const historyOf = (kind: 'audience' | 'group', id: number, limit: number, skip: number) =>
    rows<HistoryRow>(
      db,
      sql`SELECT ${historyColumns} FROM audience_history h WHERE h.subject_id = ${id} AND h.subject_kind = ${kind}
          ORDER BY h.id DESC LIMIT ${limit} OFFSET ${skip}`,
    );

  return {
    'audienceHistory.audience': async ({ params, query }) => page(await historyOf('audience', params.id, query.limit, query.skip)),
    'audienceHistory.group': async ({ params, query }) => page(await historyOf('group', params.id, query.limit, query.skip)),

    'audienceHistory.deleted': async ({ query }) =>
      page(
        await rows<HistoryRow>(
          db,
          sql`SELECT ${historyColumns} FROM (${deletedAudiences}) h WHERE h.action = 'delete' AND ${hasCriterion}
              ORDER BY h.id DESC LIMIT ${query.limit} OFFSET ${query.skip}`,
        ),
      ),

    'audienceHistory.restore': async ({ params }) =>
      writer()(async (tx) => {
        const [last] = await rows<{ action: string; snapshot: DefinitionSnapshot }>(
          tx,
          sql`SELECT action, snapshot FROM audience_history WHERE subject_kind = 'audience' AND subject_id = ${params.id} ORDER BY id DESC LIMIT 1 FOR UPDATE`,
        );
        const [exists] = await rows(tx, sql`SELECT 1 FROM audiences WHERE id = ${params.id}`);
        if (exists) throw new HttpError(409, MESSAGES.historyAudienceExists);
        if (!last || last.action !== 'delete') throw new HttpError(404, MESSAGES.historyAudienceNotDeleted);
        const audience = last.snapshot;
        await tx.execute(
          sql`INSERT INTO audiences (id, name, type, area, is_in_catalog, author_id, author_name, created_at)
              VALUES (${params.id}, ${audience.name}, ${audience.type ?? null}, ${audience.area ?? 'french'}, ${audience.isInCatalog ?? false},
                      ${audience.authorId ?? null}, ${audience.authorName ?? ''}, ${new Date(audience.createdAt ?? Date.now()).toISOString()})`,
        );
        // The area's node is made again if it went; other criteria whose node was deleted since (a group) are skipped.
        await tx.execute(
          sql`INSERT INTO nodes (label, value, name) VALUES ('Area', ${audience.area ?? 'french'}, ${audience.area ?? 'french'}) ON CONFLICT (label, value) DO NOTHING`,
        );
        const wanted = audience.relationships.filter((r) => r.label !== 'Area');
        const present = new Set(
          (await rows<{ id: number }>(tx, sql`SELECT id FROM nodes WHERE id = ANY(${sql.param(wanted.map((r) => r.nodeId))}::int[])`)).map(
            (n) => n.id,
          ),
        );
        const kept: SnapshotRelationship[] = wanted.filter((r) => present.has(r.nodeId));
        const skipped = wanted.filter((r) => !present.has(r.nodeId));
        // Only its area left (it had no criterion, or every criterion's node went since): it would match everyone.
        if (!kept.length) throw new HttpError(409, MESSAGES.historyAudienceNoCriterion);
        await tx.execute(
          sql`INSERT INTO relationships (audience_id, node_id, type, kind) SELECT ${params.id}, id, 'AND', 'required' FROM nodes WHERE label = 'Area' AND value = ${audience.area ?? 'french'}`,
        );
        if (kept.length) {
          await tx.execute(
            sql`INSERT INTO relationships (audience_id, node_id, type, kind, event, caping)
                SELECT ${params.id}, * FROM unnest(${sql.param(kept.map((r) => r.nodeId))}::int[], ${sql.param(kept.map((r) => r.type))}::text[],
                  ${sql.param(kept.map((r) => r.kind))}::text[], ${sql.param(kept.map((r) => r.event))}::text[], ${sql.param(kept.map((r) => r.caping))}::int[])`,
          );
        }
        return { result: { id: params.id, name: audience.name, skipped }, audiences: [params.id] };
      }),
  };
}

import { sql } from 'drizzle-orm';
import type { Account } from './content-checks';
import { legacyItems } from './legacy-layout';
import { actorOf, historyOf, loadItem, param, rows, type Actor, type Executor, type Kind, type LinkedAudience } from './store';

// The reads of the content service (see content.ts), and the rows its writes read before changing anything.

/** One item, its history, the items still in the legacy layout, and the caller as the history names them. */
export function contentReads(db: Executor) {
  return {
    legacyItems: () => legacyItems(db),
    load: <K extends Kind>(kind: K, id: number) => loadItem(db, kind, id).then((found) => found.model),
    history: (kind: Kind, id: number) => historyOf(db, kind, id),
    actor: (account: Account): Promise<Actor> => actorOf(db, account),
  };
}

/** The ids of the audiences an item's copy shares: not an article's own (the caller copies its criteria). */
export async function sharedAudienceIds(db: Executor, audiences: readonly LinkedAudience[]): Promise<number[]> {
  const shared = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM audiences WHERE id = ANY(${param(audiences.map((audience) => audience.id))}::int[]) AND article_id IS NULL`,
  );
  return shared.map((audience) => audience.id);
}

/** The item's fields before a recorded change of it; null when the entry is not the item's or records none. */
export async function fieldsBefore(db: Executor, kind: Kind, id: number, entryId: number): Promise<Record<string, unknown> | null> {
  const [entry] = await rows<{ before: Record<string, unknown> | null }>(
    db,
    sql`SELECT before FROM content_history WHERE id = ${entryId} AND kind = ${kind} AND item_id = ${id}`,
  );
  return entry?.before ?? null;
}

import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { flatValues, joined, publishedValues, ValuesByPair, type FlatValues, type GroupedValues } from './bulk-values';
import { idsToBase64, type AudienceEngine, type BulkUsers, type BulkUsersIds } from './engine/engine';
import { isUniqueViolation } from '../../accounts/queries';
import { attributeNodeName, retryingDeadlockOnce } from './population';
import { rows, type Executor } from '../../db/rows';
import { upsertNodes } from './queries/nodes';
import { chunkMerge, lockAndUpdateChunk, updateChunkInPlace, type UserStage } from './chunk-statements';

/** Users merged per statement: each chunk's changes go to other instances as one population_changes row. */
const MERGE_CHUNK = 50_000;

export interface StagedMergeOptions {
  /** After each chunk, inside the transaction: the users written so far. A throw rolls everything back. */
  onProgress?: (written: number) => Promise<void> | void;
  /** Users a statement (tests use small chunks). */
  chunkSize?: number;
}

/** The nodes of these values (attribute labels, named as every other writer names them), where missing or named otherwise. */
export async function ensureNodes(tx: Executor, pairs: readonly (readonly [string, string])[]): Promise<void> {
  await upsertNodes(
    tx,
    pairs.map(([label, value]) => ({ label, value, name: attributeNodeName(label, value, '') })),
    { answer: false },
  );
}

/** A chunk's outcome: the values its users held before (those that existed), those they hold now, the users. */
interface ChunkChange {
  removed: FlatValues;
  added: FlatValues;
  /** The users written (those left unchanged are not). */
  users: Uint32Array;
  inserted: number;
  /** Existing users whose values changed: one left as it was is not counted ('mis à jour' says what changed). */
  updated: number;
}

/** A chunk as other instances replay it (the engine's BulkUsers). */
function published(change: ChunkChange): BulkUsers {
  const removed = publishedValues(change.removed);
  const added = publishedValues(change.added);
  return { removed: removed.runs, removedIds: removed.ids, added: added.runs, addedIds: added.ids, users: idsToBase64(change.users) };
}

/**
 * The last external_id of each chunk of MERGE_CHUNK staged users and its number of rows, in one pass over the stage's
 * index, compared by the database (its collation orders the chunks, not JavaScript's). The last chunk's end is the
 * greatest one, read apart with the count: counting in the same pass (count(*) over the whole window) held every row
 * and took twice as long.
 */
export async function chunkEnds(tx: Executor, stage: UserStage, chunkSize: number): Promise<{ last: string; rows: number }[]> {
  const ends = await rows<{ last: string | null; n: number }>(
    tx,
    sql`SELECT last, n::int AS n FROM (
          SELECT external_id AS last, row_number() OVER (ORDER BY external_id) AS n FROM ${stage.table} WHERE ${stage.where}) s
        WHERE n % ${chunkSize} = 0
        UNION ALL SELECT max(external_id), count(*) FROM ${stage.table} WHERE ${stage.where}
        ORDER BY n`,
  );
  const chunks: { last: string; rows: number }[] = [];
  let before = 0;
  for (const { last, n } of ends) {
    if (last === null || n === before) continue;
    chunks.push({ last, rows: n - before });
    before = n;
  }
  return chunks;
}

/** How the previous chunk went: a chunk after one that held existing users looks for them first. */
export interface ChunkHistory {
  hadExisting: boolean;
}

/** A chunk's statements' answer: GroupedValues of the values now held ('added'), held before a change ('removed'). */
type ChunkGroups = GroupedValues & { side: 'added' | 'removed' | 'existing' | 'changing' };

/** Someone created, changed or deleted one of the chunk's users while the chunk was being written. */
class MergeRaced extends Error {}

/**
 * The chunk's new users (its existing ones were updated by updateInPlace), with ON CONFLICT for one created
 * since. Should it update any user (that one), it is undone to its savepoint and made again grouping every user it
 * writes: the values it replaced were not read, but those it writes are.
 */
async function mergeNewUsers(tx: Pick<Database, 'execute' | 'transaction'>, stage: UserStage, range: SQL): Promise<ChunkGroups[]> {
  try {
    return await tx.transaction(async (savepoint) => {
      const grouped = await rows<ChunkGroups>(savepoint, chunkMerge(stage, range, { fresh: false, newOnly: true }));
      if (flatValues(grouped.filter((row) => row.label === null)).updated > 0) throw new MergeRaced();
      return grouped;
    });
  } catch (error) {
    if (!(error instanceof MergeRaced)) throw error;
    return rows<ChunkGroups>(tx, chunkMerge(stage, range, { fresh: false, newOnly: false }));
  }
}

/** A count the chunk's statements answer as a row of its own ('existing', 'changing'). */
function countOf(groups: readonly ChunkGroups[], side: ChunkGroups['side']): number {
  const count = groups.find((row) => row.side === side)?.counts;
  return count ? new DataView(count.buffer, count.byteOffset, 4).getUint32(0) : 0;
}

/**
 * The chunk's existing users updated in place (updateChunkInPlace); undone to its savepoint when someone changed or
 * deleted one of them meanwhile (fewer users updated than changing): the caller then locks them first.
 */
async function updateInPlace(tx: Pick<Database, 'execute' | 'transaction'>, stage: UserStage, range: SQL): Promise<ChunkGroups[] | undefined> {
  try {
    return await tx.transaction(async (savepoint) => {
      const grouped = await rows<ChunkGroups>(savepoint, updateChunkInPlace(stage, range));
      const { updated } = flatValues(grouped.filter((row) => row.label === null && row.side === 'added'));
      if (updated !== countOf(grouped, 'changing')) throw new MergeRaced();
      return grouped.filter((row) => row.side !== 'changing');
    });
  } catch (error) {
    if (error instanceof MergeRaced) return undefined;
    throw error;
  }
}

/**
 * One chunk (the stage's rows `range` selects, `staged` of them): its existing users updated where they
 * change, then its new users merged (skipped when every staged user exists). After a chunk of new users only, the
 * next one is first tried as new users (no lock: there are none), back to the savepoint if one exists after all.
 */
export async function mergeChunk(
  tx: Pick<Database, 'execute' | 'transaction'>,
  stage: UserStage,
  chunk: { range: SQL; staged: number },
  history: ChunkHistory,
): Promise<ChunkChange> {
  const { range } = chunk;
  const asNew = async (): Promise<ChunkGroups[] | undefined> => {
    // Back to the savepoint if someone wrote one of these users (or User nodes) since: then ON CONFLICT.
    try {
      return await tx.transaction((savepoint) => rows<ChunkGroups>(savepoint, chunkMerge(stage, range, { fresh: true, newOnly: false })));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return undefined;
    }
  };
  let grouped = history.hadExisting ? undefined : await asNew();
  let before = flatValues([]);
  let existing = 0;
  if (!grouped) {
    const written = (await updateInPlace(tx, stage, range)) ?? (await rows<ChunkGroups>(tx, lockAndUpdateChunk(stage, range)));
    existing = countOf(written, 'existing');
    before = flatValues(written.filter((row) => row.side === 'removed'));
    if (existing === 0 && history.hadExisting) grouped = await asNew();
    grouped ??= [...written.filter((row) => row.side === 'added'), ...(existing < chunk.staged ? await mergeNewUsers(tx, stage, range) : [])];
  }
  history.hadExisting = existing > 0;
  const after = flatValues(grouped.filter((row) => row.side === 'added'));
  return { removed: before.values, added: after.values, users: after.users, inserted: after.inserted, updated: after.updated };
}

/** The chunks' changes, kept until the commit. */
export class PendingChanges {
  readonly removed = new ValuesByPair();
  readonly added = new ValuesByPair();
  private readonly users: Uint32Array[] = [];

  /** Keeps a chunk's changes; answers the (label, value) pairs no earlier chunk of this merge wrote. */
  add(chunk: ChunkChange): [string, string][] {
    this.removed.add(chunk.removed);
    this.users.push(chunk.users);
    return this.added.add(chunk.added);
  }

  toBulk(): BulkUsersIds {
    return { removed: this.removed.take(), added: this.added.take(), users: joined(this.users) };
  }
}

/**
 * Upserts every user of a stage into the population in ONE transaction (all or nothing), by externalId, in
 * externalId order (the order ingestUsers locks in), 50,000 users a statement, set-based: users, their attribute
 * nodes and the values the engine indexes are written and grouped by the database. Each chunk is published for
 * other instances (population_changes, as ids) in the same transaction, and applied to this instance's engine
 * after the commit, before this answers: the engine is current when it returns.
 */
export async function mergeStagedUsers(
  db: Database,
  engine: AudienceEngine,
  stage: UserStage,
  options: StagedMergeOptions = {},
): Promise<{ inserted: number; updated: number }> {
  let changes = new PendingChanges();
  let inserted = 0;
  let updated = 0;
  let total = 0;
  // A stage just written has no statistics: its chunks were then estimated at a few rows, and the join of a chunk's
  // changed users with their old values became a nested loop over 50,000 × 50,000 rows (15 s a chunk). Analysed
  // outside the merge's transaction, whose lock would otherwise keep other imports' ANALYZE waiting until its commit.
  await db.execute(sql`ANALYZE ${stage.table}`);
  await retryingDeadlockOnce(() =>
    db.transaction(async (tx) => {
      changes = new PendingChanges();
      inserted = 0;
      updated = 0;
      total = 0;
      await engine.ownTransaction(tx);
      if (engine.follows) {
        // Each statement is planned on tens of thousands of rows: past the JIT threshold, where compiling costs more
        // than it saves (1.5 s of 5 s a chunk); and its sorts and hashes fit in memory rather than on disk.
        await tx.execute(sql`SET LOCAL jit = off`);
      }
      await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
      let after: string | null = null;
      const history: ChunkHistory = { hadExisting: false };
      for (const { last, rows: staged } of await chunkEnds(tx, stage, options.chunkSize ?? MERGE_CHUNK)) {
        const range = sql`${after === null ? sql`TRUE` : sql`external_id > ${after}`} AND external_id <= ${last}`;
        const chunk = await mergeChunk(tx, stage, { range, staged }, history);
        await ensureNodes(
          tx,
          changes.add(chunk).filter(([label]) => label !== 'Os'),
        );
        if (engine.follows) await engine.publish(tx, { kind: 'usersBulk', payload: published(chunk) });
        inserted += chunk.inserted;
        updated += chunk.updated;
        // Every staged row is a user added or found (updated, or left as it was when nothing changed).
        total += staged;
        after = last;
        await options.onProgress?.(total);
      }
    }),
  );
  engine.applyBulkUsers(changes.toBulk());
  return { inserted, updated };
}

/** The rows of a stage whose external_id is null: filled from the existing user with that e-mail (the oldest). */
export async function resolveStageByEmail(db: Executor, stage: UserStage): Promise<void> {
  await db.execute(
    sql`UPDATE ${stage.table} s SET external_id = u.external_id
        FROM (SELECT DISTINCT ON (lower(email)) lower(email) AS email, external_id FROM app_users
              WHERE lower(email) IN (SELECT lower(email) FROM ${stage.table} WHERE ${stage.where} AND external_id IS NULL)
              ORDER BY lower(email), id) u
        WHERE ${stage.where} AND s.external_id IS NULL AND lower(s.email) = u.email`,
  );
}

import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rows } from '../../db/rows';
import type { AudienceEngine } from './engine/engine';
import { chunkEnds, ensureNodes, mergeChunk, PendingChanges, type ChunkHistory, type StagedMergeOptions } from './staged-merge';
import { IMPORTED_USER_COLUMNS, type UserStage } from './chunk-statements';

/** Users merged per transaction on PGlite: a chunk takes some 30 to 60 ms there (bench pglite-writes). */
export const SHORT_MERGE_CHUNK = 500;

/** What the caller of a chunked merge does in the transaction that ends it (the list import: its job marked done). */
export interface ShortMergeEnd {
  committed?: (tx: Executor, result: { inserted: number; updated: number }) => Promise<void>;
}

type Executor = Pick<Database, 'execute'>;

/** The rows `range` selects of a stage's chunk, as a list of external ids (one probe of the index per id). */
const chunkIds = (stage: UserStage, range: SQL) => sql`ARRAY(SELECT external_id FROM ${stage.table} WHERE ${stage.where} AND ${range})`;

/** Users put back per undo statement (PGlite: one connection, other calls run between them). */
const UNDO_BATCH = 2_000;

/**
 * PGlite has one connection: while a transaction is open nothing else runs, and one transaction for a list of a
 * million users held every other call for a minute. Here each chunk is its own transaction: every staged user of
 * it is first recorded in population_undo as it is (or as absent), then merged as mergeStagedUsers does. The
 * engine (audience sizes, push counts, decisioning) is switched once, after the last chunk, so it never shows a
 * list half imported; if a chunk fails or `onProgress` throws (a cancel), the chunks written are undone
 * (undoPopulationMerge) and the engine never saw them. The transaction that ends the merge empties population_undo
 * and runs `end.committed`: a process killed before it leaves the undo rows (LOGGED, unlike the stage), and the
 * next start undoes them before the engine is built. Readers of app_users in SQL may see the chunks meanwhile.
 */
export function mergeInShortTransactions(
  db: Database,
  engine: AudienceEngine,
  stage: UserStage,
  end: ShortMergeEnd,
  options: StagedMergeOptions,
): Promise<{ inserted: number; updated: number }> {
  return withPopulationWrites(engine, () => mergeChunks(db, engine, stage, end, options));
}

const writeQueues = new WeakMap<AudienceEngine, Promise<unknown>>();

/**
 * Runs `write` after the population writes queued before it on this engine (PGlite: one process, one engine). The
 * short-transaction merge holds no row lock between its chunks, and applies the engine once at the end: a feed
 * batch that changed one of its users in between would leave the engine with the import's values and the table
 * with the feed's. The feed's users batches wait for the merge instead, as they waited for its transaction before.
 */
export function withPopulationWrites<T>(engine: AudienceEngine, write: () => Promise<T>): Promise<T> {
  const previous = writeQueues.get(engine) ?? Promise.resolve();
  const result = previous.then(write, write);
  writeQueues.set(
    engine,
    result.catch(() => undefined),
  );
  return result;
}

async function mergeChunks(
  db: Database,
  engine: AudienceEngine,
  stage: UserStage,
  end: ShortMergeEnd,
  options: StagedMergeOptions,
): Promise<{ inserted: number; updated: number }> {
  const changes = new PendingChanges();
  let inserted = 0;
  let updated = 0;
  let total = 0;
  await db.execute(sql`ANALYZE ${stage.table}`);
  let after: string | null = null;
  const history: ChunkHistory = { hadExisting: false };
  try {
    for (const { last, rows: staged } of await chunkEnds(db, stage, options.chunkSize ?? SHORT_MERGE_CHUNK)) {
      const range = sql`${after === null ? sql`TRUE` : sql`external_id > ${after}`} AND external_id <= ${last}`;
      const chunk = await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO population_undo (external_id, user_id, ${sql.raw(COLUMNS)})
          SELECT s.external_id, u.id, ${sql.raw(IMPORTED_USER_COLUMNS.map((column) => `u.${column}`).join(', '))}
          FROM unnest(${chunkIds(stage, range)}) AS s(external_id) LEFT JOIN app_users u ON u.external_id = s.external_id`);
        const merged = await mergeChunk(tx, stage, { range, staged }, history);
        await ensureNodes(
          tx,
          changes.add(merged).filter(([label]) => label !== 'Os'),
        );
        return merged;
      });
      // Only a committed chunk is undone: a failed one rolled back its copy of the users with the rest.
      inserted += chunk.inserted;
      updated += chunk.updated;
      total += staged;
      after = last;
      await options.onProgress?.(total);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await db.transaction(async (tx) => {
      await tx.execute(sql`TRUNCATE population_undo`);
      await end.committed?.(tx, { inserted, updated });
    });
  } catch (error) {
    await undoPopulationMerge(db);
    throw error;
  }
  engine.applyBulkUsers(changes.toBulk());
  // Only users whose values changed are 'mis à jour': a list imported again unchanged reports 0.
  return { inserted, updated };
}

const COLUMNS = IMPORTED_USER_COLUMNS.join(', ');

/**
 * Puts back what a chunked merge recorded in population_undo, UNDO_BATCH users a statement (each one atomic, and
 * deleting the undo rows it applied: a stop in the middle leaves the rest for the next start): users that did not
 * exist are deleted (and their User node), the others get their row back (and their User node its name). Answers
 * how many users were put back. Run after a failed or cancelled merge, and at start on PGlite (a process killed
 * mid-merge), before the audience engine is built.
 */
export async function undoPopulationMerge(db: Executor): Promise<number> {
  const assign = sql.raw(IMPORTED_USER_COLUMNS.map((column) => `${column} = b.${column}`).join(', '));
  let total = 0;
  for (;;) {
    const [done] = await rows<{ n: number }>(
      db,
      sql`WITH batch AS (DELETE FROM population_undo WHERE ctid = ANY(ARRAY(SELECT ctid FROM population_undo LIMIT ${UNDO_BATCH})) RETURNING *),
        gone AS (DELETE FROM app_users u USING batch b WHERE b.user_id IS NULL AND u.external_id = b.external_id RETURNING u.id),
        gone_nodes AS (DELETE FROM nodes WHERE label = 'User' AND value IN (SELECT id::text FROM gone) RETURNING 1),
        restored AS (UPDATE app_users u SET ${assign}, updated_at = now() FROM batch b WHERE b.user_id IS NOT NULL AND u.id = b.user_id
          RETURNING u.id, CASE WHEN b.email = '' THEN u.id::text ELSE b.email END AS name),
        renamed AS (UPDATE nodes n SET name = r.name FROM restored r WHERE n.label = 'User' AND n.value = r.id::text AND n.name IS DISTINCT FROM r.name
          RETURNING 1)
        SELECT count(*)::int AS n FROM batch`,
    );
    total += done.n;
    if (done.n < UNDO_BATCH) return total;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

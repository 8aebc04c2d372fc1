import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { AudienceEngine } from './engine/engine';
import { chunkEnds, ensureNodes, mergeChunk, PendingChanges, type ChunkHistory, type StagedMergeOptions } from './staged-merge';
import { IMPORTED_USER_COLUMNS, type UserStage } from './chunk-statements';

/** Users merged per transaction on PGlite: a chunk takes some 30 to 60 ms there (bench pglite-writes). */
export const SHORT_MERGE_CHUNK = 500;

/** Where the users a chunk finds are kept as they were: a table shaped as csv_import_rows, under `importId`. */
export interface UndoStage {
  table: SQL;
  importId: number;
}

/** The rows `range` selects of a stage's chunk, as a list of external ids (one probe of the index per id). */
const chunkIds = (stage: UserStage, range: SQL) => sql`ARRAY(SELECT external_id FROM ${stage.table} WHERE ${stage.where} AND ${range})`;

/**
 * PGlite has one connection: while a transaction is open nothing else runs, and one transaction for a list of a
 * million users held every other call for a minute. Here each chunk is its own transaction: the users it finds
 * are first copied into `undo` as they are, then merged as mergeStagedUsers does. The engine (audience sizes,
 * push counts, decisioning) is switched once, after the last chunk, so it never shows a list half imported; if a
 * chunk fails or `onProgress` throws (a cancel), the chunks written are undone, a chunk at a time (their new users
 * deleted, the others put back), and the engine never saw them. Readers of app_users in SQL may see the chunks
 * written meanwhile. A crash in between leaves the chunks written: the undo stage is UNLOGGED, like the stage.
 */
export function mergeInShortTransactions(
  db: Database,
  engine: AudienceEngine,
  stage: UserStage,
  undoStage: UndoStage,
  options: StagedMergeOptions,
): Promise<{ inserted: number; updated: number }> {
  return withPopulationWrites(engine, () => mergeChunks(db, engine, stage, undoStage, options));
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
  undoStage: UndoStage,
  options: StagedMergeOptions,
): Promise<{ inserted: number; updated: number }> {
  const undo = { table: undoStage.table, where: sql`import_id = ${undoStage.importId}` };
  const changes = new PendingChanges();
  let inserted = 0;
  let updated = 0;
  let total = 0;
  await db.execute(sql`ANALYZE ${stage.table}`);
  const ranges: SQL[] = [];
  let after: string | null = null;
  const history: ChunkHistory = { hadExisting: false };
  try {
    for (const { last, rows: staged } of await chunkEnds(db, stage, options.chunkSize ?? SHORT_MERGE_CHUNK)) {
      const range = sql`${after === null ? sql`TRUE` : sql`external_id > ${after}`} AND external_id <= ${last}`;
      const chunk = await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO ${undo.table} (import_id, line, external_id, email, name, profession_id, specialty_id, title, area, country_id,
            zipcode, uga, workplace, os, roles, feeds, apps)
          SELECT ${undoStage.importId}::int, id, external_id, email, name, profession_id, specialty_id, title, area, country_id,
            zipcode, uga, workplace, os, roles, feeds, apps
          FROM app_users WHERE external_id = ANY(${chunkIds(stage, range)})`);
        const merged = await mergeChunk(tx, stage, { range, staged }, history);
        await ensureNodes(
          tx,
          changes.add(merged).filter(([label]) => label !== 'Os'),
        );
        return merged;
      });
      // Only a committed chunk is undone: a failed one rolled back its copy of the users with the rest.
      ranges.push(range);
      inserted += chunk.inserted;
      updated += chunk.updated;
      total += staged;
      after = last;
      await options.onProgress?.(total);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (error) {
    await undoChunks(db, stage, undo, ranges);
    throw error;
  }
  engine.applyBulkUsers(changes.toBulk());
  // Only users whose values changed are 'mis à jour': a list imported again unchanged reports 0.
  return { inserted, updated };
}

/**
 * Puts back what the chunks of `ranges` wrote, one short transaction each: users that did not exist before are
 * deleted (and their User node), the others get their row as `undo` kept it (and their User node its name).
 */
async function undoChunks(db: Database, stage: UserStage, undo: UserStage, ranges: SQL[]): Promise<void> {
  const columns = IMPORTED_USER_COLUMNS;
  for (const range of ranges) {
    await db.transaction(async (tx) => {
      const kept = sql`SELECT 1 FROM ${undo.table} o WHERE ${undo.where} AND o.external_id = u.external_id`;
      await tx.execute(sql`WITH gone AS (DELETE FROM app_users u WHERE external_id = ANY(${chunkIds(stage, range)}) AND NOT EXISTS (${kept}) RETURNING id)
        DELETE FROM nodes WHERE label = 'User' AND value IN (SELECT id::text FROM gone)`);
      await tx.execute(sql`UPDATE app_users u SET ${sql.raw(columns.map((column) => `${column} = o.${column}`).join(', '))}, updated_at = now()
        FROM ${undo.table} o WHERE ${undo.where} AND o.external_id = u.external_id AND o.external_id = ANY(${chunkIds(stage, range)})`);
      await tx.execute(sql`UPDATE nodes n SET name = CASE WHEN o.email = '' THEN o.line::text ELSE o.email END
        FROM ${undo.table} o WHERE ${undo.where} AND o.external_id = ANY(${chunkIds(stage, range)})
          AND n.label = 'User' AND n.value = o.line::text AND n.name IS DISTINCT FROM CASE WHEN o.email = '' THEN o.line::text ELSE o.email END`);
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

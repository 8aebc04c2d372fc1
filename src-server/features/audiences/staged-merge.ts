import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { flatValues, joined, publishedValues, ValuesByPair, type FlatValues, type GroupedValues } from './bulk-values';
import { idsToBase64, type AudienceEngine, type BulkUsers, type BulkUsersIds } from './engine/engine';
import { isUniqueViolation } from '../../accounts/queries';
import { attributeNodeName, retryingDeadlockOnce } from './population';
import { rows, type Executor } from '../../db/rows';
import { upsertNodes } from './queries/nodes';

/** Users merged per statement: each chunk's changes go to other instances as one population_changes row. */
const MERGE_CHUNK = 50_000;

/**
 * Where staged users come from: a table holding the app_users columns (nullable: null, '' or an empty list means
 * "no value", which keeps an existing user's value) and an `external_id` on every row, unique within the stage.
 */
export interface UserStage {
  /** The staging table, e.g. sql`csv_import_rows`. */
  table: SQL;
  /** The condition selecting this stage's rows, e.g. sql`import_id = 12`. */
  where: SQL;
}

export interface StagedMergeOptions {
  /** After each chunk, inside the transaction: the users written so far. A throw rolls everything back. */
  onProgress?: (written: number) => Promise<void> | void;
  /** Users a statement (tests use small chunks). */
  chunkSize?: number;
}

/**
 * Each value the users of `source` (a CTE with app_users' columns and `inserted`) hold, grouped per label (one hash
 * of the chunk's users each: cheaper than unpivoting every value into one big grouping), then gathered into one row
 * per label (GroupedValues); the users themselves under the NULL label, as 'inserted' and 'updated'.
 */
const valueGroups = (source: SQL) => sql`
  SELECT label, array_agg(value) AS values, string_agg(int4send(length(ids) / 4), ''::bytea) AS counts, string_agg(ids, ''::bytea) AS ids FROM (
    SELECT 'Profession' AS label, profession_id::text AS value, string_agg(int4send(id), ''::bytea) AS ids FROM ${source} WHERE profession_id IS NOT NULL GROUP BY profession_id
    UNION ALL SELECT 'Specialty', specialty_id::text, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE specialty_id IS NOT NULL GROUP BY specialty_id
    UNION ALL SELECT 'Title', title, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE title <> '' GROUP BY title
    UNION ALL SELECT 'Area', area, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE area <> '' GROUP BY area
    UNION ALL SELECT 'Country', country_id::text, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE country_id IS NOT NULL GROUP BY country_id
    UNION ALL SELECT 'Zipcode', zipcode, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE zipcode <> '' GROUP BY zipcode
    UNION ALL SELECT 'Zip', left(zipcode, 2), string_agg(int4send(id), ''::bytea) FROM ${source} WHERE length(zipcode) >= 2 GROUP BY left(zipcode, 2)
    UNION ALL SELECT 'Uga', uga, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE uga <> '' GROUP BY uga
    UNION ALL SELECT 'Workplace', workplace, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE workplace <> '' GROUP BY workplace
    UNION ALL SELECT 'Role', value, string_agg(int4send(id), ''::bytea) FROM ${source}, unnest(roles) AS value GROUP BY value
    UNION ALL SELECT 'Feed', value, string_agg(int4send(id), ''::bytea) FROM ${source}, unnest(feeds) AS value GROUP BY value
    UNION ALL SELECT 'App', value, string_agg(int4send(id), ''::bytea) FROM ${source}, unnest(apps) AS value GROUP BY value
    UNION ALL SELECT 'Os', os, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE os <> '' GROUP BY os
    UNION ALL SELECT NULL, CASE WHEN inserted THEN 'inserted' ELSE 'updated' END, string_agg(int4send(id), ''::bytea) FROM ${source} GROUP BY inserted
  ) g GROUP BY label`;

/** The staged rows of a chunk as the users they write (the upsert's rows: empty texts and lists as the table holds them). */
const stagedUsers = (stage: UserStage, range: SQL) =>
  sql`SELECT external_id, coalesce(email, '') AS email, coalesce(name, '') AS name, profession_id, specialty_id, title, area, country_id,
             nullif(zipcode, '') AS zipcode, nullif(uga, '') AS uga, nullif(workplace, '') AS workplace, coalesce(roles, '{}') AS roles,
             coalesce(feeds, '{}') AS feeds, coalesce(apps, '{}') AS apps, os
      FROM ${stage.table} WHERE ${stage.where} AND ${range}`;

const TEXT_COLUMNS = ['email', 'name'] as const;
const SCALAR_COLUMNS = ['profession_id', 'specialty_id', 'title', 'area', 'country_id', 'zipcode', 'uga', 'workplace', 'os'] as const;
const LIST_COLUMNS = ['roles', 'feeds', 'apps'] as const;
/** The columns of an app user an import writes (and the chunked merge's undo puts back). */
export const IMPORTED_USER_COLUMNS: readonly string[] = [...TEXT_COLUMNS, ...SCALAR_COLUMNS, ...LIST_COLUMNS];

/**
 * What an existing user (`current`) keeps or gets from a staged row (`staged`), column by column: null, '' or an
 * empty list keep the user's value.
 */
const mergedColumns = (staged: string, current: string): [string, string][] => [
  ...TEXT_COLUMNS.map((column): [string, string] => [
    column,
    `CASE WHEN ${staged}.${column} = '' THEN ${current}.${column} ELSE ${staged}.${column} END`,
  ]),
  ...SCALAR_COLUMNS.map((column): [string, string] => [column, `coalesce(${staged}.${column}, ${current}.${column})`]),
  ...LIST_COLUMNS.map((column): [string, string] => [
    column,
    `CASE WHEN cardinality(${staged}.${column}) = 0 THEN ${current}.${column} ELSE ${staged}.${column} END`,
  ]),
];

/** Whether a staged row changes anything of the existing user (the same columns and rules as mergedColumns). */
function changes(staged: string, current: string): SQL {
  const columns = mergedColumns(staged, current);
  return sql.raw(
    `(${columns.map(([column]) => `${current}.${column}`).join(', ')}) IS DISTINCT FROM (${columns.map(([, value]) => value).join(', ')})`,
  );
}

/** Existing users are updated only where a value changes: a list imported again unchanged writes nothing. */
const upsert = sql`ON CONFLICT (external_id) DO UPDATE SET
    ${sql.raw(
      mergedColumns('excluded', 'app_users')
        .map(([column, value]) => `${column} = ${value}`)
        .join(', '),
    )}, updated_at = now()
    WHERE ${changes('excluded', 'app_users')}`;

const USER_COLUMNS = sql`id, email, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os`;

/**
 * One chunk of the stage (the rows `range` selects) in one statement: the users upserted (keeping values the stage
 * leaves empty, leaving alone those it does not change), their User nodes (named by their e-mail), and, grouped by the
 * database, each value now held with the ids of the users written ('added'; under a NULL label the written users, as
 * 'inserted' and 'updated'). No per-user row comes back; the values' own nodes are written after (ensureNodes).
 * `fresh`: no staged user exists yet, so plain INSERTs (a fifth to a half cheaper than ON CONFLICT's speculative
 * insertion); a user or User node written meanwhile by someone else then fails it (unique violation). The NOT EXISTS
 * probe ends with OFFSET 0, which keeps it a sub-plan (one probe of the (label, value) index per user): pulled up into
 * an anti join, the planner merge-joined the chunk with the whole nodes table, sorted, at every chunk.
 */
function chunkMerge(stage: UserStage, range: SQL, fresh: boolean): SQL {
  const userNodes = sql`SELECT 'User' AS label, id::text AS value, CASE WHEN email = '' THEN id::text ELSE email END AS name FROM written`;
  return sql`
    WITH written AS (
      INSERT INTO app_users (external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os)
      ${stagedUsers(stage, range)} ORDER BY external_id
      ${fresh ? sql`` : upsert}
      RETURNING ${USER_COLUMNS}, (xmax = 0) AS inserted
    ),
    user_named AS (
      INSERT INTO nodes (label, value, name)
      ${
        fresh
          ? userNodes
          : sql`SELECT * FROM (${userNodes}) u WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.label = 'User' AND n.value = u.value AND n.name = u.name OFFSET 0)
                ORDER BY value COLLATE "C"
                ON CONFLICT (label, value) DO UPDATE SET name = excluded.name WHERE nodes.name IS DISTINCT FROM excluded.name`
      }
    )
    SELECT 'added' AS side, a.* FROM (${valueGroups(sql`written`)}) a`;
}

/**
 * A chunk's existing users locked (in id order; found by one probe of the external_id index per staged user: `IN
 * (subquery)` was planned as a hash join over every app user, four times slower a chunk), and, grouped by the
 * database, the values held by those the chunk will change ('removed'), with the number locked ('locked').
 */
function lockChunk(stage: UserStage, range: SQL): SQL {
  return sql`
    WITH locked AS (
      SELECT ${USER_COLUMNS}, external_id, name, false AS inserted FROM app_users
      WHERE external_id = ANY(ARRAY(SELECT external_id FROM ${stage.table} WHERE ${stage.where} AND ${range}))
      ORDER BY id FOR UPDATE),
    changing AS (SELECT l.* FROM locked l JOIN (${stagedUsers(stage, range)}) s ON s.external_id = l.external_id WHERE ${changes('s', 'l')})
    SELECT 'removed' AS side, r.* FROM (${valueGroups(sql`changing`)}) r
    UNION ALL SELECT 'locked', NULL, '{}', int4send(count(*)::int), NULL FROM locked`;
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
type ChunkGroups = GroupedValues & { side: 'added' | 'removed' | 'locked' };

/**
 * One chunk (the stage's rows `range` selects): its existing users locked and the old values of those it changes,
 * then the merge. After a chunk of new users only, the next one is first tried as new users (no lock: there are
 * none), back to the savepoint if one exists after all.
 */
export async function mergeChunk(
  tx: Pick<Database, 'execute' | 'transaction'>,
  stage: UserStage,
  range: SQL,
  history: ChunkHistory,
): Promise<ChunkChange> {
  const asNew = async (): Promise<ChunkGroups[] | undefined> => {
    // Back to the savepoint if someone wrote one of these users (or User nodes) since: then ON CONFLICT.
    try {
      return await tx.transaction((savepoint) => rows<ChunkGroups>(savepoint, chunkMerge(stage, range, true)));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return undefined;
    }
  };
  let grouped = history.hadExisting ? undefined : await asNew();
  let before = flatValues([]);
  let existing = 0;
  if (!grouped) {
    const locked = await rows<ChunkGroups>(tx, lockChunk(stage, range));
    const count = locked.find((row) => row.side === 'locked')?.counts;
    existing = count ? new DataView(count.buffer, count.byteOffset, 4).getUint32(0) : 0;
    before = flatValues(locked.filter((row) => row.side === 'removed'));
    if (existing === 0 && history.hadExisting) grouped = await asNew();
    grouped ??= await rows<ChunkGroups>(tx, chunkMerge(stage, range, false));
  }
  history.hadExisting = existing > 0;
  const after = flatValues(grouped);
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
        const chunk = await mergeChunk(tx, stage, range, history);
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

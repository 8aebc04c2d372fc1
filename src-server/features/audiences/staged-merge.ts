import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { publishedBulkUsers, type AudienceEngine, type BulkUsersIds } from './engine/engine';
import { attributeValues } from './engine/semantics';
import { isUniqueViolation } from '../../accounts/queries';
import { retryingDeadlockOnce } from './population';
import { rows, userAttributeColumns, type Executor, type UserAttributeRow } from './queries';

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

/** The shown names of profession and specialty nodes (attributeNodeName), for the database to read. */
const REFERENCE_NAMES = JSON.stringify({
  Profession: Object.fromEntries(PROFESSIONS.map((item) => [String(item.id), item.name])),
  Specialty: Object.fromEntries(SPECIALTIES.map((item) => [String(item.id), item.name])),
});

/** The user ids aggregated by the database (4-byte big-endian integers) as numbers. */
function userIds(bytes: Uint8Array | null): Uint32Array {
  if (!bytes) return new Uint32Array(0);
  const ids = new Uint32Array(bytes.byteLength >> 2);
  new Uint8Array(ids.buffer).set(bytes.subarray(0, ids.length * 4));
  Buffer.from(ids.buffer).swap32();
  return ids;
}

/**
 * One chunk (the stage's rows with external_id in (after, last]) in one statement: the users upserted (keeping
 * values the stage leaves empty), the attribute nodes of what they hold (User nodes included; only those missing or
 * named otherwise, in (label, value) code point order as upsertNodes sorts them, so concurrent writers wait rather
 * than deadlock), and, grouped by the database, each value now held with its users' ids (attributeValues of every written user, Os as
 * the push index has it) and the written users as 'inserted' and 'updated' under a NULL label. No per-user row
 * comes back. `fresh`: no staged user exists yet, so plain INSERTs (a fifth to a half cheaper than ON CONFLICT's
 * speculative insertion); a user or User node written meanwhile by someone else then fails it (unique violation).
 * The NOT EXISTS probes end with OFFSET 0, which keeps them sub-plans (one probe of the (label, value) index per
 * value): pulled up into an anti join, the planner merge-joined the chunk's values with the whole nodes table, sorted,
 * at every chunk — and that table grows by a chunk's User nodes each time, unseen by its statistics until the commit.
 */
function chunkMerge(stage: UserStage, after: string | null, last: string, fresh: boolean): SQL {
  const range = sql`${stage.where} ${after === null ? sql`` : sql`AND external_id > ${after}`} AND external_id <= ${last}`;
  const upsert = sql`ON CONFLICT (external_id) DO UPDATE SET
        email = CASE WHEN excluded.email = '' THEN app_users.email ELSE excluded.email END,
        name = CASE WHEN excluded.name = '' THEN app_users.name ELSE excluded.name END,
        profession_id = coalesce(excluded.profession_id, app_users.profession_id), specialty_id = coalesce(excluded.specialty_id, app_users.specialty_id),
        title = coalesce(excluded.title, app_users.title), area = coalesce(excluded.area, app_users.area),
        country_id = coalesce(excluded.country_id, app_users.country_id), zipcode = coalesce(excluded.zipcode, app_users.zipcode),
        uga = coalesce(excluded.uga, app_users.uga), workplace = coalesce(excluded.workplace, app_users.workplace),
        roles = CASE WHEN cardinality(excluded.roles) = 0 THEN app_users.roles ELSE excluded.roles END,
        feeds = CASE WHEN cardinality(excluded.feeds) = 0 THEN app_users.feeds ELSE excluded.feeds END,
        apps = CASE WHEN cardinality(excluded.apps) = 0 THEN app_users.apps ELSE excluded.apps END,
        os = coalesce(excluded.os, app_users.os), updated_at = now()`;
  const userNodes = sql`SELECT 'User' AS label, id::text AS value, CASE WHEN email = '' THEN id::text ELSE email END AS name FROM written`;
  return sql`
    WITH written AS (
      INSERT INTO app_users (external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os)
      SELECT external_id, coalesce(email, ''), coalesce(name, ''), profession_id, specialty_id, title, area, country_id, nullif(zipcode, ''), nullif(uga, ''),
             nullif(workplace, ''), coalesce(roles, '{}'), coalesce(feeds, '{}'), coalesce(apps, '{}'), os
      FROM ${stage.table} WHERE ${range} ORDER BY external_id
      ${fresh ? sql`` : upsert}
      RETURNING id, email, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os, (xmax = 0) AS inserted
    ),
    attributes AS (
      SELECT w.id, a.label, a.value FROM written w CROSS JOIN LATERAL (VALUES
        ('Profession', w.profession_id::text), ('Specialty', w.specialty_id::text), ('Title', nullif(w.title, '')), ('Area', nullif(w.area, '')),
        ('Country', w.country_id::text), ('Zipcode', nullif(w.zipcode, '')), ('Zip', CASE WHEN length(w.zipcode) >= 2 THEN left(w.zipcode, 2) END),
        ('Uga', nullif(w.uga, '')), ('Workplace', nullif(w.workplace, ''))) AS a(label, value)
      WHERE a.value IS NOT NULL
      UNION ALL SELECT w.id, 'Role', value FROM written w, unnest(w.roles) AS value
      UNION ALL SELECT w.id, 'Feed', value FROM written w, unnest(w.feeds) AS value
      UNION ALL SELECT w.id, 'App', value FROM written w, unnest(w.apps) AS value
    ),
    named AS (
      INSERT INTO nodes (label, value, name)
      SELECT label, value, name FROM (
        SELECT * FROM (
          SELECT label, value, CASE WHEN label IN ('Profession', 'Specialty') THEN coalesce(${REFERENCE_NAMES}::jsonb -> label ->> value, value) ELSE value END AS name
          FROM attributes GROUP BY label, value) a
        WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.label = a.label AND n.value = a.value AND n.name = a.name OFFSET 0)
        ${fresh ? sql`` : sql`UNION ALL SELECT * FROM (${userNodes}) u WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.label = 'User' AND n.value = u.value AND n.name = u.name OFFSET 0)`}
      ) missing
      ORDER BY label COLLATE "C", value COLLATE "C"
      ON CONFLICT (label, value) DO UPDATE SET name = excluded.name WHERE nodes.name IS DISTINCT FROM excluded.name
    )
    ${fresh ? sql`, user_named AS (INSERT INTO nodes (label, value, name) ${userNodes})` : sql``}
    SELECT label, value, string_agg(int4send(id), ''::bytea) AS ids FROM (
      SELECT id, label, value FROM attributes
      UNION ALL SELECT id, 'Os', os FROM written WHERE os <> ''
      UNION ALL SELECT id, NULL, CASE WHEN inserted THEN 'inserted' ELSE 'updated' END FROM written) p
    GROUP BY label, value`;
}

interface ChunkChange {
  removed: BulkUsersIds['removed'];
  added: BulkUsersIds['added'];
  users: Uint32Array[];
}

/**
 * The last external_id of each chunk of MERGE_CHUNK staged users, in one pass over the stage's index, compared by
 * the database (its collation orders the chunks, not JavaScript's).
 */
async function chunkEnds(tx: Executor, stage: UserStage, chunkSize: number): Promise<string[]> {
  const ends = await rows<{ last: string }>(
    tx,
    sql`SELECT external_id AS last FROM (
          SELECT external_id, row_number() OVER (ORDER BY external_id) AS n, count(*) OVER () AS total FROM ${stage.table} WHERE ${stage.where}) s
        WHERE n % ${chunkSize} = 0 OR n = total ORDER BY n`,
  );
  return ends.map((end) => end.last);
}

/** One chunk (external_id in (after, last]): the old values of the users it changes (locked), then the merge. */
async function mergeChunk(
  tx: Pick<Database, 'execute' | 'transaction'>,
  stage: UserStage,
  after: string | null,
  last: string,
): Promise<ChunkChange & { inserted: number; written: number }> {
  const before = await rows<UserAttributeRow & { os: string | null }>(
    tx,
    sql`SELECT ${userAttributeColumns}, os FROM app_users WHERE external_id IN (
          SELECT external_id FROM ${stage.table} WHERE ${stage.where} ${after === null ? sql`` : sql`AND external_id > ${after}`} AND external_id <= ${last})
        ORDER BY id FOR UPDATE`,
  );
  type Grouped = { label: string | null; value: string; ids: Uint8Array };
  let grouped: Grouped[] | undefined;
  if (before.length === 0) {
    // Back to the savepoint if someone wrote one of these users (or User nodes) since: then ON CONFLICT.
    try {
      grouped = await tx.transaction((savepoint) => rows<Grouped>(savepoint, chunkMerge(stage, after, last, true)));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  grouped ??= await rows<Grouped>(tx, chunkMerge(stage, after, last, false));
  const change: ChunkChange = {
    removed: before.map((user) => ({
      id: user.id,
      pairs: [...attributeValues(user), ...(user.os ? ([['Os', user.os]] as [string, string][]) : [])],
    })),
    added: [],
    users: [],
  };
  let inserted = 0;
  let written = 0;
  for (const { label, value, ids } of grouped) {
    const users = userIds(ids);
    if (label !== null) change.added.push({ label, value, ids: users });
    else {
      change.users.push(users);
      written += users.length;
      if (value === 'inserted') inserted += users.length;
    }
  }
  return { ...change, inserted, written };
}

const joined = (lists: Uint32Array[]): Uint32Array => {
  const all = new Uint32Array(lists.reduce((total, list) => total + list.length, 0));
  let offset = 0;
  for (const list of lists) {
    all.set(list, offset);
    offset += list.length;
  }
  return all;
};

/** A growing array of 32-bit integers. */
class Growing {
  private data = new Uint32Array(1 << 16);
  length = 0;
  push(values: Uint32Array | number): void {
    const count = typeof values === 'number' ? 1 : values.length;
    if (this.length + count > this.data.length) {
      const grown = new Uint32Array(Math.max(this.data.length * 2, this.length + count));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    if (typeof values === 'number') this.data[this.length] = values;
    else this.data.set(values, this.length);
    this.length += count;
  }
  get values(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * The chunks' changes kept until the commit in a few typed arrays (a million users' values as objects per chunk
 * took hundreds of megabytes): each (label, value) once, and one (value, user id) entry per value a user holds.
 */
class PendingChanges {
  readonly removed: BulkUsersIds['removed'] = [];
  private readonly users = new Growing();
  private readonly pairs: [string, string][] = [];
  private readonly pairIndex = new Map<string, number>();
  private readonly entryPairs = new Growing();
  private readonly entryUsers = new Growing();

  add(chunk: ChunkChange): void {
    this.removed.push(...chunk.removed);
    for (const users of chunk.users) this.users.push(users);
    for (const { label, value, ids } of chunk.added) {
      const key = `${label}\u0000${value}`;
      let index = this.pairIndex.get(key);
      if (index === undefined) {
        this.pairIndex.set(key, (index = this.pairs.length));
        this.pairs.push([label, value]);
      }
      for (let at = 0; at < ids.length; at += 1) this.entryPairs.push(index);
      this.entryUsers.push(ids);
    }
  }

  /** Every value with its users (a counting sort of the entries by value). */
  toBulk(): BulkUsersIds {
    const pairs = this.entryPairs.values;
    const users = this.entryUsers.values;
    const starts = new Uint32Array(this.pairs.length + 1);
    for (const pair of pairs) starts[pair + 1] += 1;
    for (let index = 1; index < starts.length; index += 1) starts[index] += starts[index - 1];
    const sorted = new Uint32Array(users.length);
    const next = starts.slice(0, this.pairs.length);
    for (let entry = 0; entry < pairs.length; entry += 1) sorted[next[pairs[entry]]++] = users[entry];
    const added = this.pairs.map(([label, value], index) => ({ label, value, ids: sorted.subarray(starts[index], starts[index + 1]) }));
    return { removed: this.removed, added, users: this.users.values };
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
  let total = 0;
  await retryingDeadlockOnce(() =>
    db.transaction(async (tx) => {
      changes = new PendingChanges();
      inserted = 0;
      total = 0;
      await engine.ownTransaction(tx);
      if (engine.follows) {
        // Each statement is planned on tens of thousands of rows: past the JIT threshold, where compiling costs more
        // than it saves (1.5 s of 5 s a chunk); and its sorts and hashes fit in memory rather than on disk.
        await tx.execute(sql`SET LOCAL jit = off`);
      }
      await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
      let after: string | null = null;
      for (const last of await chunkEnds(tx, stage, options.chunkSize ?? MERGE_CHUNK)) {
        const chunk = await mergeChunk(tx, stage, after, last);
        changes.add(chunk);
        if (engine.follows) await engine.publish(tx, { kind: 'usersBulk', payload: publishedBulkUsers({ ...chunk, users: joined(chunk.users) }) });
        inserted += chunk.inserted;
        total += chunk.written;
        after = last;
        await options.onProgress?.(total);
      }
    }),
  );
  engine.applyBulkUsers(changes.toBulk());
  return { inserted, updated: total - inserted };
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

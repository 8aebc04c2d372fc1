import { sql, type SQL } from 'drizzle-orm';

/**
 * The SQL of one chunk of a staged merge (staged-merge.ts): the users found, compared, written, and the values they
 * lose and gain grouped per label by the database.
 */

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

/**
 * Each value the users of `source` (a CTE with app_users' columns) hold, one branch per label, each value with the ids
 * of its users (one hash of the chunk's users per label: cheaper than unpivoting every value into one big grouping).
 */
const labelBranches = (source: SQL) => sql`
    SELECT 'Profession' AS label, profession_id::text AS value, string_agg(int4send(id), ''::bytea) AS ids FROM ${source} WHERE profession_id IS NOT NULL GROUP BY profession_id
    UNION ALL SELECT 'Specialty', specialty_id::text, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE specialty_id IS NOT NULL GROUP BY specialty_id
    UNION ALL SELECT 'Title', title, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE title <> '' GROUP BY title
    UNION ALL SELECT 'Area', area, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE area <> '' GROUP BY area
    UNION ALL SELECT 'Country', country_id::text, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE country_id IS NOT NULL GROUP BY country_id
    UNION ALL SELECT 'Zipcode', zipcode, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE zipcode <> '' GROUP BY zipcode
    UNION ALL SELECT 'Zip', left(zipcode, 2), string_agg(int4send(id), ''::bytea) FROM ${source} WHERE length(zipcode) >= 2 GROUP BY left(zipcode, 2)
    UNION ALL SELECT 'Uga', uga, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE uga <> '' GROUP BY uga
    UNION ALL SELECT 'Workplace', workplace, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE workplace <> '' GROUP BY workplace
    UNION ALL SELECT 'Role', value, string_agg(int4send(id), ''::bytea) FROM ${source}, unnest(roles) AS value WHERE cardinality(roles) > 0 GROUP BY value
    UNION ALL SELECT 'Feed', value, string_agg(int4send(id), ''::bytea) FROM ${source}, unnest(feeds) AS value WHERE cardinality(feeds) > 0 GROUP BY value
    UNION ALL SELECT 'App', value, string_agg(int4send(id), ''::bytea) FROM ${source}, unnest(apps) AS value WHERE cardinality(apps) > 0 GROUP BY value
    UNION ALL SELECT 'Os', os, string_agg(int4send(id), ''::bytea) FROM ${source} WHERE os <> '' GROUP BY os`;

/** Branches of (label, value, ids) gathered into one row per label (GroupedValues). */
const perLabel = (branches: SQL) =>
  sql`SELECT label, array_agg(value) AS values, string_agg(int4send(length(ids) / 4), ''::bytea) AS counts, string_agg(ids, ''::bytea) AS ids
      FROM (${branches}) g GROUP BY label`;

/** The users of `users` (a CTE of written users with `inserted`) under the NULL label, as 'inserted' and 'updated'. */
const writtenUsers = (users: SQL) =>
  sql`SELECT NULL, CASE WHEN inserted THEN 'inserted' ELSE 'updated' END, string_agg(int4send(id), ''::bytea) FROM ${users} GROUP BY inserted`;

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

/** What a chunk's merge statement must do besides writing its users. */
interface MergeShape {
  /** No staged user exists yet: plain INSERTs (a fifth to a half cheaper than ON CONFLICT's speculative insertion). */
  fresh: boolean;
  /**
   * The chunk's existing users were updated and grouped already (updateChunkInPlace): only its new users are grouped
   * and named here; one updated all the same was created or changed by someone since (the caller checks).
   */
  newOnly: boolean;
}

/**
 * One chunk of the stage (the rows `range` selects) in one statement: the users upserted (keeping values the stage
 * leaves empty, leaving alone those it does not change), their User nodes (named by their e-mail), and, grouped by the
 * database, each value now held with the ids of the users written ('added'; under a NULL label the written users, as
 * 'inserted' and 'updated'). No per-user row comes back; the values' own nodes are written after (ensureNodes).
 * `fresh`: a user or User node written meanwhile by someone else fails it (unique violation). The NOT EXISTS probe
 * ends with OFFSET 0, which keeps it a sub-plan (one probe of the (label, value) index per user): pulled up into an
 * anti join, the planner merge-joined the chunk with the whole nodes table, sorted, at every chunk.
 */
export function chunkMerge(stage: UserStage, range: SQL, shape: MergeShape): SQL {
  const named = shape.newOnly ? sql`(SELECT * FROM written WHERE inserted) w` : sql`written`;
  const userNodes = sql`SELECT 'User' AS label, id::text AS value, CASE WHEN email = '' THEN id::text ELSE email END AS name FROM ${named}`;
  return sql`
    WITH written AS (
      INSERT INTO app_users (external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os)
      ${stagedUsers(stage, range)} ORDER BY external_id
      ${shape.fresh ? sql`` : upsert}
      RETURNING ${USER_COLUMNS}, (xmax = 0) AS inserted
    ),
    user_named AS (
      INSERT INTO nodes (label, value, name)
      ${
        shape.fresh
          ? userNodes
          : sql`SELECT * FROM (${userNodes}) u WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.label = 'User' AND n.value = u.value AND n.name = u.name OFFSET 0)
                ORDER BY value COLLATE "C"
                ON CONFLICT (label, value) DO UPDATE SET name = excluded.name WHERE nodes.name IS DISTINCT FROM excluded.name`
      }
    ),
    grouped AS (SELECT * FROM written ${shape.newOnly ? sql`WHERE inserted` : sql``})
    SELECT 'added' AS side, a.* FROM (${perLabel(sql`${labelBranches(sql`grouped`)} UNION ALL ${writtenUsers(sql`written`)}`)}) a`;
}

/** A changed user's labelled columns as one side (`o` before, `n` after) holds them, those left as they were emptied. */
const changedSide = (side: 'o' | 'n') =>
  sql.raw(
    [
      'id',
      ...SCALAR_COLUMNS.map((column) => `CASE WHEN o_${column} IS DISTINCT FROM n_${column} THEN ${side}_${column} END AS ${column}`),
      ...LIST_COLUMNS.map((column) => `CASE WHEN o_${column} IS DISTINCT FROM n_${column} THEN ${side}_${column} ELSE '{}' END AS ${column}`),
    ].join(', '),
  );

/**
 * After `changing` (a CTE: per changed user its id and each column's old `o_` and new `n_` value) and `updated` (the
 * users written): their User node renamed where the e-mail changes, and, grouped by the database, each value they lose
 * ('removed') and gain ('added'): only the labels whose value changes, so a list changing a specialty regroups no one's
 * profession or roles. Under the NULL label the users updated.
 */
const changedValues = sql`
    renamed AS (
      INSERT INTO nodes (label, value, name)
      SELECT 'User', id::text, CASE WHEN n_email = '' THEN id::text ELSE n_email END FROM changing WHERE o_email IS DISTINCT FROM n_email
      ORDER BY id::text COLLATE "C"
      ON CONFLICT (label, value) DO UPDATE SET name = excluded.name WHERE nodes.name IS DISTINCT FROM excluded.name),
    before_change AS (SELECT ${changedSide('o')} FROM changing),
    after_change AS (SELECT ${changedSide('n')} FROM changing)
    SELECT 'removed' AS side, r.* FROM (${perLabel(labelBranches(sql`before_change`))}) r
    UNION ALL SELECT 'added', a.* FROM (${perLabel(sql`${labelBranches(sql`after_change`)} UNION ALL ${writtenUsers(sql`updated`)}`)}) a`;

/** Each column of a changed user as it was (`o_`, from the row `current`) and as the staged row `staged` makes it (`n_`). */
const oldAndNew = (staged: string, current: string) =>
  sql.raw(
    mergedColumns(staged, current)
      .map(([column, value]) => `${current}.${column} AS o_${column}, ${value} AS n_${column}`)
      .join(', '),
  );

/** The update's SET list: each column to its new value in `changing`. */
const assignments = sql.raw(
  mergedColumns('s', 'l')
    .map(([column]) => `${column} = c.n_${column}`)
    .join(', '),
);

/**
 * The staged rows of a chunk with the existing users they name: found by one probe of the external_id index per staged
 * user (`IN (subquery)` and a plain join were planned as a hash join over every app user), then joined by hash.
 */
const foundUsers = (stage: UserStage, range: SQL, columns: SQL, lock: SQL) => sql`
    staged AS MATERIALIZED (${stagedUsers(stage, range)}),
    found AS (
      SELECT ${columns} FROM (SELECT ${USER_COLUMNS}, external_id, name, ctid, xmin FROM app_users
        WHERE external_id = ANY(ARRAY(SELECT external_id FROM staged)) ${lock}) l
      JOIN staged s ON s.external_id = l.external_id)`;

/**
 * A chunk's existing users updated where the chunk changes them, in one pass and without locking first: each user is
 * read (found by external_id), compared, and written at the row version read (its ctid and xmin), so that the values
 * it held before ('removed') are those the update replaced. A user someone else changes or deletes meanwhile fails that
 * condition and is left out: the caller compares the users updated ('updated' under the NULL label) with those that
 * should have been ('changing') and, should they differ, undoes the statement and locks (lockAndUpdateChunk). With the
 * number of existing users ('existing'). Users the chunk leaves as they were are neither locked nor written: a list
 * imported again unchanged no longer locks every user it names until its commit (nor writes a lock record for each).
 */
export function updateChunkInPlace(stage: UserStage, range: SQL): SQL {
  return sql`
    WITH ${foundUsers(stage, range, sql`l.id, l.ctid AS row_at, l.xmin AS version, ${changes('s', 'l')} AS changes, ${oldAndNew('s', 'l')}`, sql``)},
    changing AS (SELECT * FROM found WHERE changes),
    updated AS (
      UPDATE app_users u SET ${assignments}, updated_at = now() FROM changing c WHERE u.ctid = c.row_at AND u.xmin = c.version
      RETURNING u.id, false AS inserted),
    ${changedValues}
    UNION ALL SELECT 'existing', NULL, '{}', int4send(count(*)::int), NULL FROM found
    UNION ALL SELECT 'changing', NULL, '{}', int4send(count(*)::int), NULL FROM changing`;
}

/**
 * A chunk's existing users locked (in id order), those the chunk changes updated in the same statement (by id, as
 * locked: nothing else can change them in between), their values grouped as updateChunkInPlace groups them. Used when
 * someone changed one of the chunk's users while it was updated in place.
 */
export function lockAndUpdateChunk(stage: UserStage, range: SQL): SQL {
  return sql`
    WITH ${foundUsers(stage, range, sql`l.id, ${changes('s', 'l')} AS changes, ${oldAndNew('s', 'l')}`, sql`ORDER BY id FOR UPDATE`)},
    changing AS (SELECT * FROM found WHERE changes),
    updated AS (UPDATE app_users u SET ${assignments}, updated_at = now() FROM changing c WHERE u.id = c.id RETURNING u.id, false AS inserted),
    ${changedValues}
    UNION ALL SELECT 'existing', NULL, '{}', int4send(count(*)::int), NULL FROM found`;
}

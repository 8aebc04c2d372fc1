import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { AudienceEngine } from './engine/engine';
import { attributeValues } from './engine/semantics';
import { retryingDeadlockOnce, upsertAttributeNodes } from './population';
import { rows, userAttributeColumns, type Executor, type UserAttributeRow } from './queries';

/** Users merged per statement: each chunk's changes go to other instances as one population_changes row. */
const MERGE_CHUNK = 20_000;

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
}

/**
 * The attribute changes of a merge, kept compact until the commit (a million users as objects of string pairs would
 * take a gigabyte): each distinct (label, value) pair once, each user's pairs as indexes in one growing array.
 */
class CompactChanges {
  private readonly pairs: [string, string][] = [];
  private readonly pairIndex = new Map<string, number>();
  private ids = new Int32Array(1024);
  private offsets = new Int32Array(2048);
  private values = new Int32Array(16_384);
  private count = 0;
  private used = 0;

  private intern(pair: [string, string]): number {
    const key = `${pair[0]}\u0000${pair[1]}`;
    let index = this.pairIndex.get(key);
    if (index === undefined) {
      index = this.pairs.length;
      this.pairs.push(pair);
      this.pairIndex.set(key, index);
    }
    return index;
  }

  private push(value: number): void {
    if (this.used === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.used++] = value;
  }

  add(id: number, before: [string, string][], after: [string, string][]): void {
    if (this.count === this.ids.length) {
      const ids = new Int32Array(this.ids.length * 2);
      ids.set(this.ids);
      this.ids = ids;
      const offsets = new Int32Array(this.offsets.length * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
    }
    this.ids[this.count] = id;
    this.push(before.length);
    for (const pair of before) this.push(this.intern(pair));
    for (const pair of after) this.push(this.intern(pair));
    this.offsets[this.count] = this.used;
    this.count += 1;
  }

  clear(): void {
    this.count = 0;
    this.used = 0;
  }

  /** Applies every change to the engine's index, in the order they were made. */
  applyTo(engine: AudienceEngine): void {
    let start = 0;
    for (let user = 0; user < this.count; user += 1) {
      const end = this.offsets[user];
      const beforeCount = this.values[start];
      const before: [string, string][] = [];
      const after: [string, string][] = [];
      for (let at = start + 1; at < end; at += 1) (at <= start + beforeCount ? before : after).push(this.pairs[this.values[at]]);
      engine.applyUsers({ kind: 'users', payload: { users: [{ id: this.ids[user], before, after }] } });
      start = end;
    }
  }
}

/** One chunk: lock the users it changes, upsert them (keeping values the stage leaves empty), nodes, changes. */
async function mergeChunk(tx: Executor, stage: UserStage, after: string | null) {
  const chunk = sql`SELECT * FROM ${stage.table} WHERE ${stage.where} ${after === null ? sql`` : sql`AND external_id > ${after}`} ORDER BY external_id LIMIT ${MERGE_CHUNK}`;
  const before = await rows<UserAttributeRow>(
    tx,
    sql`SELECT ${userAttributeColumns} FROM app_users WHERE external_id IN (SELECT external_id FROM (${chunk}) c) ORDER BY id FOR UPDATE`,
  );
  const written = await rows<UserAttributeRow & { inserted: boolean }>(
    tx,
    sql`INSERT INTO app_users (external_id, email, name, profession_id, specialty_id, title, area, country_id, zipcode, uga, workplace, roles, feeds, apps, os)
        SELECT external_id, coalesce(email, ''), coalesce(name, ''), profession_id, specialty_id, title, area, country_id, nullif(zipcode, ''), nullif(uga, ''),
               nullif(workplace, ''), coalesce(roles, '{}'), coalesce(feeds, '{}'), coalesce(apps, '{}'), os
        FROM (${chunk}) s ORDER BY external_id
        ON CONFLICT (external_id) DO UPDATE SET
          email = CASE WHEN excluded.email = '' THEN app_users.email ELSE excluded.email END,
          name = CASE WHEN excluded.name = '' THEN app_users.name ELSE excluded.name END,
          profession_id = coalesce(excluded.profession_id, app_users.profession_id), specialty_id = coalesce(excluded.specialty_id, app_users.specialty_id),
          title = coalesce(excluded.title, app_users.title), area = coalesce(excluded.area, app_users.area),
          country_id = coalesce(excluded.country_id, app_users.country_id), zipcode = coalesce(excluded.zipcode, app_users.zipcode),
          uga = coalesce(excluded.uga, app_users.uga), workplace = coalesce(excluded.workplace, app_users.workplace),
          roles = CASE WHEN cardinality(excluded.roles) = 0 THEN app_users.roles ELSE excluded.roles END,
          feeds = CASE WHEN cardinality(excluded.feeds) = 0 THEN app_users.feeds ELSE excluded.feeds END,
          apps = CASE WHEN cardinality(excluded.apps) = 0 THEN app_users.apps ELSE excluded.apps END,
          os = coalesce(excluded.os, app_users.os), updated_at = now()
        RETURNING ${userAttributeColumns}, (xmax = 0) AS inserted`,
  );
  await upsertAttributeNodes(tx, written);
  // The key to go on from, compared by the database (its collation orders the chunks, not JavaScript's).
  const [{ last }] = await rows<{ last: string | null }>(tx, sql`SELECT max(external_id) AS last FROM (${chunk}) c`);
  return { before, written, last };
}

/**
 * Upserts every user of a stage into the population in ONE transaction (all or nothing), by externalId, in
 * externalId order (the order ingestUsers locks in), chunk by chunk: each chunk's attribute changes are published
 * for other instances (population_changes) in the same transaction, and applied to this instance's engine after
 * the commit, before this answers: the engine is current when it returns.
 */
export async function mergeStagedUsers(
  db: Database,
  engine: AudienceEngine,
  stage: UserStage,
  options: StagedMergeOptions = {},
): Promise<{ inserted: number; updated: number }> {
  const changes = new CompactChanges();
  let inserted = 0;
  let total = 0;
  await retryingDeadlockOnce(() =>
    db.transaction(async (tx) => {
      changes.clear();
      inserted = 0;
      total = 0;
      await engine.ownTransaction(tx);
      let after: string | null = null;
      for (;;) {
        const chunk = await mergeChunk(tx, stage, after);
        if (!chunk.written.length) break;
        const previous = new Map(chunk.before.map((user) => [user.id, attributeValues(user)]));
        const published: { id: number; before: [string, string][]; after: [string, string][] }[] = [];
        for (const user of chunk.written) {
          if (user.inserted) inserted += 1;
          const change = { id: user.id, before: previous.get(user.id) ?? [], after: attributeValues(user) };
          changes.add(change.id, change.before, change.after);
          if (engine.follows) published.push(change);
        }
        if (published.length) await engine.publish(tx, { kind: 'users', payload: { users: published } });
        total += chunk.written.length;
        after = chunk.last;
        await options.onProgress?.(total);
      }
    }),
  );
  changes.applyTo(engine);
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

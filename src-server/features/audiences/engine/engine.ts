import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, DatabaseKind } from '../../../db/client';
import { audienceRelationships, groupRelationships } from '../queries/relationships';
import { param, rows, type Executor } from '../../../db/rows';
import { AudienceIndex, INDEXED_ITEM_LABELS } from './bitmap-index';
import { lastAppliedMigration } from '../../../ops/readiness';
import { readIndexFile, readIndexFileHeader, writeIndexFile } from './index-file';
import {
  audienceDefinitions,
  groupDefinitions,
  groupLabels,
  loadDefinitions,
  loadInteractions,
  loadUserColumns,
  loadUserLists,
  loadZipcodes,
  type AudienceDefinition,
} from './loaders';

type AttributePairs = [string, string][];

/** What other instances replay from population_changes (the events table they read directly). */
export type PopulationChange =
  | { kind: 'users'; payload: { users: { id: number; before: AttributePairs; after: AttributePairs }[] } }
  | { kind: 'usersBulk'; payload: BulkUsers }
  | { kind: 'reset'; payload: { userId: number; pairs: [number, string][] } }
  | { kind: 'audiences'; payload: { ids: number[] } }
  | { kind: 'groups'; payload: { ids: number[] } }
  | { kind: 'nodesDeleted'; payload: { ids: number[] } };

/**
 * Users written in bulk (the CSV list import: tens of thousands a statement), as the database aggregated them: every
 * value that the existing users it changed held before, with those users; every value the users it wrote hold now,
 * with them; then the users it wrote. Ids travel as base64 of little-endian 32-bit integers, so that other instances
 * replay a million users from a few megabytes.
 */
export interface BulkUsers {
  /** Per label, each value held before a change and how many ids of `removedIds` (taken in order) held it. */
  removed: { label: string; values: string[]; counts: number[] }[];
  removedIds: string;
  /** Per label, each value now held and how many ids of `addedIds` (taken in order) hold it. */
  added: { label: string; values: string[]; counts: number[] }[];
  addedIds: string;
  users: string;
}

/** A value with its users' ids. */
export interface ValueUsers {
  label: string;
  value: string;
  ids: Uint32Array;
}

/** BulkUsers with its ids as numbers, as this instance applies it. */
export interface BulkUsersIds {
  removed: ValueUsers[];
  added: ValueUsers[];
  users: Uint32Array;
}

/** Ids as BulkUsers carries them. */
export const idsToBase64 = (ids: Uint32Array): string => Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength).toString('base64');

function idsFromBase64(text: string): Uint32Array {
  const bytes = Buffer.from(text, 'base64');
  const ids = new Uint32Array(bytes.byteLength >> 2);
  new Uint8Array(ids.buffer).set(bytes.subarray(0, ids.length * 4));
  return ids;
}

/** Values with their counts and the base64 of their ids one after the other, back to each value's ids. */
function valueUsers(runs: BulkUsers['added'], base64: string): ValueUsers[] {
  const ids = idsFromBase64(base64);
  const values: ValueUsers[] = [];
  let at = 0;
  for (const { label, values: held, counts } of runs) {
    held.forEach((value, index) => {
      values.push({ label, value, ids: ids.subarray(at, at + counts[index]) });
      at += counts[index];
    });
  }
  return values;
}

/** A BulkUsers as published, back to ids. */
function bulkUsersIds(bulk: BulkUsers): BulkUsersIds {
  return { removed: valueUsers(bulk.removed, bulk.removedIds), added: valueUsers(bulk.added, bulk.addedIds), users: idsFromBase64(bulk.users) };
}

/**
 * How long a population_changes row is kept once every transaction before it has finished (see pruneChanges). An
 * instance that has not followed for half of it rebuilds instead of replaying, so pruning never makes it miss one.
 */
export const CHANGES_RETENTION_MS = 10 * 60 * 1000;

/**
 * The audience engine: the bitmap index plus the audience and group definitions, built from the database and
 * kept current by the feature's writes (applied after their commit, before the answer) and, on PostgreSQL, by
 * following what other instances write. The database stays the source of truth: `rebuild()` at any time.
 */
export class AudienceEngine {
  readonly index = new AudienceIndex();
  private readonly audiences = new Map<number, AudienceDefinition>();
  /** Our own writing transactions, so that following does not apply them twice. */
  private readonly ownTransactions = new Set<bigint>();
  /** Snapshot of the last build: rows it saw are never replayed. */
  private buildSnapshot = '';
  private followedUpTo = 0n;
  private following: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;
  /** When following last succeeded (or the index was built): too long ago, replaying could miss pruned changes. */
  private lastFollowedAt = 0;
  /** (time, horizon): at that time, every transaction before the horizon had finished. Pruning reads them. */
  private horizons: { at: number; upTo: bigint }[] = [];
  private lastPrunedAt = 0;
  /** Moves after every change of app users' attributes this index applies (see attributesVersion). */
  private attributesChanges = 0;

  constructor(
    private readonly db: Database,
    private readonly dbKind: DatabaseKind,
    private readonly logger: Logger,
  ) {}

  /**
   * A number that moves whenever this index applies a change of app users' attributes: its own writes after their
   * commit, other instances' as it follows them, a rebuild. Caches of user fields (laboratory tag counts) compare it.
   */
  get attributesVersion(): number {
    return this.attributesChanges;
  }

  get follows(): boolean {
    return this.dbKind === 'postgresql';
  }

  /** Whether a build finished, and how long ago following last succeeded (readiness and metrics, src-server/ops). */
  get status(): { built: boolean; followLagMs: number | undefined } {
    return { built: this.buildSnapshot !== '', followLagMs: this.buildSnapshot && this.follows ? Date.now() - this.lastFollowedAt : undefined };
  }

  // ---- build --------------------------------------------------------------------------------------------------

  /** Builds everything from one consistent snapshot of the database. */
  async rebuild(): Promise<{ ms: number; users: number }> {
    const started = performance.now();
    await this.polling;
    const fresh = new AudienceIndex();
    const audiences = new Map<number, AudienceDefinition>();
    let snapshot = '';
    const settings = async (tx: Executor) => {
      // The grouping of a million users' attributes hashes in memory rather than on disk (the server's memory, this transaction only).
      await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
      // A million rows put these statements above the JIT threshold, and compiling them costs more than it saves.
      if (this.dbKind === 'postgresql') await tx.execute(sql`SET LOCAL jit = off`);
    };
    const snapshotRead = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;
    await this.db.transaction(async (tx) => {
      [{ snapshot }] = await rows<{ snapshot: string }>(tx, sql`SELECT pg_current_snapshot()::text AS snapshot`);
      await settings(tx);
      if (this.dbKind === 'postgresql') {
        // The events' aggregate is the longest (5,000,000 rows): split by node in two halves, so that both cores work
        // on it once the users' aggregates are done. A node's events stay in one half (its Auto ladder needs them all).
        const loaders = [
          loadUserColumns,
          loadZipcodes,
          loadUserLists,
          (other: Executor, index: AudienceIndex) => loadInteractions(other, index, { of: 2, part: 0 }),
          (other: Executor, index: AudienceIndex) => loadInteractions(other, index, { of: 2, part: 1 }),
        ];
        // Each loader is one long aggregate that PostgreSQL runs on one core: on their own connections, sharing
        // this transaction's snapshot (exported while it stays open), they run side by side and still read one
        // consistent state of the database.
        const [{ exported }] = await rows<{ exported: string }>(tx, sql`SELECT pg_export_snapshot() AS exported`);
        const [first, ...others] = loaders;
        const beside = others.map((load) =>
          this.db.transaction(async (other) => {
            await other.execute(sql`SET TRANSACTION SNAPSHOT '${sql.raw(exported.replace(/[^0-9A-Fa-f-]/g, ''))}'`);
            await settings(other);
            await load(other, fresh);
          }, snapshotRead),
        );
        // Every loader settled before this transaction (the snapshot's owner) ends, whether they succeed or not.
        const settled = await Promise.allSettled([first(tx, fresh), ...beside]);
        for (const result of settled) if (result.status === 'rejected') throw result.reason;
      } else {
        for (const load of [loadUserColumns, loadZipcodes, loadUserLists, loadInteractions]) await load(tx, fresh);
      }
      await loadDefinitions(tx, fresh, audiences);
    }, snapshotRead);
    fresh.optimize();
    this.install(fresh, audiences, snapshot);
    return { ms: performance.now() - started, users: fresh.userCount };
  }

  /** Swaps in a built index in one step: a request in flight sees the old index or the new one, never half of one. */
  private install(fresh: AudienceIndex, audiences: ReadonlyMap<number, AudienceDefinition>, snapshot: string): void {
    Object.assign(this, { index: fresh });
    this.audiences.clear();
    for (const [id, definition] of audiences) this.audiences.set(id, definition);
    this.buildSnapshot = snapshot;
    this.followedUpTo = BigInt(snapshot.split(':')[0]);
    this.lastFollowedAt = Date.now();
    this.attributesChanges += 1;
  }

  // ---- the index file (PGlite) --------------------------------------------------------------------------------

  /**
   * Takes the index from the file the last clean close wrote (engine/index-file.ts) when the database shows nothing
   * written since: it still holds the file's token, no transaction ran after the close's, and no migration came. The
   * token is deleted first, so a file is taken once at most; undefined (the caller rebuilds) for a missing, foreign,
   * damaged or stale file. PGlite only: on PostgreSQL other instances write at any time.
   */
  async restoreFrom(path: string): Promise<{ ms: number; users: number } | undefined> {
    if (this.follows) return undefined;
    const started = performance.now();
    const header = await readIndexFileHeader(path);
    const [{ next }] = await rows<{ next: string }>(this.db, sql`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next`);
    const tokens = await rows<{ token: string }>(this.db, sql`DELETE FROM audience_index_files RETURNING token`);
    const current =
      header !== null &&
      tokens.some(({ token }) => token === header.token) &&
      header.nextTransaction === next &&
      header.migration === (await lastAppliedMigration(this.db));
    if (!current) return undefined;
    const { bitmaps } = await readIndexFile(path);
    const fresh = new AudienceIndex();
    fresh.restore(bitmaps);
    const audiences = new Map<number, AudienceDefinition>();
    let snapshot = '';
    await this.db.transaction(
      async (tx) => {
        [{ snapshot }] = await rows<{ snapshot: string }>(tx, sql`SELECT pg_current_snapshot()::text AS snapshot`);
        await loadDefinitions(tx, fresh, audiences);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    this.install(fresh, audiences, snapshot);
    return { ms: performance.now() - started, users: fresh.userCount };
  }

  /**
   * Writes the index to `path` with a new token, the last thing the server writes before it closes its database
   * (nothing else writes then, so the file and the tables agree). Answers the bytes written.
   */
  async saveTo(path: string): Promise<number> {
    if (this.follows || !this.buildSnapshot) return 0;
    const token = randomUUID();
    const migration = await lastAppliedMigration(this.db);
    // The token's own transaction is the last one: the next start must find the transaction counter just past it.
    const [{ written }] = await rows<{ written: string }>(
      this.db,
      sql`INSERT INTO audience_index_files (token) VALUES (${token}) RETURNING pg_current_xact_id()::text AS written`,
    );
    const nextTransaction = (BigInt(written) + 1n).toString();
    try {
      return await writeIndexFile(path, this.index.bitmaps(), { token, migration, nextTransaction });
    } catch (error) {
      await this.db.execute(sql`DELETE FROM audience_index_files WHERE token = ${token}`);
      throw error;
    }
  }

  // ---- own writes ---------------------------------------------------------------------------------------------

  /** Call inside every write transaction of the feature: following will skip what it wrote. */
  async ownTransaction(tx: Executor): Promise<void> {
    if (!this.follows) return;
    const [{ id }] = await rows<{ id: string }>(tx, sql`SELECT pg_current_xact_id()::text AS id`);
    this.ownTransactions.add(BigInt(id));
  }

  /** Records a change for other instances, in the writer's transaction. */
  async publish(tx: Executor, change: PopulationChange): Promise<void> {
    if (!this.follows) return;
    await tx.execute(sql`INSERT INTO population_changes (kind, payload) VALUES (${change.kind}, ${param(JSON.stringify(change.payload))}::jsonb)`);
  }

  applyUsers(users: PopulationChange & { kind: 'users' }): void {
    for (const { id, before, after } of users.payload.users) this.index.updateUser(id, before, after);
    this.attributesChanges += 1;
  }

  /** Same outcome as applyUsers with each user's before and after: every old value goes, then the new ones come. */
  applyBulkUsers(bulk: BulkUsersIds): void {
    for (const { label, value, ids } of bulk.removed) this.index.removeAttributeUsers(label, value, ids);
    for (const { label, value, ids } of bulk.added) this.index.addAttributeUsers(label, value, ids);
    this.index.addUsers(bulk.users);
    this.attributesChanges += 1;
  }

  addEvents(events: { userId: number; nodeId: number; event: string }[]): void {
    this.index.addEvents(events);
  }

  resetUser(userId: number, pairs: [number, string][]): void {
    this.index.removeInteractions(userId, pairs);
  }

  /** Reloads the definitions of these audiences from the database (a missing one was deleted). */
  async reloadAudiences(db: Executor, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const names = await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM audiences WHERE id = ANY(${param(ids)}::int[])`);
    const definitions = audienceDefinitions(await audienceRelationships(db, ids), names);
    for (const id of ids) this.audiences.delete(id);
    for (const definition of definitions) this.audiences.set(definition.id, definition);
  }

  async reloadGroups(db: Executor, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const groups = groupDefinitions(await groupRelationships(db, ids), await groupLabels(db, ids));
    for (const id of ids) this.index.deleteGroup(id);
    for (const [id, group] of groups) this.index.setGroup(id, group);
  }

  deleteNodes(ids: number[]): void {
    for (const id of ids) this.index.removeNode(id);
  }

  // ---- reads --------------------------------------------------------------------------------------------------

  /** The audiences one user belongs to, by name. */
  audiencesOf(userId: number): { id: number; name: string }[] {
    const found: { id: number; name: string }[] = [];
    for (const definition of this.audiences.values())
      if (this.index.matcher(definition.criteria)(userId)) found.push({ id: definition.id, name: definition.name });
    return found.sort((a, b) => a.name.localeCompare(b.name, 'fr') || a.id - b.id);
  }

  audience(id: number): AudienceDefinition | undefined {
    return this.audiences.get(id);
  }

  // ---- following other instances ------------------------------------------------------------------------------

  /**
   * Follows the writes of other instances on the same PostgreSQL: every `intervalMs`, the events and changes of
   * every transaction that finished since the last look — all those older than the oldest transaction still
   * running (pg_snapshot_xmin) — are applied in transaction order. Reading by transaction rather than by serial
   * id means a transaction that commits late with small ids is not skipped. Old population_changes rows are pruned
   * on the way (pruneChanges); an instance that could not follow for half the retention rebuilds instead.
   */
  follow(intervalMs: number, retentionMs = CHANGES_RETENTION_MS): void {
    if (!this.follows || this.following) return;
    const tick = () => {
      if (this.stopped) return;
      const stale = Date.now() - this.lastFollowedAt > retentionMs / 2;
      const work = stale
        ? this.rebuild().then(({ ms }) =>
            this.logger.warn({ ms: Math.round(ms) }, 'audience engine: not followed for too long (changes may be pruned); rebuilt'),
          )
        : this.followOnce().then(async () => void (await this.pruneChanges(retentionMs)));
      this.polling = work
        .catch((error) => this.logger.warn({ err: error }, 'audience engine: following other instances failed; retrying'))
        .finally(() => {
          if (!this.stopped) this.following = setTimeout(tick, intervalMs);
        });
    };
    this.following = setTimeout(tick, intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.following);
    await this.polling;
  }

  async followOnce(): Promise<void> {
    const [{ horizon }] = await rows<{ horizon: string }>(this.db, sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`);
    const upTo = BigInt(horizon);
    this.noteHorizon(upTo);
    if (upTo <= this.followedUpTo) {
      this.lastFollowedAt = Date.now();
      return;
    }
    const from = this.followedUpTo.toString();
    // This instance's own transactions were applied at their commit: left in the database rather than read back (a
    // list import or a batch of 50,000 events was read again whole, rows parsed and objects made, then dropped). Every
    // own transaction before the horizon is in the set: it was added before that transaction went on to commit.
    const own = [...this.ownTransactions].filter((id) => id >= this.followedUpTo && id < upTo).map(String);
    const window = (tx: ReturnType<typeof sql.raw>) =>
      sql`${tx} >= ${from}::xid8 AND ${tx} < ${horizon}::xid8 AND NOT pg_visible_in_snapshot(${tx}, ${this.buildSnapshot}::pg_snapshot)
          AND NOT ${tx} = ANY(${param(own)}::xid8[])`;
    const events = await rows<{ userId: number; nodeId: number; event: string; tx: string }>(
      this.db,
      sql`SELECT e.user_id AS "userId", e.node_id AS "nodeId", e.event, e.tx::text AS tx FROM interaction_events e
          JOIN nodes n ON n.id = e.node_id AND n.label = ANY(${param([...INDEXED_ITEM_LABELS])}::text[])
          WHERE ${window(sql.raw('e.tx'))}`,
    );
    const changes = await rows<{ kind: PopulationChange['kind']; payload: never; tx: string }>(
      this.db,
      sql`SELECT kind, payload, tx::text AS tx FROM population_changes WHERE ${window(sql.raw('tx'))} ORDER BY id`,
    );
    // Transaction order; within one transaction, changes (e.g. a reset) before its own new events.
    const steps = [
      ...changes.map((change, order) => ({
        tx: BigInt(change.tx),
        order,
        apply: () => this.applyChange({ kind: change.kind, payload: change.payload } as PopulationChange),
      })),
      ...events.map((event, order) => ({
        tx: BigInt(event.tx),
        order: changes.length + order,
        apply: () => this.index.addEvent(event.userId, event.nodeId, event.event),
      })),
    ].sort((a, b) => (a.tx < b.tx ? -1 : a.tx > b.tx ? 1 : a.order - b.order));
    for (const step of steps) await step.apply();
    this.followedUpTo = upTo;
    this.lastFollowedAt = Date.now();
    for (const id of this.ownTransactions) if (id < upTo) this.ownTransactions.delete(id);
  }

  private noteHorizon(upTo: bigint): void {
    const last = this.horizons.at(-1);
    // A few dozen entries at most: one per second is plenty to find the horizon of `retention` ago.
    if (!last || (upTo > last.upTo && Date.now() - last.at >= 1000)) this.horizons.push({ at: Date.now(), upTo });
  }

  /**
   * Retention of population_changes (docs/audiences.md): a row is deleted once every transaction up to and
   * including its own had finished `retentionMs` ago. Every instance that followed since then has read it (their
   * horizon passed it), and one that did not follow for half that long rebuilds from the database instead of
   * replaying (see follow). The events table is never pruned: it is the source of truth. Any instance may prune;
   * deleting twice is harmless.
   */
  async pruneChanges(retentionMs: number): Promise<number> {
    const now = Date.now();
    if (now - this.lastPrunedAt < Math.min(60_000, retentionMs / 4)) return 0;
    this.lastPrunedAt = now;
    let known: { at: number; upTo: bigint } | undefined;
    while (this.horizons.length && this.horizons[0].at <= now - retentionMs) known = this.horizons.shift();
    if (!known) return 0;
    // Kept as the oldest entry: it still tells what may be pruned next time.
    this.horizons.unshift(known);
    const [{ deleted }] = await rows<{ deleted: number }>(
      this.db,
      sql`WITH gone AS (DELETE FROM population_changes WHERE tx < ${known.upTo.toString()}::xid8 RETURNING 1) SELECT count(*)::int AS deleted FROM gone`,
    );
    return deleted;
  }

  private async applyChange(change: PopulationChange): Promise<void> {
    switch (change.kind) {
      case 'users':
        return this.applyUsers(change);
      case 'usersBulk':
        return this.applyBulkUsers(bulkUsersIds(change.payload));
      case 'reset':
        return this.resetUser(change.payload.userId, change.payload.pairs);
      case 'audiences':
        return this.reloadAudiences(this.db, change.payload.ids);
      case 'groups':
        return this.reloadGroups(this.db, change.payload.ids);
      case 'nodesDeleted':
        return this.deleteNodes(change.payload.ids);
    }
  }
}

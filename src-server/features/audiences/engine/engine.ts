import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { PUSH_TOKEN_LABEL } from '@shared/rules/push';
import type { Database, DatabaseKind } from '../../../db/client';
import { audienceRelationships, groupRelationships, toCriterion, type RelationshipRow } from '../queries/relationships';
import { param, rows, type Executor } from '../../../db/rows';
import { AudienceIndex, INDEXED_ITEM_LABELS } from './bitmap-index';
import type { Criterion, GroupDefinition } from './semantics';

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

export interface AudienceDefinition {
  id: number;
  name: string;
  criteria: Criterion[];
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
      for (const [groupId, group] of groupDefinitions(await groupRelationships(tx, null), await groupLabels(tx, null)))
        fresh.setGroup(groupId, group);
      for (const definition of audienceDefinitions(
        await audienceRelationships(tx, null),
        await rows<{ id: number; name: string }>(tx, sql`SELECT id, name FROM audiences`),
      )) {
        audiences.set(definition.id, definition);
      }
    }, snapshotRead);
    fresh.optimize();
    // Swap in one step: a request in flight sees the old index or the new one, never half of one.
    Object.assign(this, { index: fresh });
    this.audiences.clear();
    for (const [id, definition] of audiences) this.audiences.set(id, definition);
    this.buildSnapshot = snapshot;
    this.followedUpTo = BigInt(snapshot.split(':')[0]);
    this.lastFollowedAt = Date.now();
    this.attributesChanges += 1;
    return { ms: performance.now() - started, users: fresh.userCount };
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
    const window = (tx: ReturnType<typeof sql.raw>) =>
      sql`${tx} >= ${from}::xid8 AND ${tx} < ${horizon}::xid8 AND NOT pg_visible_in_snapshot(${tx}, ${this.buildSnapshot}::pg_snapshot)`;
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
    ]
      .filter((step) => !this.ownTransactions.has(step.tx))
      .sort((a, b) => (a.tx < b.tx ? -1 : a.tx > b.tx ? 1 : a.order - b.order));
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

// ---- loading ------------------------------------------------------------------------------------------------------

/**
 * User ids aggregated by the database as 4-byte big-endian integers (string_agg of int4send): one bytea per
 * bitmap instead of a row per user, so a million users load without a million JavaScript objects.
 */
function userIds(bytes: Uint8Array): Uint32Array {
  const ids = new Uint32Array(bytes.byteLength >> 2);
  const view = new Uint8Array(ids.buffer);
  view.set(bytes.subarray(0, ids.length * 4));
  Buffer.from(ids.buffer).swap32();
  return ids;
}

/** Adds one attribute value's users; missing (null) and empty attributes match nothing, as in attributeValues. */
function addAttribute(index: AudienceIndex, label: string, value: string | null, ids: Uint8Array): void {
  if (value === null || value === '') return;
  const users = userIds(ids);
  index.addAttributeUsers(label, value, users);
  // Zip: the first two characters of the zipcode.
  if (label === 'Zipcode' && value.length >= 2) index.addAttributeUsers('Zip', value.slice(0, 2), users);
}

/**
 * Attribute bitmaps of the single-valued columns, grouped by the database in one pass over app_users. Together
 * with loadUserLists, must give exactly what semantics.ts attributeValues gives for each user (the property tests
 * compare the engine with SQL).
 */
async function loadUserColumns(tx: Executor, index: AudienceIndex): Promise<void> {
  // One scan and one hash table per column (grouping sets): no per-user row reaches JavaScript.
  const columns = await rows<{ label: string; value: string | null; ids: Uint8Array }>(
    tx,
    sql`SELECT CASE WHEN grouping(profession_id) = 0 THEN 'Profession' WHEN grouping(specialty_id) = 0 THEN 'Specialty' WHEN grouping(title) = 0 THEN 'Title'
                    WHEN grouping(area) = 0 THEN 'Area' WHEN grouping(country_id) = 0 THEN 'Country' WHEN grouping(uga) = 0 THEN 'Uga' ELSE 'Workplace' END AS label,
               coalesce(profession_id::text, specialty_id::text, title, area, country_id::text, uga, workplace) AS value,
               string_agg(int4send(id), ''::bytea) AS ids
        FROM app_users GROUP BY GROUPING SETS ((profession_id), (specialty_id), (title), (area), (country_id), (uga), (workplace))`,
  );
  for (const { label, value, ids } of columns) addAttribute(index, label, value, ids);
}

/**
 * Zipcodes (and Zip) on their own: with tens of thousands of values, among the grouping sets above they made
 * PostgreSQL sort the million rows twice (35 s under load at 1,000,000 users) instead of hashing them all (7 s);
 * alone, one hash aggregate (5 s), on its own connection.
 */
async function loadZipcodes(tx: Executor, index: AudienceIndex): Promise<void> {
  const zipcodes = await rows<{ value: string | null; ids: Uint8Array }>(
    tx,
    sql`SELECT zipcode AS value, string_agg(int4send(id), ''::bytea) AS ids FROM app_users GROUP BY zipcode`,
  );
  for (const { value, ids } of zipcodes) addAttribute(index, 'Zipcode', value, ids);
}

/** Every user, and the bitmaps of the list attributes (roles, feeds, apps). */
async function loadUserLists(tx: Executor, index: AudienceIndex): Promise<void> {
  const [everyone] = await rows<{ ids: Uint8Array | null }>(tx, sql`SELECT string_agg(int4send(id), ''::bytea) AS ids FROM app_users`);
  if (!everyone?.ids) return;
  index.addUsers(userIds(everyone.ids));
  const lists = await rows<{ label: string; value: string; ids: Uint8Array }>(
    tx,
    sql`SELECT 'Role' AS label, value, string_agg(int4send(id), ''::bytea) AS ids FROM app_users, unnest(roles) AS value GROUP BY value
        UNION ALL SELECT 'Feed', value, string_agg(int4send(id), ''::bytea) FROM app_users, unnest(feeds) AS value GROUP BY value
        UNION ALL SELECT 'App', value, string_agg(int4send(id), ''::bytea) FROM app_users, unnest(apps) AS value GROUP BY value
        UNION ALL SELECT 'Os', os, string_agg(int4send(id), ''::bytea) FROM app_users WHERE os IS NOT NULL GROUP BY os
        UNION ALL SELECT ${PUSH_TOKEN_LABEL}, 'any', string_agg(int4send(user_id), ''::bytea) FROM (SELECT DISTINCT user_id FROM app_user_push_tokens) t HAVING count(*) > 0`,
  );
  for (const { label, value, ids } of lists) addAttribute(index, label, value, ids);
}

/**
 * Event ladders of Advert and Document nodes. The database hands back, per (node, event), the user id of every
 * event (a bytea, duplicates included): a hash aggregate of a few thousand groups, no sort of millions of rows.
 * Counting per user is then a native sort of each id array and one pass over it; Auto is the same over all the
 * events of a node. Step k of a ladder holds the users with more than k events.
 */
async function loadInteractions(tx: Executor, index: AudienceIndex, shard?: { of: number; part: number }): Promise<void> {
  const perEvent = await rows<{ nodeId: number; event: string; ids: Uint8Array }>(
    tx,
    sql`SELECT node_id AS "nodeId", event, string_agg(int4send(user_id), ''::bytea) AS ids FROM interaction_events
        WHERE node_id IN (SELECT id FROM nodes WHERE label = ANY(${param([...INDEXED_ITEM_LABELS])}::text[]))
          ${shard ? sql`AND node_id % ${shard.of} = ${shard.part}` : sql``}
        GROUP BY node_id, event`,
  );
  const byNode = new Map<number, Uint32Array[]>();
  for (const { nodeId, event, ids } of perEvent) {
    const users = userIds(ids);
    index.setLadder(nodeId, event, usersByCount(users));
    const list = byNode.get(nodeId);
    if (list) list.push(users);
    else byNode.set(nodeId, [users]);
  }
  for (const [nodeId, lists] of byNode) {
    if (lists.length === 1) {
      index.setLadder(nodeId, null, usersByCount(lists[0]));
      continue;
    }
    const all = new Uint32Array(lists.reduce((total, list) => total + list.length, 0));
    let offset = 0;
    for (const list of lists) {
      all.set(list, offset);
      offset += list.length;
    }
    index.setLadder(nodeId, null, usersByCount(all));
  }
}

/**
 * From the user id of every event (sorted here, in place) to the users having exactly each count, as typed arrays
 * (two passes over the sorted ids: no JavaScript array of millions of numbers for the collector to trace).
 */
function usersByCount(ids: Uint32Array): Map<number, Uint32Array> {
  ids.sort();
  const tally = new Map<number, number>();
  for (let start = 0; start < ids.length;) {
    let end = start + 1;
    while (end < ids.length && ids[end] === ids[start]) end += 1;
    tally.set(end - start, (tally.get(end - start) ?? 0) + 1);
    start = end;
  }
  const byCount = new Map<number, Uint32Array>();
  const filled = new Map<number, number>();
  for (const [count, users] of tally) {
    byCount.set(count, new Uint32Array(users));
    filled.set(count, 0);
  }
  for (let start = 0; start < ids.length;) {
    let end = start + 1;
    while (end < ids.length && ids[end] === ids[start]) end += 1;
    const count = end - start;
    const at = filled.get(count)!;
    byCount.get(count)![at] = ids[start];
    filled.set(count, at + 1);
    start = end;
  }
  return byCount;
}

async function groupLabels(db: Executor, ids: number[] | null) {
  return rows<{ id: number; label: 'OrGroup' | 'AndGroup' }>(
    db,
    sql`SELECT g.node_id AS id, n.label FROM audience_groups g JOIN nodes n ON n.id = g.node_id ${ids ? sql`WHERE g.node_id = ANY(${param(ids)}::int[])` : sql``}`,
  );
}

function groupDefinitions(members: RelationshipRow[], labels: { id: number; label: 'OrGroup' | 'AndGroup' }[]): Map<number, GroupDefinition> {
  const groups = new Map<number, GroupDefinition & { members: Criterion[] }>();
  for (const { id, label } of labels) groups.set(id, { label, members: [] });
  for (const member of members) groups.get(member.groupId!)?.members.push(toCriterion(member));
  return groups;
}

function audienceDefinitions(relationships: RelationshipRow[], names: { id: number; name: string }[]): AudienceDefinition[] {
  const byId = new Map<number, AudienceDefinition>(names.map(({ id, name }) => [id, { id, name, criteria: [] }]));
  for (const relationship of relationships) byId.get(relationship.audienceId!)?.criteria.push(toCriterion(relationship));
  return [...byId.values()];
}

import roaring from 'roaring';
import type { NodeLabel } from '@shared/rules/audiences';
import type { PopulationCriteria } from '@shared/rules/push';
import { MembershipRules, type Criterion, type GroupDefinition, type SetAlgebra } from './semantics';

/**
 * The audience engine's in-memory index: one compressed bitmap (Roaring) of app user ids per attribute value,
 * and per (node, event) a ladder of bitmaps — step k holds the users with more than k such events — so that
 * "at least `caping` events" is one bitmap whatever the caping.
 *
 * Why the native `roaring` (CRoaring through N-API) and not `roaring-wasm`: measured on this machine with
 * 1,000,000 users (bench/sections/audiences.ts and the issue-8 report), native answers the three reference
 * audiences in 0.15–0.3 ms where roaring-wasm takes 0.2–5.2 ms (OR of 8 bitmaps: 0.15 ms against 5.2 ms),
 * builds faster (0.24 s against 0.36 s for the attribute bitmaps) and frees its memory with the garbage
 * collector, whereas every roaring-wasm result must be disposed by hand (a missed dispose is a leak in the WASM
 * heap). Its cost: a native addon, built from source at install (about 20 s; node-gyp and a C++ compiler) and
 * rebuilt for Electron like keytar.
 */
const { RoaringBitmap32 } = roaring;
type Bitmap = InstanceType<typeof RoaringBitmap32>;

const EMPTY: Bitmap = new RoaringBitmap32();
const attributeKey = (label: string, value: string) => `${label}\u0000${value}`;
const ladderKey = (nodeId: number, event: string | null) => `${nodeId}\u0000${event ?? '*'}`;
/** Labels whose events membership reads (Keyword searches never filter: they are not indexed). */
export const INDEXED_ITEM_LABELS: ReadonlySet<string> = new Set(['Advert', 'Document']);

/** One audience compiled for one-user questions: a few `has()` on bitmaps, nothing allocated. */
export type Matcher = (userId: number) => boolean;

export interface SizeAnswer {
  size: number;
  /** Users satisfying each label group on its own, so the editor can tell which criterion makes it small. */
  labels: { label: NodeLabel; size: number }[];
}

/** How many steps of a ladder hold the user (its event count, capped by the ladder's height). */
function stepsHolding(ladder: readonly Bitmap[], userId: number): number {
  // Steps are nested (step k+1 ⊆ step k): binary search for the first step that lacks the user.
  let low = 0;
  let high = ladder.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ladder[middle].has(userId)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index's bitmaps, as engine/index-file.ts keeps them on disk (groups are read from the database again). */
export interface IndexBitmaps {
  everyone: Bitmap;
  attributes: ReadonlyMap<string, Bitmap>;
  ladders: ReadonlyMap<string, readonly Bitmap[]>;
}

export class AudienceIndex {
  private everyone: Bitmap = new RoaringBitmap32();
  private readonly attributes = new Map<string, Bitmap>();
  private readonly ladders = new Map<string, Bitmap[]>();
  private readonly groups = new Map<number, GroupDefinition>();
  /**
   * Bumped whenever a bitmap is created, replaced or dropped, or a group changes: compiled matchers hold bitmap
   * references, which stay right while only the bitmaps' contents change (a user added or removed in place).
   */
  private structure = 0;
  private readonly compiled = new WeakMap<readonly Criterion[], { structure: number; matcher: Matcher }>();
  private readonly matcherRules = new MembershipRules<Matcher>(this.matcherAlgebra(), (id) => this.groups.get(id));

  private readonly bitmapRules = new MembershipRules<Bitmap>(this.bitmapAlgebra(), (id) => this.groups.get(id));

  get userCount(): number {
    return this.everyone.size;
  }

  /** Drops everything (before a rebuild). */
  clear(): void {
    this.everyone = new RoaringBitmap32();
    this.attributes.clear();
    this.ladders.clear();
    this.groups.clear();
    this.structure += 1;
  }

  /** Its bitmaps, shared (not copied): written to disk while nothing else writes (the server's close). */
  bitmaps(): IndexBitmaps {
    return { everyone: this.everyone, attributes: this.attributes, ladders: this.ladders };
  }

  /** Takes bitmaps read back from disk in place of its own (a fresh index, before it serves anything). */
  restore(bitmaps: IndexBitmaps): void {
    this.clear();
    this.everyone = bitmaps.everyone;
    for (const [key, bitmap] of bitmaps.attributes) this.attributes.set(key, bitmap);
    for (const [key, steps] of bitmaps.ladders) this.ladders.set(key, [...steps]);
  }

  // ---- writes -------------------------------------------------------------------------------------------------

  /** Adds many users of one attribute value at once (the build). */
  addAttributeUsers(label: string, value: string, userIds: Uint32Array | number[]): void {
    if (label === 'User') return;
    const key = attributeKey(label, value);
    let bitmap = this.attributes.get(key);
    if (!bitmap) this.attributes.set(key, (bitmap = this.created()));
    bitmap.addMany(userIds);
  }

  /** These users no longer hold this value. */
  removeAttributeUsers(label: string, value: string, userIds: Uint32Array): void {
    if (label === 'User') return;
    this.attributes.get(attributeKey(label, value))?.removeMany(userIds);
  }

  addUsers(userIds: Uint32Array | number[]): void {
    this.everyone.addMany(userIds);
  }

  /** A user's attributes changed (or the user is new): out of the old values, into the new ones. */
  updateUser(userId: number, before: readonly (readonly [string, string])[], after: readonly (readonly [string, string])[]): void {
    // A User criterion names the user itself: answered from `everyone`, no bitmap per user.
    for (const [label, value] of before) if (label !== 'User') this.attributes.get(attributeKey(label, value))?.remove(userId);
    for (const [label, value] of after) {
      if (label === 'User') continue;
      const key = attributeKey(label, value);
      let bitmap = this.attributes.get(key);
      if (!bitmap) this.attributes.set(key, (bitmap = this.created()));
      bitmap.add(userId);
    }
    this.everyone.add(userId);
  }

  /** One more event of `userId` on `nodeId` (counted under its event and under Auto). */
  addEvent(userId: number, nodeId: number, event: string): void {
    this.climb(ladderKey(nodeId, event), userId);
    this.climb(ladderKey(nodeId, null), userId);
  }

  /**
   * Many events at once (an ingestion batch): counted per ladder and user first, so that each user's current step
   * is looked up once per ladder and each step grows by one addMany — not two binary searches of has() per event
   * (50,000 events of 5,000 users: 10,000 look-ups instead of 100,000, and a few dozen addMany).
   */
  addEvents(events: readonly { userId: number; nodeId: number; event: string }[]): void {
    const increments = new Map<string, Map<number, number>>();
    const count = (key: string, userId: number) => {
      let users = increments.get(key);
      if (!users) increments.set(key, (users = new Map()));
      users.set(userId, (users.get(userId) ?? 0) + 1);
    };
    for (const { userId, nodeId, event } of events) {
      count(ladderKey(nodeId, event), userId);
      count(ladderKey(nodeId, null), userId);
    }
    for (const [key, users] of increments) {
      let ladder = this.ladders.get(key);
      if (!ladder) {
        this.ladders.set(key, (ladder = []));
        this.structure += 1;
      }
      const additions: number[][] = [];
      for (const [userId, more] of users) {
        const reached = stepsHolding(ladder, userId);
        for (let step = reached; step < reached + more; step += 1) (additions[step] ??= []).push(userId);
      }
      additions.forEach((userIds, step) => {
        // Steps only ever grow at the top, one at a time: the ladder stays dense.
        ladder[step] ??= new RoaringBitmap32();
        ladder[step].addMany(Uint32Array.from(userIds).sort());
      });
    }
  }

  /** The ladders of one (node, event) built at once from per-user counts (the build). */
  setCounts(nodeId: number, event: string | null, userIds: readonly number[], counts: readonly number[]): void {
    const ladder: Bitmap[] = [];
    let remaining = userIds.map((userId, index) => [userId, counts[index]] as const);
    for (let step = 0; remaining.length; step += 1) {
      const bitmap = new RoaringBitmap32();
      bitmap.addMany(remaining.map(([userId]) => userId));
      ladder.push(bitmap);
      remaining = remaining.filter(([, count]) => count > step + 1);
    }
    this.ladders.set(ladderKey(nodeId, event), ladder);
    this.structure += 1;
  }

  /** A ladder built at once from the users having exactly each count (the build): step k = counts above k. */
  setLadder(nodeId: number, event: string | null, usersByCount: ReadonlyMap<number, Uint32Array | number[]>): void {
    const highest = Math.max(0, ...usersByCount.keys());
    const ladder: Bitmap[] = new Array(highest);
    let above: Bitmap | undefined;
    for (let count = highest; count >= 1; count -= 1) {
      // One bitmap per step, never shared: climb() grows one step without the others.
      above = above ? above.clone() : new RoaringBitmap32();
      const exactly = usersByCount.get(count);
      if (exactly) above.addMany(exactly);
      ladder[count - 1] = above;
    }
    this.ladders.set(ladderKey(nodeId, event), ladder);
    this.structure += 1;
  }

  /** Forgets the interactions of a user on the given (node, event) pairs (interactions reset). */
  removeInteractions(userId: number, pairs: readonly (readonly [number, string])[]): void {
    for (const [nodeId, event] of pairs) {
      for (const key of [ladderKey(nodeId, event), ladderKey(nodeId, null)]) {
        for (const step of this.ladders.get(key) ?? []) step.remove(userId);
      }
    }
  }

  /** Forgets every interaction on a node (a deleted node). */
  removeNode(nodeId: number): void {
    const prefix = `${nodeId}\u0000`;
    for (const key of [...this.ladders.keys()]) if (key.startsWith(prefix)) this.ladders.delete(key);
    this.groups.delete(nodeId);
    this.structure += 1;
  }

  setGroup(groupId: number, group: GroupDefinition): void {
    this.groups.set(groupId, group);
    this.structure += 1;
  }

  deleteGroup(groupId: number): void {
    this.groups.delete(groupId);
    this.structure += 1;
  }

  /** A new bitmap under a new key: compiled matchers must look their bitmaps up again. */
  private created(): Bitmap {
    this.structure += 1;
    return new RoaringBitmap32();
  }

  group(groupId: number): GroupDefinition | undefined {
    return this.groups.get(groupId);
  }

  /** Users with more than the current count: the step the user reaches next is the first one without them. */
  private climb(key: string, userId: number): void {
    let ladder = this.ladders.get(key);
    if (!ladder) {
      this.ladders.set(key, (ladder = []));
      this.structure += 1;
    }
    const reached = stepsHolding(ladder, userId);
    if (reached === ladder.length) ladder.push(new RoaringBitmap32());
    ladder[reached].add(userId);
  }

  // ---- reads --------------------------------------------------------------------------------------------------

  /** Size of an audience, and of each of its label groups alone. */
  size(criteria: readonly Criterion[]): SizeAnswer {
    const rules = this.bitmapRules;
    // Each label group once: its size alone, then their intersection (what rules.audience computes).
    const groups = [...rules.labelGroups(criteria)].map(([label, group]) => ({ label, users: rules.labelGroup(group) }));
    const labels = groups.map(({ label, users }) => ({ label, size: users.size }));
    if (!groups.length) return { size: this.everyone.size, labels };
    const ordered = groups.map(({ users }) => users).sort((a, b) => a.size - b.size);
    let users = ordered[0];
    // The last intersection only needs its cardinality: no bitmap built for it.
    for (let index = 1; index < ordered.length - 1 && users.size; index += 1) users = RoaringBitmap32.and(users, ordered[index]);
    const size = ordered.length === 1 ? users.size : users.andCardinality(ordered[ordered.length - 1]);
    return { size, labels };
  }

  /**
   * The users that population criteria select (push targeting and its clause): set operations on the attribute
   * bitmaps, a new bitmap answered for every composite criteria (stored ones are never modified). `is` reads any
   * indexed label, the push feature's `Os` and `PushToken` included.
   */
  select(criteria: PopulationCriteria): Bitmap {
    switch (criteria.kind) {
      case 'everyone':
        return this.everyone;
      case 'is':
        return this.attribute(criteria);
      case 'not':
        return this.using(criteria.of, (excluded) => RoaringBitmap32.andNot(this.everyone, excluded));
      case 'any':
        return this.union(criteria.of);
      case 'all':
        return criteria.of.length ? this.intersection(criteria.of) : this.everyone;
    }
  }

  /**
   * How many users population criteria select. The native bitmaps report their memory to V8, whose collector ran a
   * full collection every 170 counts or so at 1,000,000 users (pauses of 50–100 ms): so the parts are intersected
   * smallest first into one bitmap narrowed in place, the last part is only counted, and every bitmap built on the
   * way is freed at once.
   */
  count(criteria: PopulationCriteria): number {
    if (criteria.kind !== 'all' || criteria.of.length < 2) return this.using(criteria, (users) => users.size);
    const parts = this.bySize(criteria.of);
    const last = parts.pop()!;
    const result = this.intersection(parts);
    try {
      if (last.kind === 'is') return result.andCardinality(this.attribute(last));
      if (last.kind === 'not' && last.of.kind === 'is') return result.andNotCardinality(this.attribute(last.of));
      return this.narrow(result, last).size;
    } finally {
      result.clear();
    }
  }

  /** Runs `read` on the criteria's users, then frees them unless they are a stored bitmap. */
  private using<T>(criteria: PopulationCriteria, read: (users: Bitmap) => T): T {
    const users = this.select(criteria);
    try {
      return read(users);
    } finally {
      if (criteria.kind !== 'is' && users !== this.everyone) users.clear();
    }
  }

  private attribute(criteria: { label: string; value: string }): Bitmap {
    return this.attributes.get(attributeKey(criteria.label, criteria.value)) ?? EMPTY;
  }

  /** A criteria's size without building it (exact for `is`, a bound otherwise): what orders an intersection. */
  private estimate(criteria: PopulationCriteria): number {
    switch (criteria.kind) {
      case 'everyone':
        return this.everyone.size;
      case 'is':
        return this.attribute(criteria).size;
      case 'not':
        return this.everyone.size - (criteria.of.kind === 'is' ? this.attribute(criteria.of).size : 0);
      case 'any':
        return Math.min(
          this.everyone.size,
          criteria.of.reduce((sum, part) => sum + this.estimate(part), 0),
        );
      case 'all':
        return Math.min(this.everyone.size, ...criteria.of.map((part) => this.estimate(part)));
    }
  }

  private bySize(parts: readonly PopulationCriteria[]): PopulationCriteria[] {
    return parts
      .map((part) => ({ part, size: this.estimate(part) }))
      .sort((a, b) => a.size - b.size)
      .map(({ part }) => part);
  }

  /** The users of every part, as a new bitmap: the smallest part first, then narrowed in place by the others. */
  private intersection(parts: readonly PopulationCriteria[]): Bitmap {
    const [first, second, ...rest] = this.bySize(parts);
    const result =
      first.kind === 'is' && second?.kind === 'is'
        ? RoaringBitmap32.and(this.attribute(first), this.attribute(second))
        : this.narrow(this.owned(first), second ?? { kind: 'everyone' });
    for (const part of rest) if (result.size) this.narrow(result, part);
    return result;
  }

  /** The users of any part, as a new bitmap (one union of the stored bitmaps when the parts are plain values). */
  private union(parts: readonly PopulationCriteria[]): Bitmap {
    if (parts.every((part) => part.kind === 'is'))
      return RoaringBitmap32.orMany(parts.map((part) => this.attribute(part as { label: string; value: string })));
    const union = new RoaringBitmap32();
    for (const part of parts) this.using(part, (users) => union.orInPlace(users));
    return union;
  }

  /** Runs `use` on a bitmap built for it, then frees it. */
  private freed<T>(temporary: Bitmap, use: (bitmap: Bitmap) => T): T {
    try {
      return use(temporary);
    } finally {
      temporary.clear();
    }
  }

  /** A bitmap of the criteria's users that may be modified (a stored one is copied). */
  private owned(criteria: PopulationCriteria): Bitmap {
    const bitmap = this.select(criteria);
    return criteria.kind === 'is' || bitmap === this.everyone ? bitmap.clone() : bitmap;
  }

  /** `result` ∩ criteria, in place (`result` is the caller's own bitmap). */
  private narrow(result: Bitmap, criteria: PopulationCriteria): Bitmap {
    switch (criteria.kind) {
      case 'everyone':
        return result;
      case 'is':
        return result.andInPlace(this.attribute(criteria));
      case 'not':
        // Only the users of `result` matter: the complement of the whole population is never built.
        if (criteria.of.kind === 'is') return result.andNotInPlace(this.attribute(criteria.of));
        return this.freed(this.narrow(result.clone(), criteria.of), (excluded) => result.andNotInPlace(excluded));
      case 'any':
        return this.freed(this.union(criteria.of), (union) => result.andInPlace(union));
      case 'all':
        for (const part of this.bySize(criteria.of)) if (result.size) this.narrow(result, part);
        return result;
    }
  }

  /** The users of an audience (tests, exports). */
  members(criteria: readonly Criterion[]): number[] {
    return this.bitmapRules.audience(criteria).toArray();
  }

  /** Whether one user belongs to an audience: a few bitmap look-ups, no set built. */
  matches(userId: number, criteria: readonly Criterion[]): boolean {
    return this.matcher(criteria)(userId);
  }

  /** Whether one user belongs to an unsaved definition, and to each of its label groups (the editor's live tester). */
  explain(userId: number, criteria: readonly Criterion[]): { member: boolean; labels: { label: NodeLabel; member: boolean }[] } {
    const rules = this.matcherRules;
    const labels = [...rules.labelGroups(criteria)].map(([label, group]) => ({ label, member: rules.labelGroup(group)(userId) }));
    return { member: rules.audience(criteria)(userId), labels };
  }

  /**
   * The audience compiled into a closure over its bitmaps, cached per criteria array (a saved audience's array
   * lives until the audience is reloaded) and compiled again only after the index's structure changed. Membership
   * of one user in 1,000 audiences is then a few thousand `has()`, with no rule walking or set building.
   */
  matcher(criteria: readonly Criterion[]): Matcher {
    const cached = this.compiled.get(criteria);
    if (cached && cached.structure === this.structure) return cached.matcher;
    const matcher = this.matcherRules.audience(criteria);
    this.compiled.set(criteria, { structure: this.structure, matcher });
    return matcher;
  }

  /** Bytes held by the bitmaps (serialized size, close to the memory they use). */
  bytes(): number {
    let total = this.everyone.getSerializationSizeInBytes(false);
    for (const bitmap of this.attributes.values()) total += bitmap.getSerializationSizeInBytes(false);
    for (const ladder of this.ladders.values()) for (const step of ladder) total += step.getSerializationSizeInBytes(false);
    return total;
  }

  /** Compresses runs after a bulk build. */
  optimize(): void {
    this.everyone.runOptimize();
    for (const bitmap of this.attributes.values()) {
      bitmap.runOptimize();
      bitmap.shrinkToFit();
    }
    for (const ladder of this.ladders.values()) for (const step of ladder) step.shrinkToFit();
  }

  private matcherAlgebra(): SetAlgebra<Matcher> {
    const nobody: Matcher = () => false;
    const inBitmap = (bitmap: Bitmap | undefined): Matcher => (bitmap ? (userId) => bitmap.has(userId) : nobody);
    return {
      // `everyone` is read at call time: clear() replaces it (and bumps the structure anyway).
      everyone: () => (userId) => this.everyone.has(userId),
      nobody: () => nobody,
      attribute: (label, value) => {
        if (label !== 'User') return inBitmap(this.attributes.get(attributeKey(label, value)));
        const id = Number(value);
        return (userId) => userId === id && this.everyone.has(userId);
      },
      interactions: (nodeId, event, atLeast) => {
        const ladder = this.ladders.get(ladderKey(nodeId, event));
        if (!ladder) return nobody;
        // The ladder grows in place (a user's next event may add a step): read the step at call time.
        const step = atLeast - 1;
        return (userId) => ladder[step]?.has(userId) ?? false;
      },
      and: (sets) => {
        if (sets.length === 0) return (userId) => this.everyone.has(userId);
        if (sets.includes(nobody)) return nobody;
        if (sets.length === 1) return sets[0];
        const parts = [...sets];
        return (userId) => {
          for (const part of parts) if (!part(userId)) return false;
          return true;
        };
      },
      or: (sets) => {
        const parts = sets.filter((set) => set !== nobody);
        if (parts.length === 0) return nobody;
        if (parts.length === 1) return parts[0];
        return (userId) => {
          for (const part of parts) if (part(userId)) return true;
          return false;
        };
      },
      minus: (set, removed) => (set === nobody ? nobody : removed === nobody ? set : (userId) => set(userId) && !removed(userId)),
    };
  }

  private bitmapAlgebra(): SetAlgebra<Bitmap> {
    // Stored bitmaps are never modified here: every operation answers a new bitmap.
    return {
      everyone: () => this.everyone,
      nobody: () => EMPTY,
      attribute: (label, value) => {
        if (label !== 'User') return this.attributes.get(attributeKey(label, value)) ?? EMPTY;
        const userId = Number(value);
        return this.everyone.has(userId) ? new RoaringBitmap32([userId]) : EMPTY;
      },
      interactions: (nodeId, event, atLeast) => this.ladders.get(ladderKey(nodeId, event))?.[atLeast - 1] ?? EMPTY,
      and: (sets) => {
        if (!sets.length) return this.everyone;
        // Smallest first: each intersection can only shrink.
        const ordered = [...sets].sort((a, b) => a.size - b.size);
        let result = ordered[0];
        for (let index = 1; index < ordered.length && result.size; index += 1) result = RoaringBitmap32.and(result, ordered[index]);
        return result;
      },
      or: (sets) => {
        if (sets.length <= 2) return sets.length === 0 ? EMPTY : sets.length === 1 ? sets[0] : RoaringBitmap32.or(sets[0], sets[1]);
        // A copy of the largest, grown in place by the others: measured 10× faster than orMany (1.5 ms against 15 ms
        // for 100 document ladders of 1,000,000 users), whose many-way union is slower on bitset containers.
        let largest = 0;
        for (let index = 1; index < sets.length; index += 1) if (sets[index].size > sets[largest].size) largest = index;
        const union = sets[largest].clone();
        for (let index = 0; index < sets.length; index += 1) if (index !== largest) union.orInPlace(sets[index]);
        return union;
      },
      minus: (set, removed) => RoaringBitmap32.andNot(set, removed),
    };
  }
}

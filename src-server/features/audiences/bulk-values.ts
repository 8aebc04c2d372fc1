import { idsToBase64, type BulkUsers, type ValueUsers } from './engine/engine';

/**
 * What the merge's grouping statements answer (staged-merge.ts): one row per label (a row per value cost a row
 * object, a text and a buffer each, for tens of thousands of zip codes a chunk), its values, and as 4-byte big-endian
 * integers the number of ids of each value and the ids one value after the other (the three aggregated in the same
 * order). The NULL label holds the users themselves, under 'inserted' and 'updated'.
 */
export type GroupedValues = { label: string | null; values: string[]; counts: Uint8Array; ids: Uint8Array | null };

/** Values with their users, flat: per value (entry) its label, value and number of ids; the ids one value after the other. */
export interface FlatValues {
  labels: string[];
  values: string[];
  counts: Uint32Array;
  ids: Uint32Array;
}

export const joined = (lists: Uint32Array[]): Uint32Array => {
  const all = new Uint32Array(lists.reduce((total, list) => total + list.length, 0));
  let offset = 0;
  for (const list of lists) {
    all.set(list, offset);
    offset += list.length;
  }
  return all;
};

/** Big-endian 4-byte integers as numbers. */
function integers(bytes: Uint8Array | null): Uint32Array {
  const copy = new Uint8Array(bytes ?? new Uint8Array(0));
  Buffer.from(copy.buffer).swap32();
  return new Uint32Array(copy.buffer);
}

/** The database's groups, flat: the values' ids one after the other, the users' apart (and how many were inserted). */
export function flatValues(grouped: readonly GroupedValues[]): { values: FlatValues; users: Uint32Array; inserted: number; updated: number } {
  const flat: FlatValues = { labels: [], values: [], counts: new Uint32Array(0), ids: new Uint32Array(0) };
  const counts: Uint32Array[] = [];
  const ids: Uint32Array[] = [];
  const users: Uint32Array[] = [];
  let inserted = 0;
  let updated = 0;
  for (const row of grouped) {
    const rowCounts = integers(row.counts);
    const rowIds = integers(row.ids);
    // Users may come in several rows (those a chunk updated, then those it inserted): all of them count.
    if (row.label === null) {
      users.push(rowIds);
      const at = row.values.indexOf('inserted');
      if (at >= 0) inserted += rowCounts[at];
      const changed = row.values.indexOf('updated');
      if (changed >= 0) updated += rowCounts[changed];
      continue;
    }
    for (const value of row.values) {
      flat.labels.push(row.label);
      flat.values.push(value);
    }
    counts.push(rowCounts);
    ids.push(rowIds);
  }
  flat.counts = joined(counts);
  flat.ids = joined(ids);
  return { values: flat, users: joined(users), inserted, updated };
}

/** Flat values as BulkUsers carries them: per run of one label, its values and their counts, and the ids in base64. */
export function publishedValues(flat: FlatValues): { runs: BulkUsers['added']; ids: string } {
  const runs: BulkUsers['added'] = [];
  flat.labels.forEach((label, entry) => {
    let run = runs.at(-1);
    if (run?.label !== label) runs.push((run = { label, values: [], counts: [] }));
    run.values.push(flat.values[entry]);
    run.counts.push(flat.counts[entry]);
  });
  return { runs, ids: idsToBase64(flat.ids) };
}

/** One chunk's values as kept until the commit: per value, its index among the pairs and its number of ids. */
interface KeptChunk {
  pairOf: Uint32Array;
  counts: Uint32Array;
  ids: Uint32Array;
}

/**
 * Values of many chunks kept until the commit in a few typed arrays (a million users' values as objects took
 * hundreds of megabytes): each (label, value) once, and per chunk its values' ids one after the other.
 */
export class ValuesByPair {
  private readonly pairs: [string, string][] = [];
  private readonly pairIndex = new Map<string, Map<string, number>>();
  private readonly chunks: KeptChunk[] = [];

  /** Keeps a chunk's values; answers the (label, value) pairs no earlier chunk had. */
  add(flat: FlatValues): [string, string][] {
    const pairOf = new Uint32Array(flat.labels.length);
    const unseen: [string, string][] = [];
    flat.labels.forEach((label, entry) => {
      const value = flat.values[entry];
      let byValue = this.pairIndex.get(label);
      if (!byValue) this.pairIndex.set(label, (byValue = new Map()));
      let index = byValue.get(value);
      if (index === undefined) {
        byValue.set(value, (index = this.pairs.length));
        this.pairs.push([label, value]);
        unseen.push([label, value]);
      }
      pairOf[entry] = index;
    });
    this.chunks.push({ pairOf, counts: flat.counts, ids: flat.ids });
    return unseen;
  }

  /** Every value with its users (the chunks' ids placed by value, a counting sort); the chunks are let go. */
  take(): ValueUsers[] {
    const starts = new Uint32Array(this.pairs.length + 1);
    for (const { pairOf, counts } of this.chunks) for (let entry = 0; entry < pairOf.length; entry += 1) starts[pairOf[entry] + 1] += counts[entry];
    for (let index = 1; index < starts.length; index += 1) starts[index] += starts[index - 1];
    const sorted = new Uint32Array(starts[this.pairs.length]);
    const next = starts.slice(0, this.pairs.length);
    for (const { pairOf, counts, ids } of this.chunks) {
      let at = 0;
      for (let entry = 0; entry < pairOf.length; entry += 1) {
        sorted.set(ids.subarray(at, at + counts[entry]), next[pairOf[entry]]);
        next[pairOf[entry]] += counts[entry];
        at += counts[entry];
      }
    }
    this.chunks.length = 0;
    return this.pairs.map(([label, value], index) => ({ label, value, ids: sorted.subarray(starts[index], starts[index + 1]) }));
  }
}

import type { Clock } from '../clock';

/**
 * One token bucket per key: `capacity` tokens, refilled at `capacity` per `periodMs`; a key not seen is full.
 * In memory, like the limiters.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly periodMs: number,
    private readonly clock: Clock,
  ) {}

  /** Tokens in `key`'s bucket now. */
  level(key: string): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.capacity;
    const refilled = bucket.tokens + ((this.clock.now().getTime() - bucket.at) * this.capacity) / this.periodMs;
    return Math.min(this.capacity, refilled);
  }

  /** Milliseconds until `key`'s bucket holds `tokens` (0 when it does now). */
  waitMs(key: string, tokens: number): number {
    const missing = tokens - this.level(key);
    return missing <= 0 ? 0 : Math.ceil((missing * this.periodMs) / this.capacity);
  }

  /** Takes one token (the caller checked the level) or, with a negative count, gives tokens back. */
  take(key: string, count = 1): void {
    const tokens = Math.min(this.capacity, this.level(key) - count);
    this.buckets.set(key, { tokens, at: this.clock.now().getTime() });
    if (this.buckets.size > 100_000) {
      for (const known of [...this.buckets.keys()]) if (this.level(known) >= this.capacity) this.buckets.delete(known);
    }
  }
}

/**
 * When each address last asked to sign in to an account past the threshold (whatever the answer), kept for
 * `windowMs` after its last ask. In memory, like the limiters.
 */
export class RecentAsks {
  private readonly asks = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  mark(key: string): void {
    this.asks.delete(key);
    this.asks.set(key, this.clock.now().getTime());
    // Oldest first (a key marked again moves to the end): the expired ones are at the front.
    if (this.asks.size > 100_000) {
      for (const [known] of this.asks) {
        if (this.has(known)) break;
        this.asks.delete(known);
      }
    }
  }

  has(key: string): boolean {
    const at = this.asks.get(key);
    return at !== undefined && at > this.clock.now().getTime() - this.windowMs;
  }

  forget(key: string): void {
    this.asks.delete(key);
  }
}

/**
 * The last distinct addresses (address keys) each key failed from, when each last failed, kept `windowMs`: enough to
 * tell whether an account has failed from `several` addresses in the window, and no more (a guesser cycling a
 * million addresses costs `several` entries an account).
 */
export class FailingAddresses {
  private readonly latest = new Map<string, Array<{ address: string; at: number }>>();

  constructor(
    private readonly several: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  mark(key: string, address: string): void {
    const at = this.clock.now().getTime();
    const kept = (this.latest.get(key) ?? []).filter((entry) => entry.address !== address);
    this.latest.delete(key);
    this.latest.set(key, [{ address, at }, ...kept].slice(0, this.several));
    // Oldest first (a key marked again moves to the end): the expired ones are at the front.
    if (this.latest.size > 100_000) {
      for (const [known] of this.latest) {
        if (this.count(known) > 0) break;
        this.latest.delete(known);
      }
    }
  }

  /** Distinct addresses `key` failed from in the window, counted up to `several`. */
  count(key: string): number {
    const since = this.clock.now().getTime() - this.windowMs;
    return (this.latest.get(key) ?? []).filter((entry) => entry.at > since).length;
  }
}

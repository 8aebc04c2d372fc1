import type { Clock } from '../clock';

export interface FailureLimiterOptions {
  /** Failures allowed in the window before further attempts are refused. */
  maxFailures: number;
  windowMs: number;
}

/**
 * Counts failed sign-ins per key (a username, an address) in a sliding window. In memory: a team running
 * several API instances gets a limit per instance, which still bounds guessing.
 *
 * An attempt is counted when it starts, before its password is hashed (`reserve`), and uncounted when it
 * succeeds (`release`): check and count happen in one synchronous step, so however many requests arrive at
 * once, at most `maxFailures` of them are ever checked in a window.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly options: FailureLimiterOptions,
    private readonly clock: Clock,
  ) {}

  private recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.options.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((time) => time > since);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  /** Failures (and attempts still in flight) counted for `key` in the window. */
  count(key: string): number {
    return this.recent(key).length;
  }

  /** Milliseconds until `key` may try again, or 0 when it may try now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.options.maxFailures) return 0;
    const oldest = recent[recent.length - this.options.maxFailures];
    return Math.max(1, oldest + this.options.windowMs - this.clock.now().getTime());
  }

  /** Counts an attempt now; returns the instant it was counted at, for `release`. */
  recordFailure(key: string): number {
    const recent = this.recent(key);
    const time = this.clock.now().getTime();
    recent.push(time);
    this.failures.set(key, recent);
    if (this.failures.size > 100_000) this.prune();
    return time;
  }

  /** Uncounts one attempt counted at `time` (it turned out to be a success, or was never checked). */
  release(key: string, time: number): void {
    const recent = this.failures.get(key);
    const index = recent?.lastIndexOf(time) ?? -1;
    if (!recent || index < 0) return;
    recent.splice(index, 1);
    if (!recent.length) this.failures.delete(key);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}

/** An attempt counted against every key it concerns; `release` uncounts it everywhere. */
export interface Reservation {
  release(): void;
}

/**
 * Checks every (limiter, key) pair and, only if all allow, counts the attempt against each of them, in one
 * synchronous step (no await in between: no other request can slip between check and count).
 * Returns the reservation, or the wait in milliseconds before the first refusing limiter allows again.
 */
export function reserveAttempt(checks: ReadonlyArray<readonly [FailureLimiter, string]>): Reservation | { retryAfterMs: number } {
  const wait = Math.max(0, ...checks.map(([limiter, key]) => limiter.retryAfterMs(key)));
  if (wait > 0) return { retryAfterMs: wait };
  const counted = checks.map(([limiter, key]) => [limiter, key, limiter.recordFailure(key)] as const);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      for (const [limiter, key, time] of counted) limiter.release(key, time);
    },
  };
}

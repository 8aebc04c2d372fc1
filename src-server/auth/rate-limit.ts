import type { Clock } from '../clock';

export interface FailureLimiterOptions {
  /** Failures allowed in the window before further attempts are refused. */
  maxFailures: number;
  windowMs: number;
}

/**
 * Counts failed sign-ins per key (a username, an address) in a sliding window. In memory: a team running
 * several API instances gets a limit per instance, which still bounds guessing.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: FailureLimiterOptions,
    private readonly clock: Clock,
  ) {}

  private recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.options.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((time) => time > since);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  /** Milliseconds until `key` may try again, or 0 when it may try now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.options.maxFailures) return 0;
    const oldest = recent[recent.length - this.options.maxFailures];
    return Math.max(1, oldest + this.options.windowMs - this.clock.now().getTime());
  }

  recordFailure(key: string): void {
    const recent = this.recent(key);
    recent.push(this.clock.now().getTime());
    this.failures.set(key, recent);
    if (this.failures.size > 100_000) this.prune();
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}

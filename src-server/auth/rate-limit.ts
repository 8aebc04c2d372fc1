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

/**
 * Sign-in throttling policy (OWASP Authentication Cheat Sheet, "Login Throttling" and "Account Lockout": a hard
 * lockout per account lets anyone lock anyone out, so the per-account control is a slow-down, not a refusal):
 *
 * - per (username, address): `maxFailuresPerUsernameAndAddress` failures (5) in the window (15 min), then 429
 *   with Retry-After until the oldest failure leaves the window. This is the strict limit on one guesser.
 * - per address, whatever the username: `maxFailuresPerAddress` failures (50) in the window, then 429. This stops
 *   one address from spraying a password over many accounts.
 * - per username, whatever the address: past `maxFailuresPerUsername` failures (5) in the window, each attempt
 *   waits before its password is checked, `usernameSlowDownBaseMs` (1 s) doubled with each further failure, at
 *   most `usernameSlowDownMaxMs` (10 s). It is never refused on this count: the owner signing in from an address
 *   of their own gets in after at most 10 s, however many addresses guess at their account; guessers spread over
 *   many addresses pay the same delay per guess, on top of their per-address limits.
 *
 * Every attempt is counted before its password is hashed and uncounted when it succeeds (see FailureLimiter), and a
 * success also clears the username's counts. Counts live in memory, per API instance.
 */
export interface SignInPolicy {
  maxFailuresPerUsernameAndAddress: number;
  maxFailuresPerAddress: number;
  maxFailuresPerUsername: number;
  usernameSlowDownBaseMs: number;
  usernameSlowDownMaxMs: number;
  loginWindowMs: number;
}

export type SignInAttempt = { refused: true; retryAfterMs: number } | { refused: false; delayMs: number; succeeded(): void; notChecked(): void };

export class SignInThrottle {
  private readonly perUsernameAndAddress: FailureLimiter;
  private readonly perAddress: FailureLimiter;
  private readonly perUsername: FailureLimiter;

  constructor(
    private readonly policy: SignInPolicy,
    clock: Clock,
  ) {
    const windowMs = policy.loginWindowMs;
    this.perUsernameAndAddress = new FailureLimiter({ maxFailures: policy.maxFailuresPerUsernameAndAddress, windowMs }, clock);
    this.perAddress = new FailureLimiter({ maxFailures: policy.maxFailuresPerAddress, windowMs }, clock);
    // Never refuses (its limit is unreachable): only its count is read, to size the slow-down.
    this.perUsername = new FailureLimiter({ maxFailures: Number.POSITIVE_INFINITY, windowMs }, clock);
  }

  /** Counts a sign-in attempt of `username` from `address` (before the password is checked) or refuses it. */
  begin(username: string, address: string): SignInAttempt {
    const usernameKey = username.toLowerCase();
    const pairKey = `${usernameKey}\u0000${address}`;
    const priorFailures = this.perUsername.count(usernameKey);
    const attempt = reserveAttempt([
      [this.perUsernameAndAddress, pairKey],
      [this.perAddress, address],
      [this.perUsername, usernameKey],
    ]);
    if ('retryAfterMs' in attempt) return { refused: true, retryAfterMs: attempt.retryAfterMs };
    const excess = priorFailures - this.policy.maxFailuresPerUsername;
    const delayMs = excess < 0 ? 0 : Math.min(this.policy.usernameSlowDownMaxMs, this.policy.usernameSlowDownBaseMs * 2 ** excess);
    return {
      refused: false,
      delayMs,
      succeeded: () => {
        attempt.release();
        this.perUsernameAndAddress.reset(pairKey);
        this.perUsername.reset(usernameKey);
      },
      // The password was never checked (server busy): the attempt does not count.
      notChecked: () => attempt.release(),
    };
  }
}

import { isIP } from 'node:net';
import type { Clock } from '../clock';
import { FailingAddresses, RecentAsks, TokenBuckets } from './throttle-stores';

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
 * The key a client address is limited under. An IPv6 client usually holds a whole /64 (one home, one phone, one
 * virtual machine gets 2^64 addresses), so it is counted by its /64: keyed by full address, each new address would
 * bring a fresh set of limits. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, a dual-stack socket) is its IPv4
 * address. Anything that is not an address is kept as it is.
 */
export function addressKey(address: string): string {
  const bare = address.split('%')[0];
  const version = isIP(bare);
  if (version === 4) return bare;
  if (version !== 6) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail turned into two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::');
  const first = parse(head);
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * Sign-in throttling policy (OWASP Authentication Cheat Sheet, "Login Throttling" and "Account Lockout": a hard
 * lockout per account lets anyone lock anyone out, so the per-account control never refuses for good).
 * Addresses are keyed by `addressKey` (an IPv6 client by its /64).
 *
 * - per (username, address): `maxFailuresPerUsernameAndAddress` failures (5) in the window (15 min), then 429
 *   with Retry-After until the oldest failure leaves the window. This is the strict limit on one guesser.
 * - per address, whatever the username: `maxFailuresPerAddress` failures (50) in the window, then 429. This stops
 *   one address from spraying a password over many accounts.
 * - per username, whatever the address, once `maxFailuresPerUsername` failures (5) are counted in the window:
 *   - each attempt waits before its password is checked, `usernameSlowDownBaseMs` (1 s) doubled with each
 *     further failure, at most `usernameSlowDownMaxMs` (10 s);
 *   - one attempt in flight per account (its wait included): any other is answered 429 at once. A slow-down alone
 *     bounds latency, not rate: attempts from many addresses waited in parallel (100 addresses made 472 checks
 *     on one account in 139 s);
 *   - a token bucket of `maxChecksPerUsernamePerMinute` (10) checks, refilled at that many a minute: an attempt
 *     without a token is answered 429. Whatever the number of addresses, the account gets at most 10 checks a
 *     minute (plus the 5 before the threshold and the 10 the full bucket holds).
 *
 * The owner must still get in while guessers spend the bucket. Two lanes guessing cannot consume:
 * - a known device (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): each successful sign-in gets
 *   a signed device token naming the username; an attempt carrying a valid one for that username skips every limit
 *   above and has its own: `maxFailuresPerDevice` (5) failures in the window, then the token counts for nothing
 *   until they leave it. Guessers without the owner's device cannot forge one.
 * - a new device, from a *clean* address: the last `checksReservedForCleanAddresses` (3) tokens of the bucket, and
 *   a second in-flight slot, are kept for addresses with no failed, pending or load-refused sign-in (any username)
 *   within the window, and that have not asked for an account past the threshold within the window: an address
 *   is used as soon as it asks, answered or refused (Retry-After: the window, when it is clean again). Guessers
 *   cycling addresses keep them all used; only a never-used address (an IPv6 /64) for each check of the kept
 *   share, or addresses left idle for a whole window, take it from the owner. A success from an address makes it
 *   clean again (it was the owner's).
 *
 * Every attempt is counted before its password is hashed and uncounted when it succeeds (see FailureLimiter), and a
 * success without a device token also clears the username's failure count (not its bucket), unless the username
 * failed from several addresses in the window (SEVERAL_ADDRESSES): then its failures stay counted and every check
 * stays in the bucket, or each of the owner's sign-ins would reopen 5 unthrottled guesses. Counts live in memory,
 * per API instance.
 */
export interface SignInPolicy {
  maxFailuresPerUsernameAndAddress: number;
  maxFailuresPerAddress: number;
  maxFailuresPerUsername: number;
  usernameSlowDownBaseMs: number;
  usernameSlowDownMaxMs: number;
  maxChecksPerUsernamePerMinute: number;
  checksReservedForCleanAddresses: number;
  maxFailuresPerDevice: number;
  loginWindowMs: number;
}

/**
 * An account that failed from this many addresses in the window is guessed at: a success no longer clears its
 * failure count, so every check stays in the bucket until the failures leave the window.
 */
const SEVERAL_ADDRESSES = 2;

export type SignInAttempt =
  | { refused: true; retryAfterMs: number }
  | {
      refused: false;
      delayMs: number;
      /** The address had no failed, pending or load-refused sign-in in the window (the hash queue keeps it a share). */
      clean: boolean;
      succeeded(): void;
      failed(): void;
      /** The password was never checked: `busy` when the hash queue refused it, else an error. */
      notChecked(busy: boolean): void;
    };

/** The two in-flight slots of an account past the threshold: any address, and addresses with no failure. */
type Lane = 'any' | 'clean';

export class SignInThrottle {
  private readonly perUsernameAndAddress: FailureLimiter;
  private readonly perAddress: FailureLimiter;
  private readonly perUsername: FailureLimiter;
  /** Addresses refused for load (503) in the window: not failures, but no longer clean. */
  private readonly loadRefused: FailureLimiter;
  private readonly checks: TokenBuckets;
  /** `${lane}\0${username}` of the attempts in flight on accounts past the threshold. */
  private readonly inFlight = new Set<string>();
  /** Failures per device token (its id): the known device's own lane. */
  private readonly perDevice: FailureLimiter;
  /** Addresses that asked for an account past the threshold: no longer clean. */
  private readonly asked: RecentAsks;
  /** The addresses each username failed from in the window (up to SEVERAL_ADDRESSES). */
  private readonly failedFrom: FailingAddresses;

  constructor(
    private readonly policy: SignInPolicy,
    clock: Clock,
  ) {
    const windowMs = policy.loginWindowMs;
    this.perUsernameAndAddress = new FailureLimiter({ maxFailures: policy.maxFailuresPerUsernameAndAddress, windowMs }, clock);
    this.perAddress = new FailureLimiter({ maxFailures: policy.maxFailuresPerAddress, windowMs }, clock);
    // Never refuses (its limit is unreachable): only its count is read, to size the slow-down.
    this.perUsername = new FailureLimiter({ maxFailures: Number.POSITIVE_INFINITY, windowMs }, clock);
    this.loadRefused = new FailureLimiter({ maxFailures: Number.POSITIVE_INFINITY, windowMs }, clock);
    this.checks = new TokenBuckets(policy.maxChecksPerUsernamePerMinute, 60_000, clock);
    this.perDevice = new FailureLimiter({ maxFailures: policy.maxFailuresPerDevice, windowMs }, clock);
    this.asked = new RecentAsks(windowMs, clock);
    this.failedFrom = new FailingAddresses(SEVERAL_ADDRESSES, windowMs, clock);
  }

  /** Tokens an attempt in `lane` needs in the bucket: the kept share is for clean addresses only. */
  private tokensNeeded(lane: Lane): number {
    return lane === 'clean' ? 1 : 1 + Math.min(this.policy.checksReservedForCleanAddresses, this.policy.maxChecksPerUsernamePerMinute - 1);
  }

  /**
   * Counts a sign-in attempt of `username` from `address` (before the password is checked) or refuses it. Every
   * check and count is made in this one synchronous call: parallel requests cannot slip between them.
   * `deviceId`: the id of a valid device token issued for this username, when the attempt carries one.
   */
  begin(username: string, address: string, deviceId: string | null = null): SignInAttempt {
    if (deviceId !== null && this.perDevice.retryAfterMs(deviceId) === 0) return this.knownDevice(deviceId);
    const usernameKey = username.toLowerCase();
    const key = addressKey(address);
    const pairKey = `${usernameKey}\u0000${key}`;
    const clean = this.perAddress.count(key) === 0 && this.loadRefused.count(key) === 0 && !this.asked.has(key);
    const priorFailures = this.perUsername.count(usernameKey);
    const strict = Math.max(this.perUsernameAndAddress.retryAfterMs(pairKey), this.perAddress.retryAfterMs(key));
    if (strict > 0) return { refused: true, retryAfterMs: strict };
    let lane: Lane | null = null;
    if (priorFailures >= this.policy.maxFailuresPerUsername) {
      // Refused or not, this address has asked: it takes no more of the share kept for clean ones this window.
      this.asked.mark(key);
      const lanes: Lane[] = clean ? ['any', 'clean'] : ['any'];
      const waits = lanes.map((candidate) => {
        const busy = this.inFlight.has(`${candidate}\u0000${usernameKey}`);
        const bucket = this.checks.waitMs(usernameKey, this.tokensNeeded(candidate));
        return busy ? Math.max(1000, bucket) : bucket;
      });
      const free = waits.indexOf(0);
      // The wait after which this address, asking no more, is clean again: what the owner on a new device waits.
      if (free < 0) return { refused: true, retryAfterMs: Math.max(Math.min(...waits), this.policy.loginWindowMs) };
      lane = lanes[free];
      this.checks.take(usernameKey);
      this.inFlight.add(`${lane}\u0000${usernameKey}`);
    }
    const attempt = reserveAttempt([
      [this.perUsernameAndAddress, pairKey],
      [this.perAddress, key],
      [this.perUsername, usernameKey],
    ]);
    // Cannot happen (the strict limits were checked above, the per-username one never refuses).
    if ('retryAfterMs' in attempt) throw new Error('sign-in limits changed between check and count');
    const excess = priorFailures - this.policy.maxFailuresPerUsername;
    const delayMs = excess < 0 ? 0 : Math.min(this.policy.usernameSlowDownMaxMs, this.policy.usernameSlowDownBaseMs * 2 ** excess);
    let done = false;
    const finish = (checked: boolean) => {
      if (done) return false;
      done = true;
      if (lane) {
        this.inFlight.delete(`${lane}\u0000${usernameKey}`);
        // No password was checked: the token goes back.
        if (!checked) this.checks.take(usernameKey, -1);
      }
      return true;
    };
    return {
      refused: false,
      delayMs,
      clean,
      succeeded: () => {
        if (!finish(true)) return;
        attempt.release();
        this.perUsernameAndAddress.reset(pairKey);
        // Failures from several addresses are guessers', not the owner's typos: they stay counted, so the owner's
        // sign-in does not reopen checks outside the bucket (it did: 5 more after each of the owner's sign-ins).
        if (this.failedFrom.count(usernameKey) < SEVERAL_ADDRESSES) this.perUsername.reset(usernameKey);
        this.asked.forget(key);
      },
      failed: () => {
        if (finish(true)) this.failedFrom.mark(usernameKey, key);
      },
      notChecked: (busy) => {
        if (!finish(false)) return;
        attempt.release();
        if (busy) this.loadRefused.recordFailure(key);
      },
    };
  }

  /** An attempt from a known device: counted against its device token only, not slowed down, never in the bucket. */
  private knownDevice(deviceId: string): SignInAttempt {
    const attempt = reserveAttempt([[this.perDevice, deviceId]]);
    if ('retryAfterMs' in attempt) throw new Error('device limit changed between check and count');
    return {
      refused: false,
      delayMs: 0,
      clean: true,
      succeeded: () => {
        attempt.release();
        this.perDevice.reset(deviceId);
      },
      failed: () => undefined,
      notChecked: () => attempt.release(),
    };
  }
}

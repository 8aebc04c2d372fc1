import { MESSAGES } from '@shared/messages';
import { HttpError } from '../errors';

export interface HashQueueOptions {
  /** Password hashes computed at once. */
  concurrency: number;
  /** Hashes allowed to wait for a turn; past it the request is answered 503 at once. */
  maxWaiting: number;
  /** Further waiting places only `priority` work may take (see `HashLane`). */
  reservedWaiting?: number;
}

/**
 * `restricted`: sign-ins from an address that has failed, is failing or was refused for load within the window
 * (every guesser after its first guess). `priority`: everything else (a sign-in from a clean address, setting a
 * password, creating an account). Restricted work may fill `maxWaiting` places, priority work `reservedWaiting`
 * more, and a freed slot goes to priority work first: a flood of guesses (150 addresses sending made-up usernames
 * answered the owner 503 twice in 15 sign-ins) no longer takes the whole queue.
 *
 * The lane depends on the address only, never on whether the account exists: a lane chosen by account would answer
 * known and unknown usernames differently under load (401 for one, 503 for the other), telling which exist.
 */
export type HashLane = 'priority' | 'restricted';

/**
 * The one way into scrypt. scrypt runs on libuv's thread pool (4 threads) and takes a core for ~40 ms; unbounded,
 * a burst of sign-ins fills the pool and the CPU, and every other request waits behind it (GET /meta went from
 * 5 ms to 3.6 s during 200 sign-ins). Here at most `concurrency` hashes run, `maxWaiting` more wait in order (plus
 * `reservedWaiting` for priority work, served first), and the rest get 503 with Retry-After: a sign-in burst slows
 * sign-ins, not the rest of the API.
 */
export class PasswordHashQueue {
  private running = 0;
  private readonly waiting: Record<HashLane, Array<() => void>> = { priority: [], restricted: [] };
  /** Moving average of one hash's duration, for Retry-After. */
  private averageMs = 50;

  constructor(private readonly options: HashQueueOptions) {}

  private get waitingCount(): number {
    return this.waiting.priority.length + this.waiting.restricted.length;
  }

  /** Runs `hash` when a slot is free, or throws a 503 HttpError when too many already wait. */
  async run<T>(hash: () => Promise<T>, lane: HashLane = 'priority'): Promise<T> {
    if (this.running >= this.options.concurrency) {
      const places = this.options.maxWaiting + (lane === 'priority' ? (this.options.reservedWaiting ?? 0) : 0);
      if (this.waitingCount >= places) throw this.busy();
      await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    } else {
      this.running += 1;
    }
    const started = performance.now();
    try {
      return await hash();
    } finally {
      this.averageMs = this.averageMs * 0.9 + (performance.now() - started) * 0.1;
      const next = this.waiting.priority.shift() ?? this.waiting.restricted.shift();
      // The slot passes straight to the next waiter (running stays the same), or is freed.
      if (next) next();
      else this.running -= 1;
    }
  }

  private busy(): HttpError {
    const queuedMs = ((this.waitingCount + this.running) / this.options.concurrency) * this.averageMs;
    return new HttpError(503, MESSAGES.serverBusy, { 'retry-after': String(Math.max(1, Math.ceil(queuedMs / 1000))) });
  }
}

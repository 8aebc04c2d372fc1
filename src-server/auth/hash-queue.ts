import { MESSAGES } from '@shared/messages';
import { HttpError } from '../errors';

export interface HashQueueOptions {
  /** Password hashes computed at once. */
  concurrency: number;
  /** Hashes allowed to wait for a turn; past it the request is answered 503 at once. */
  maxWaiting: number;
}

/**
 * The one way into scrypt. scrypt runs on libuv's thread pool (4 threads) and takes a core for ~40 ms; unbounded,
 * a burst of sign-ins fills the pool and the CPU, and every other request waits behind it (GET /meta went from
 * 5 ms to 3.6 s during 200 sign-ins). Here at most `concurrency` hashes run, `maxWaiting` more wait in order, and
 * the rest get 503 with Retry-After: a sign-in burst slows sign-ins, not the rest of the API.
 */
export class PasswordHashQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** Moving average of one hash's duration, for Retry-After. */
  private averageMs = 50;

  constructor(private readonly options: HashQueueOptions) {}

  /** Runs `hash` when a slot is free, or throws a 503 HttpError when too many already wait. */
  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrency) {
      if (this.waiting.length >= this.options.maxWaiting) throw this.busy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    const started = performance.now();
    try {
      return await hash();
    } finally {
      this.averageMs = this.averageMs * 0.9 + (performance.now() - started) * 0.1;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter (running stays the same), or is freed.
      if (next) next();
      else this.running -= 1;
    }
  }

  private busy(): HttpError {
    const queuedMs = ((this.waiting.length + this.running) / this.options.concurrency) * this.averageMs;
    return new HttpError(503, MESSAGES.serverBusy, { 'retry-after': String(Math.max(1, Math.ceil(queuedMs / 1000))) });
  }
}

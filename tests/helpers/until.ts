/**
 * Polling for tests: what the code under test does in the background (a job, a follower, a reaper) is awaited by
 * checking its effect again and again, never by a fixed sleep.
 */

export interface PollOptions {
  /** How long to keep asking (default 20 s: a loaded 2-core machine). */
  timeoutMs?: number;
  /** The pause between two checks (default 50 ms). */
  intervalMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks `condition` until it holds or `timeoutMs` passed; answers whether it held at the last check. */
export async function until(condition: () => boolean | Promise<boolean>, options: PollOptions = {}): Promise<boolean> {
  const { timeoutMs = 20_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await pause(intervalMs);
  }
  return condition();
}

/** Reads until `done` holds of the value read, and answers that value; throws with the last value once `timeoutMs` passed. */
export async function untilValue<T>(read: () => T | Promise<T>, done: (value: T) => boolean, options: PollOptions = {}): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await pause(intervalMs);
  }
}

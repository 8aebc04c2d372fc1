import { setTimeout as sleepFor } from 'node:timers/promises';

/** Time source, injected so that token expiry and rate limits can be tested without waiting (tests/helpers/clock.ts). */
export interface Clock {
  now(): Date;
  /** Resolves once `ms` of this clock's time have passed (the sign-in slow-down waits on it). */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date(), sleep: (ms) => sleepFor(ms) };

/** Time source, injected so that token expiry and rate limits can be tested without waiting (tests/helpers/clock.ts). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

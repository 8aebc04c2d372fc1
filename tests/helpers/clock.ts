import type { Clock } from '../../src-server/clock';

/** A clock the tests move by hand: `sleep` resolves when `advance` reaches its end, never by itself. */
export class ManualClock implements Clock {
  private current: number;
  private sleepers: { until: number; wake: () => void }[] = [];
  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((wake) => this.sleepers.push({ until: this.current + ms, wake }));
  }
  /** What each pending `sleep` still waits, in ms, soonest first. */
  pendingSleeps(): number[] {
    return this.sleepers.map((sleeper) => sleeper.until - this.current).sort((a, b) => a - b);
  }
  advance(ms: number): void {
    this.current += ms;
    const due = this.sleepers.filter((sleeper) => sleeper.until <= this.current);
    this.sleepers = this.sleepers.filter((sleeper) => sleeper.until > this.current);
    for (const sleeper of due) sleeper.wake();
  }
}

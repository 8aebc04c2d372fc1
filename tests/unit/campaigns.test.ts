import { describe, expect, it } from 'vitest';
import { DELAY_REASONS, isOverdue, releaseDateDiff, revenueDelayImpact, SECONDS_PER_DAY } from '@shared/rules/campaigns';

const day = SECONDS_PER_DAY;
const quoted = 1_700_000_000;

describe('campaign timing rules', () => {
  it('has the seven delay reasons of the spec', () => {
    expect(DELAY_REASONS).toHaveLength(7);
    expect(new Set(DELAY_REASONS.map((reason) => reason.key)).size).toBe(7);
  });

  it('counts whole days from the quotation to the start', () => {
    expect(releaseDateDiff(quoted, quoted + 15 * day)).toBe(15);
    expect(releaseDateDiff(quoted, quoted + 15 * day + day - 1)).toBe(15);
    expect(releaseDateDiff(quoted, quoted - 2 * day)).toBe(-2);
    expect(releaseDateDiff(null, quoted)).toBeNull();
    expect(releaseDateDiff(quoted, undefined)).toBeNull();
  });

  it('is overdue only beyond 15 days', () => {
    expect(isOverdue(quoted, quoted + 15 * day)).toBe(false);
    expect(isOverdue(quoted, quoted + 16 * day)).toBe(true);
    expect(isOverdue(null, quoted + 100 * day)).toBe(false);
  });

  it('charges revenue × (delay − 15) / duration beyond the threshold', () => {
    const start = quoted + 25 * day;
    expect(revenueDelayImpact({ revenue: 9000, delayDays: 25, startDate: start, endDate: start + 90 * day })).toBe(1000);
    expect(revenueDelayImpact({ revenue: 9000, delayDays: 15, startDate: start, endDate: start + 90 * day })).toBe(0);
    expect(revenueDelayImpact({ revenue: 0, delayDays: 40, startDate: start, endDate: start + 90 * day })).toBe(0);
    expect(revenueDelayImpact({ revenue: null, delayDays: 40, startDate: start, endDate: start + 90 * day })).toBe(0);
    expect(revenueDelayImpact({ revenue: 9000, delayDays: 40, startDate: start, endDate: null })).toBeNull();
    expect(revenueDelayImpact({ revenue: 9000, delayDays: 40, startDate: start, endDate: start })).toBeNull();
  });
});

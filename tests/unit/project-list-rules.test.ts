import { describe, expect, it } from 'vitest';
import {
  canWriteProjects,
  checkDateRange,
  DATE_RANGE_MESSAGES,
  dayToEpochSeconds,
  defaultCsmFilter,
  epochSecondsToDay,
  hasMoreProjects,
  isEstimateId,
  missingImportFields,
  missingProjectFields,
  projectPageSize,
} from '@shared/rules/project-list';

describe('date-range filter (spec §5)', () => {
  it('needs both days', () => {
    expect(checkDateRange('', '2026-03-01')).toEqual({ ok: false, error: DATE_RANGE_MESSAGES.bothRequired });
    expect(checkDateRange('2026-03-01', '')).toEqual({ ok: false, error: DATE_RANGE_MESSAGES.bothRequired });
    expect(checkDateRange('2026-02-30', '2026-03-01')).toEqual({ ok: false, error: DATE_RANGE_MESSAGES.bothRequired });
  });
  it('refuses "from" after "to" and covers the whole "to" day', () => {
    expect(checkDateRange('2026-03-02', '2026-03-01')).toEqual({ ok: false, error: DATE_RANGE_MESSAGES.fromAfterTo });
    const same = checkDateRange('2026-03-01', '2026-03-01');
    expect(same).toEqual({ ok: true, range: { from: 1772323200, to: 1772323200 + 86_399 } });
  });
  it('reads and writes date inputs in UTC days', () => {
    expect(dayToEpochSeconds('2025-01-01')).toBe(1735689600);
    expect(epochSecondsToDay(1735689600 + 86_399)).toBe('2025-01-01');
    expect(dayToEpochSeconds('01/01/2025')).toBeNull();
  });
});

describe('projects list defaults (spec §6, §9)', () => {
  it('filters on the current user when among the CSMs', () => {
    expect(defaultCsmFilter(3, [{ id: 2 }, { id: 3 }])).toEqual([3]);
    expect(defaultCsmFilter(4, [{ id: 2 }, { id: 3 }])).toBeUndefined();
    expect(defaultCsmFilter(undefined, [{ id: 2 }])).toBeUndefined();
  });
  it('asks 8 first, then 25, and another page only after a full one', () => {
    expect(projectPageSize(true)).toBe(8);
    expect(projectPageSize(false)).toBe(25);
    expect(hasMoreProjects(8, 8)).toBe(true);
    expect(hasMoreProjects(7, 8)).toBe(false);
  });
  it('lets CSM, CSM_LEAD and ADMIN create, not SALES alone', () => {
    expect(canWriteProjects(['SALES'])).toBe(false);
    expect(canWriteProjects(['CSM'])).toBe(true);
    expect(canWriteProjects(['CSM_LEAD'])).toBe(true);
    expect(canWriteProjects(['SALES', 'ADMIN'])).toBe(true);
  });
});

describe('create project form (spec §5)', () => {
  const complete = { name: 'Cardio', clientName: 'Sanofa', lines: '3', actor: 'Laboratoire', keyAccount: 2 };
  it('lists every missing field', () => {
    expect(missingProjectFields(complete)).toEqual([]);
    expect(missingProjectFields({ name: ' ', clientName: '', lines: '', actor: '', keyAccount: null })).toEqual([
      'name',
      'clientName',
      'lines',
      'actor',
      'keyAccount',
    ]);
    expect(missingProjectFields({ ...complete, lines: '0' })).toEqual(['lines']);
    expect(missingProjectFields({ ...complete, lines: '201' })).toEqual(['lines']);
    expect(missingProjectFields({ ...complete, lines: '2.5' })).toEqual(['lines']);
  });
  it('needs a quote id DEV-… to import', () => {
    expect(isEstimateId('DEV-2026-0042')).toBe(true);
    expect(isEstimateId('2026-0042')).toBe(false);
    expect(missingImportFields({ estimateId: 'DEV-1', name: 'Cardio', actor: 'DM', keyAccount: 2 })).toEqual([]);
    expect(missingImportFields({ estimateId: 'X', name: '', actor: '', keyAccount: null })).toEqual(['estimateId', 'name', 'actor', 'keyAccount']);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, fromDateTimeInput, toDateTimeInput } from '@shared/rules/dates';

const seconds = (isoUtc: string) => Date.parse(isoUtc) / 1000;

/** The helper reads the machine's time zone; Node applies a change of TZ at once (tests run in forks). */
function inTimeZone(timeZone: string) {
  let previous: string | undefined;
  beforeEach(() => {
    previous = process.env.TZ;
    process.env.TZ = timeZone;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });
}

describe('dates in the user time zone, across the daylight-saving changes of Europe/Paris', () => {
  inTimeZone('Europe/Paris');

  it('last Sunday of March: 01:59 CET is followed by 03:00 CEST', () => {
    expect(formatDateTime(seconds('2026-03-29T00:59:00Z'))).toBe('29/03/2026 01:59');
    expect(formatDateTime(seconds('2026-03-29T01:00:00Z'))).toBe('29/03/2026 03:00');
    expect(formatDate(seconds('2026-03-29T01:00:00Z'))).toBe('29/03/2026');
  });

  it('last Sunday of October: 02:30 comes twice, an hour apart', () => {
    expect(formatDateTime(seconds('2026-10-25T00:30:00Z'))).toBe('25/10/2026 02:30');
    expect(formatDateTime(seconds('2026-10-25T01:30:00Z'))).toBe('25/10/2026 02:30');
    expect(formatDateTime(seconds('2026-10-25T02:30:00Z'))).toBe('25/10/2026 03:30');
  });

  it('an instant late in the UTC evening is already the next day in Paris, by one hour in winter and two in summer', () => {
    expect(formatDate(seconds('2026-03-28T23:30:00Z'))).toBe('29/03/2026');
    expect(formatDate(seconds('2026-03-29T22:30:00Z'))).toBe('30/03/2026');
    expect(formatDate(seconds('2026-03-29T21:30:00Z'))).toBe('29/03/2026');
    expect(formatDate(seconds('2026-10-24T22:30:00Z'))).toBe('25/10/2026');
    expect(formatDate(seconds('2026-10-25T22:30:00Z'))).toBe('25/10/2026');
    expect(formatDate(seconds('2026-10-25T23:30:00Z'))).toBe('26/10/2026');
  });

  it('a time zone given by name wins over the machine one', () => {
    expect(formatDateTime(seconds('2026-03-29T01:00:00Z'), 'America/New_York')).toBe('28/03/2026 21:00');
    expect(formatDate(seconds('2026-10-25T23:30:00Z'), 'UTC')).toBe('25/10/2026');
  });

  it('a datetime-local field shows and reads the local time on both sides of a change', () => {
    expect(toDateTimeInput(seconds('2026-03-29T00:59:00Z'))).toBe('2026-03-29T01:59');
    expect(toDateTimeInput(seconds('2026-03-29T01:00:00Z'))).toBe('2026-03-29T03:00');
    expect(fromDateTimeInput('2026-03-29T03:00')).toBe(seconds('2026-03-29T01:00:00Z'));
    expect(fromDateTimeInput('2026-10-25T03:30')).toBe(seconds('2026-10-25T02:30:00Z'));
    expect(fromDateTimeInput('2026-07-14T12:00')).toBe(seconds('2026-07-14T10:00:00Z'));
    expect(toDateTimeInput(null)).toBe('');
    expect(fromDateTimeInput('')).toBeNull();
    expect(fromDateTimeInput('pas une date')).toBeNull();
  });

  it('calendar days stay their day on both sides of a change', () => {
    expect(formatDay(seconds('2026-03-29T00:00:00Z'))).toBe('29/03/2026');
    expect(formatDay(seconds('2026-10-25T00:00:00Z'))).toBe('25/10/2026');
  });
});

describe('calendar days west of Greenwich', () => {
  inTimeZone('America/New_York');

  it('show the stored day where local midnight comes after UTC midnight', () => {
    expect(formatDay(seconds('2026-01-05T00:00:00Z'))).toBe('05/01/2026');
    // The instant helper shows the evening before there: days must never go through it.
    expect(formatDate(seconds('2026-01-05T00:00:00Z'))).toBe('04/01/2026');
  });

  it('are empty for none, keep the year unpadded and never throw', () => {
    expect(formatDay(null)).toBe('');
    expect(formatDay(undefined)).toBe('');
    expect(formatDay(seconds('0044-03-15T00:00:00Z'))).toBe('15/03/44');
    expect(formatDay(Number.NaN)).toBe('NaN/NaN/NaN');
    expect(formatDay(9e15)).toBe('NaN/NaN/NaN');
  });
});

import { tz } from '@date-fns/tz';
import { format, isValid } from 'date-fns';

/**
 * Dates as the spec shows them (platform.md §9: DD/MM/yyyy), the one date helper of every screen and file.
 * Instants (a save, a comment, a schedule, a capture) show in the user's time zone: the machine's own, where the
 * app runs, unless a time zone is given. Calendar days (a project's start, check and end dates, a quote's month)
 * are stored at midnight UTC and show as that day wherever the user is.
 */
const DATE = 'dd/MM/yyyy';
const DATE_TIME = 'dd/MM/yyyy HH:mm';
/** A day's year unpadded, as JavaScript's getUTCFullYear() and the export's SQL (FMYYYY) write it. */
const DAY = 'dd/MM/y';
const UTC = tz('UTC');

const inZone = (timeZone: string | undefined) => (timeZone === undefined ? undefined : { in: tz(timeZone) });

/** DD/MM/yyyy of an instant (epoch seconds) in the user's time zone, or in `timeZone` (IANA name). */
export function formatDate(epochSeconds: number, timeZone?: string): string {
  return format(new Date(epochSeconds * 1000), DATE, inZone(timeZone));
}

/** DD/MM/yyyy HH:mm of an instant (epoch seconds), for schedules where the hour matters. */
export function formatDateTime(epochSeconds: number, timeZone?: string): string {
  return format(new Date(epochSeconds * 1000), DATE_TIME, inZone(timeZone));
}

/**
 * DD/MM/yyyy of a calendar day kept at midnight UTC (epoch seconds); empty for none. A value out of a date's
 * range gives what JavaScript's Date gives rather than an error, so one bad cell never stops an export.
 */
export function formatDay(epochSeconds: number | null | undefined): string {
  if (epochSeconds == null) return '';
  const day = new Date(epochSeconds * 1000);
  return isValid(day) ? format(day, DAY, { in: UTC }) : 'NaN/NaN/NaN';
}

/** The value of an <input type="datetime-local"> showing an instant (epoch seconds) in the user's time zone; empty for none. */
export function toDateTimeInput(epochSeconds: number | null | undefined): string {
  if (epochSeconds == null) return '';
  const instant = new Date(epochSeconds * 1000);
  return isValid(instant) ? format(instant, "yyyy-MM-dd'T'HH:mm") : '';
}

/** The instant (epoch seconds) a datetime-local input's value names in the user's time zone; null when empty or invalid. */
export function fromDateTimeInput(value: string): number | null {
  if (!value) return null;
  const instant = new Date(value);
  return isValid(instant) ? Math.floor(instant.getTime() / 1000) : null;
}

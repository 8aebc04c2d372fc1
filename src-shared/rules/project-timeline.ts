import { START_ONLY_DURATION_SECONDS } from './projects';

/**
 * The project timeline overlay (audiences-projects-tools.md §2 "Timeline overlay"): months from 3 before the
 * earliest date to 3 after the latest, one bar per action from its start to its end. Dates are days kept at
 * midnight UTC (epoch seconds), so months and days are read in UTC.
 */

/** Months shown before the earliest and after the latest date. */
export const TIMELINE_MARGIN_MONTHS = 3;
/** A bar's position inside its month is the day of the month out of 30 (31st counts as 30). */
export const TIMELINE_DAYS_PER_MONTH = 30;
/** Comment edits on the timeline are saved 500 ms after the last keystroke. */
export const TIMELINE_COMMENT_DEBOUNCE_MS = 500;

export interface TimelineDates {
  startDate: number | null;
  endDate: number | null;
}

export interface TimelineMonth {
  year: number;
  /** 0-11. */
  month: number;
  /** "janv. 2026". */
  label: string;
}

export interface TimelineBar {
  /** Months from the start of the range to the bar's start (fractional). */
  start: number;
  /** Months from the start of the range to the bar's end (fractional). */
  end: number;
  /** The start only was known: the bar lasts 2,629,743 s. */
  startOnly: boolean;
}

const MONTH_LABELS = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'];

/** Months since year 0, UTC: comparable month numbers. */
const monthNumber = (epochSeconds: number) => {
  const date = new Date(epochSeconds * 1000);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
};
const dayOfMonth = (epochSeconds: number) => Math.min(new Date(epochSeconds * 1000).getUTCDate(), TIMELINE_DAYS_PER_MONTH);

/** The end a bar uses: its end date, or start + 2,629,743 s when only the start is known; null without a start. */
export function barEnd(target: TimelineDates): number | null {
  if (target.startDate == null) return null;
  if (target.endDate != null && target.endDate >= target.startDate) return target.endDate;
  return target.startDate + START_ONLY_DURATION_SECONDS;
}

/**
 * The months shown: from 3 months before the month of the earliest date to 3 months after the month of the
 * latest (a start-only target's computed end counts). Empty when no target has a date.
 */
export function timelineMonths(targets: TimelineDates[]): TimelineMonth[] {
  const dates: number[] = [];
  for (const target of targets) {
    if (target.startDate != null) dates.push(target.startDate);
    if (target.endDate != null) dates.push(target.endDate);
    const end = barEnd(target);
    if (end != null) dates.push(end);
  }
  if (!dates.length) return [];
  const first = monthNumber(Math.min(...dates)) - TIMELINE_MARGIN_MONTHS;
  const last = monthNumber(Math.max(...dates)) + TIMELINE_MARGIN_MONTHS;
  const months: TimelineMonth[] = [];
  for (let n = first; n <= last; n++) {
    const year = Math.floor(n / 12);
    const month = n - year * 12;
    months.push({ year, month, label: `${MONTH_LABELS[month]} ${year}` });
  }
  return months;
}

/**
 * Where a date falls, in months from the first month shown: its month's index plus the day of the month out
 * of 30. A start counts from the beginning of its day ((day − 1) / 30), an end to the end of its day (day / 30),
 * so an action from the 1st to the 30th fills its month.
 */
export function monthOffset(firstMonth: TimelineMonth, epochSeconds: number, edge: 'start' | 'end'): number {
  const index = monthNumber(epochSeconds) - (firstMonth.year * 12 + firstMonth.month);
  const day = dayOfMonth(epochSeconds);
  return index + (edge === 'start' ? day - 1 : day) / TIMELINE_DAYS_PER_MONTH;
}

/** A target's bar within the months shown; null when it has no start date (nothing to draw). */
export function timelineBar(months: TimelineMonth[], target: TimelineDates): TimelineBar | null {
  const end = barEnd(target);
  if (target.startDate == null || end == null || !months.length) return null;
  const start = monthOffset(months[0], target.startDate, 'start');
  return { start, end: Math.max(start, monthOffset(months[0], end, 'end')), startOnly: target.endDate == null || target.endDate < target.startDate };
}

/** A bar as CSS percentages of the whole range (left and width). */
export function barPercentages(months: TimelineMonth[], bar: TimelineBar): { left: number; width: number } {
  const total = months.length || 1;
  return { left: (bar.start / total) * 100, width: ((bar.end - bar.start) / total) * 100 };
}

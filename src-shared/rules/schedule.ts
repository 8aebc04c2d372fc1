import { CONTENT_FIELD_MESSAGES, contentFieldLabel } from '../messages/content-fields';

/** An item's automatic publication dates (epoch seconds), as the editor, the server and the CSV import read them. */
export interface Schedule {
  autoStartAt?: number | null;
  autoStopAt?: number | null;
}

interface ScheduleError {
  field: 'autoStartAt' | 'autoStopAt';
  message: string;
}

/**
 * What the scheduling dates may not be (docs/content.md, scheduling), checked at the field, at save and by the
 * server: a date set or changed to a moment already past (the job would apply it at once, or never), and an
 * auto-stop at or before the auto-start. Dates left as `saved` holds them are not checked again: a start that has
 * already run stays in the past, and an item scheduled before keeps being editable.
 */
export function scheduleErrors(next: Schedule, saved: Schedule | null, nowSeconds: number): ScheduleError[] {
  const errors: ScheduleError[] = [];
  const start = next.autoStartAt ?? null;
  const stop = next.autoStopAt ?? null;
  const changed = (field: 'autoStartAt' | 'autoStopAt') => (next[field] ?? null) !== (saved?.[field] ?? null);
  for (const field of ['autoStartAt', 'autoStopAt'] as const) {
    const value = next[field] ?? null;
    if (value !== null && changed(field) && value < nowSeconds)
      errors.push({ field, message: CONTENT_FIELD_MESSAGES.dateInPast(contentFieldLabel(field)) });
  }
  if (
    start !== null &&
    stop !== null &&
    stop <= start &&
    (changed('autoStartAt') || changed('autoStopAt')) &&
    !errors.some((error) => error.field === 'autoStopAt')
  )
    errors.push({
      field: 'autoStopAt',
      message: CONTENT_FIELD_MESSAGES.stopBeforeStart(contentFieldLabel('autoStopAt'), contentFieldLabel('autoStartAt')),
    });
  return errors;
}

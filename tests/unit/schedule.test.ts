import { describe, expect, it } from 'vitest';
import { CONTENT_FIELD_MESSAGES } from '@shared/messages/content-fields';
import { scheduleErrors } from '@shared/rules/schedule';

const NOW = 1_800_000_000;
const START_PAST = { field: 'autoStartAt', message: CONTENT_FIELD_MESSAGES.dateInPast('Publication automatique le') };
const STOP_PAST = { field: 'autoStopAt', message: CONTENT_FIELD_MESSAGES.dateInPast('Dé-publication automatique le') };
const STOP_FIRST = {
  field: 'autoStopAt',
  message: CONTENT_FIELD_MESSAGES.stopBeforeStart('Dé-publication automatique le', 'Publication automatique le'),
};

describe('scheduling dates (docs/content.md, scheduling)', () => {
  it('accepts no dates, or dates ahead with the stop after the start', () => {
    expect(scheduleErrors({}, null, NOW)).toEqual([]);
    expect(scheduleErrors({ autoStartAt: NOW + 60, autoStopAt: NOW + 3600 }, null, NOW)).toEqual([]);
  });

  it('refuses a date set in the past, at its field', () => {
    expect(scheduleErrors({ autoStartAt: NOW - 60, autoStopAt: NOW + 3600 }, null, NOW)).toEqual([START_PAST]);
    expect(scheduleErrors({ autoStartAt: null, autoStopAt: NOW - 1 }, { autoStopAt: NOW + 10 }, NOW)).toEqual([STOP_PAST]);
  });

  it('refuses a stop at or before the start, said once at the stop', () => {
    expect(scheduleErrors({ autoStartAt: NOW + 3600, autoStopAt: NOW + 60 }, null, NOW)).toEqual([STOP_FIRST]);
    expect(scheduleErrors({ autoStartAt: NOW + 60, autoStopAt: NOW + 60 }, null, NOW)).toEqual([STOP_FIRST]);
    expect(scheduleErrors({ autoStartAt: NOW + 60, autoStopAt: NOW - 60 }, null, NOW)).toEqual([STOP_PAST]);
  });

  it('leaves alone dates kept as they were saved, even once past', () => {
    const saved = { autoStartAt: NOW - 7200, autoStopAt: NOW - 3600 };
    expect(scheduleErrors(saved, saved, NOW)).toEqual([]);
    expect(scheduleErrors({ ...saved, autoStopAt: NOW + 3600 }, saved, NOW)).toEqual([]);
    expect(scheduleErrors({ ...saved, autoStartAt: NOW - 60 }, saved, NOW)).toEqual([START_PAST, STOP_FIRST]);
  });
});

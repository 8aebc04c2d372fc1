import { describe, expect, it } from 'vitest';
import {
  BRIEFING_SECTIONS,
  briefingPlainText,
  briefingStartState,
  canEditBriefing,
  canEditComment,
  commentTextToSave,
  defaultBriefingState,
  ownLatestComment,
  timelineCommentSave,
} from '@shared/rules/project-comments';
import { barEnd, barPercentages, monthOffset, timelineBar, timelineMonths } from '@shared/rules/project-timeline';

/** Epoch seconds of a UTC day. */
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

describe('timeline range', () => {
  it('spans 3 months before the earliest date to 3 months after the latest', () => {
    const months = timelineMonths([
      { startDate: day('2026-05-10'), endDate: day('2026-06-20') },
      { startDate: day('2026-04-02'), endDate: day('2026-08-31') },
    ]);
    expect(months[0]).toMatchObject({ year: 2026, month: 0 });
    expect(months.at(-1)).toMatchObject({ year: 2026, month: 10 });
    expect(months).toHaveLength(11);
    expect(months[0].label).toBe('janv. 2026');
  });

  it('crosses years and counts the computed end of a start-only target', () => {
    const months = timelineMonths([{ startDate: day('2026-12-15'), endDate: null }]);
    // Start 15/12/2026 + 2,629,743 s ends mid-January 2027: September 2026 to April 2027.
    expect(months[0]).toMatchObject({ year: 2026, month: 8 });
    expect(months.at(-1)).toMatchObject({ year: 2027, month: 3 });
  });

  it('is empty when no target has a date', () => {
    expect(timelineMonths([{ startDate: null, endDate: null }])).toEqual([]);
  });
});

describe('timeline bars', () => {
  it('a start-only target lasts 2,629,743 s', () => {
    expect(barEnd({ startDate: 1000, endDate: null })).toBe(1000 + 2_629_743);
    expect(barEnd({ startDate: 1000, endDate: 5000 })).toBe(5000);
    expect(barEnd({ startDate: null, endDate: 5000 })).toBeNull();
  });

  it('places a date by its month and its day of the month out of 30', () => {
    const [first] = timelineMonths([{ startDate: day('2026-04-01'), endDate: day('2026-04-30') }]);
    expect(first).toMatchObject({ year: 2026, month: 0 });
    expect(monthOffset(first, day('2026-04-01'), 'start')).toBe(3);
    expect(monthOffset(first, day('2026-04-30'), 'end')).toBe(4);
    expect(monthOffset(first, day('2026-04-16'), 'start')).toBe(3.5);
    // The 31st counts as the 30th.
    expect(monthOffset(first, day('2026-05-31'), 'end')).toBe(5);
  });

  it('draws one bar per dated action, as percentages of the range', () => {
    const targets = [
      { startDate: day('2026-04-01'), endDate: day('2026-04-30') },
      { startDate: day('2026-04-16'), endDate: null },
      { startDate: null, endDate: null },
    ];
    const months = timelineMonths(targets);
    expect(months).toHaveLength(1 + 1 + 6);
    const [full, startOnly, none] = targets.map((target) => timelineBar(months, target));
    expect(full).toEqual({ start: 3, end: 4, startOnly: false });
    expect(barPercentages(months, full!)).toEqual({ left: (3 / 8) * 100, width: (1 / 8) * 100 });
    expect(startOnly?.startOnly).toBe(true);
    // 16/04 + 2,629,743 s is 16/05 10:29 UTC: to the end of the 16th of the next month.
    expect(startOnly?.start).toBe(3.5);
    expect(startOnly?.end).toBeCloseTo(4 + 16 / 30, 10);
    expect(none).toBeNull();
  });
});

describe('comments', () => {
  const mine = { id: 4, author: 7, content: 'Relancer le client' };
  const theirs = { id: 9, author: 8, content: 'OK pour moi' };

  it('only the author edits or deletes', () => {
    expect(canEditComment(mine, 7)).toBe(true);
    expect(canEditComment(theirs, 7)).toBe(false);
    expect(canEditComment(mine, null)).toBe(false);
  });

  it('skips saving unchanged or empty text', () => {
    expect(commentTextToSave('Relancer', 'Relancer')).toBeNull();
    expect(commentTextToSave('Relancer', '  Relancer \n')).toBeNull();
    expect(commentTextToSave('Relancer', '   ')).toBeNull();
    expect(commentTextToSave('Relancer', 'Relancer lundi ')).toBe('Relancer lundi');
  });

  it('a timeline edit creates the user comment once, then updates it', () => {
    expect(ownLatestComment([mine, theirs, { id: 2, author: 7, content: 'old' }], 7)).toBe(mine);
    expect(ownLatestComment([theirs], 7)).toBeNull();
    expect(timelineCommentSave(null, 'Bientôt')).toEqual({ kind: 'create', content: 'Bientôt' });
    expect(timelineCommentSave(mine, 'Relancer le client')).toEqual({ kind: 'none' });
    expect(timelineCommentSave(mine, 'Relancé')).toEqual({ kind: 'update', id: 4, content: 'Relancé' });
    expect(timelineCommentSave(null, '  ')).toEqual({ kind: 'none' });
  });
});

describe('briefing', () => {
  it('the default template has the seven sections of §4, each a heading and an empty paragraph', () => {
    const state = defaultBriefingState();
    const children = state.root.children as { type: string; tag?: string }[];
    expect(children).toHaveLength(14);
    expect(children.filter((node) => node.type === 'heading').every((node) => node.tag === 'h3')).toBe(true);
    expect(briefingPlainText(state).split('\n').filter(Boolean)).toEqual([...BRIEFING_SECTIONS]);
    expect(BRIEFING_SECTIONS).toHaveLength(7);
  });

  it('starts from the saved briefing, or the template when there is none or it is empty', () => {
    const saved = {
      content: { root: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'Cible: cardiologues' }] }] } },
    };
    expect(briefingStartState(saved)).toBe(saved.content);
    expect(briefingStartState(null)).toEqual(defaultBriefingState());
    expect(briefingStartState({ content: { root: { type: 'root', children: [] } } })).toEqual(defaultBriefingState());
  });

  it('reads lists and line breaks as plain text', () => {
    const state = {
      root: {
        type: 'root',
        children: [
          {
            type: 'list',
            children: [
              { type: 'listitem', children: [{ type: 'text', text: 'un' }] },
              { type: 'listitem', children: [{ type: 'text', text: 'deux' }] },
            ],
          },
          { type: 'paragraph', children: [{ type: 'text', text: 'a' }, { type: 'linebreak' }, { type: 'text', text: 'b' }] },
        ],
      },
    };
    expect(briefingPlainText(state)).toBe('un\ndeux\na\nb');
  });

  it('every Projects-menu role edits the briefing, others do not', () => {
    expect(canEditBriefing(['SALES'])).toBe(true);
    expect(canEditBriefing(['CONTENT_CREATOR'])).toBe(false);
    expect(canEditBriefing(['SALES', 'ADMIN'])).toBe(true);
    expect(canEditBriefing(['CSM'])).toBe(true);
    expect(canEditBriefing(['CSM_LEAD'])).toBe(true);
  });
});

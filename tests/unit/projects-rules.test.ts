import { describe, expect, it } from 'vitest';
import { formatDay } from '@shared/rules/dates';
import {
  actionCodeStem,
  advertSearchType,
  applyTargetChange,
  compareTypes,
  formatAmount,
  formatGoal,
  formatNumber,
  generatedActionCodes,
  hasFeedbackMenu,
  newAdvertPath,
  normalizeGoal,
  parseGoalInput,
  singleTargetActionCode,
  statusClass,
  statusRank,
  TARGET_STATUSES,
  TARGET_TYPES,
  typeLink,
  type TimingFields,
} from '@shared/rules/projects';
import { guessType } from '../../src-server/features/projects/handlers/estimates';
import { parseEstimateCsv } from '../../src-server/features/projects/estimates';

const DAY = 86_400;

describe('goal input (spec §5)', () => {
  it('reads digits alone as views and each suffix as its unit', () => {
    expect(parseGoalInput('12000')).toEqual({ views: 12000, days: 0, shipments: 0 });
    expect(parseGoalInput('12 000')).toEqual({ views: 12000, days: 0, shipments: 0 });
    for (const text of ['15j', '15 jr', '15 jour', '15 jours', '15J'])
      expect(parseGoalInput(text), text).toEqual({ views: 0, days: 15, shipments: 0 });
    for (const text of ['2m', '2 mois', '2 month']) expect(parseGoalInput(text), text).toEqual({ views: 0, days: 60, shipments: 0 });
    for (const text of ['500v', '500 vue', '500 vues', '500 view']) expect(parseGoalInput(text), text).toEqual({ views: 500, days: 0, shipments: 0 });
    for (const text of ['800e', '800 envois', '800 shipment']) expect(parseGoalInput(text), text).toEqual({ views: 0, days: 0, shipments: 800 });
  });

  it('gives a goal with no value for unrecognised text, and nothing to submit for "--"', () => {
    expect(parseGoalInput('beaucoup')).toEqual({ views: 0, days: 0, shipments: 0 });
    expect(parseGoalInput('12 semaines')).toEqual({ views: 0, days: 0, shipments: 0 });
    expect(parseGoalInput('--')).toBeUndefined();
    expect(parseGoalInput(' -- ')).toBeUndefined();
  });

  it('keeps one non-zero value', () => {
    expect(normalizeGoal({ views: 3, days: 4 })).toEqual({ views: 3, days: 0, shipments: 0 });
    expect(normalizeGoal(null)).toEqual({ views: 0, days: 0, shipments: 0 });
  });
});

describe('goal readings (spec §3)', () => {
  it('grid reading: vues, envois, jours under 30 days, half-months from 30 days, -- when none', () => {
    expect(formatGoal({ views: 12000, days: 0, shipments: 0 })).toBe('12 000 vues');
    expect(formatGoal({ views: 0, days: 0, shipments: 800 })).toBe('800 envois');
    expect(formatGoal({ views: 0, days: 29, shipments: 0 })).toBe('29 jours');
    expect(formatGoal({ views: 0, days: 30, shipments: 0 })).toBe('1 mois');
    expect(formatGoal({ views: 0, days: 45, shipments: 0 })).toBe('1.5 mois');
    expect(formatGoal({ views: 0, days: 90, shipments: 0 })).toBe('3 mois');
    expect(formatGoal({ views: 0, days: 0, shipments: 0 })).toBe('--');
    expect(formatGoal(undefined)).toBe('--');
  });
});

describe('action codes (spec §4 Project creation)', () => {
  it('3 letters of the client, 4 of the project, two-digit year, -1., uppercased', () => {
    expect(actionCodeStem('Sanofa', 'Cardio HTA', 2026)).toBe('SANCARD26-1.');
    expect(actionCodeStem('Laboratoires Sanofa', 'été 2026', 2026)).toBe('LABETE226-1.');
    expect(actionCodeStem('MedTech Santé', 'Œil sec', 2030)).toBe('MEDOEIL30-1.');
    expect(actionCodeStem('3M', 'Go', 2009)).toBe('3MGO09-1.');
    expect(generatedActionCodes('Sanofa', 'Cardio', 2026, 3)).toEqual(['SANCARD26-1.1', 'SANCARD26-1.2', 'SANCARD26-1.3']);
  });

  it('a single new target gets A1, then the first A{n} free in the project', () => {
    expect(singleTargetActionCode('Sanofa', 'Cardio', 2026, [])).toBe('SANCARD26-1.A1');
    expect(singleTargetActionCode('Sanofa', 'Cardio', 2026, ['SANCARD26-1.A1', 'SANCARD26-1.A3'])).toBe('SANCARD26-1.A2');
  });
});

describe('statuses (spec §4)', () => {
  it('ranks in the spec order and maps the colour classes', () => {
    expect(TARGET_STATUSES.map(statusRank)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(TARGET_STATUSES.map(statusClass)).toEqual([
      'status1',
      'status2',
      'status3',
      'status31',
      'status32',
      'status4',
      'status5',
      'status6',
      'status7',
    ]);
  });

  it('offers the feedback item only with an advert or tool and a status from 3 to 6', () => {
    expect(hasFeedbackMenu({ advertId: 1, toolId: null, status: '3. stats à sortir' })).toBe(true);
    expect(hasFeedbackMenu({ advertId: null, toolId: 4, status: '6. feedback réalisé' })).toBe(true);
    expect(hasFeedbackMenu({ advertId: 1, toolId: null, status: '2. en ligne' })).toBe(false);
    expect(hasFeedbackMenu({ advertId: 1, toolId: null, status: '7. annulé' })).toBe(false);
    expect(hasFeedbackMenu({ advertId: null, toolId: null, status: '4. feedback à préparer' })).toBe(false);
  });
});

describe('types (spec §4 Target types and links)', () => {
  it('links each type to an advert, a tool index or nothing', () => {
    const links = Object.fromEntries(TARGET_TYPES.map((type) => [type, typeLink(type)]));
    expect(links).toEqual({
      post: 'advert',
      video: 'advert',
      quiz: 'advert',
      search: 'advert',
      story: 'advert',
      'story video': 'advert',
      'contenu additionel': 'advert',
      notification: 'advert',
      'mise en avant': 'tool',
      'nl hebdo': null,
      référencement: 'tool',
      sondage: 'advert',
      'emailling dédié': null,
      medacademy: null,
      'conseil associé': 'advert',
      datas: null,
      'flash notif': 'advert',
    });
  });

  it('maps the advert search type', () => {
    expect(['contenu additionel', 'conseil associé', 'notification', 'story video', 'sondage', 'flash notif', 'video'].map(advertSearchType)).toEqual(
      ['search', 'search', 'story', 'story', 'quiz', 'notification', 'video'],
    );
  });

  it('sorts post first', () => {
    expect(['video', 'quiz', 'post', 'datas'].sort(compareTypes)).toEqual(['post', 'datas', 'quiz', 'video']);
  });

  it('guesses a quote line type from its label', () => {
    expect(['Post sponsorisé cardio', 'Vidéo produit', 'Notification push', 'Story vidéo', 'Conseil divers'].map(guessType)).toEqual([
      'post',
      'video',
      'notification',
      'story video',
      null,
    ]);
  });
});

describe('date, delay and revenue rules (spec §4)', () => {
  const start = Date.UTC(2026, 2, 1) / 1000;
  const base: TimingFields = {
    type: 'post',
    status: '2. en ligne',
    startDate: null,
    endDate: null,
    initialQuotationDate: null,
    revenue: null,
    releaseDateDiff: null,
    delayReason: null,
    revenueDelayImpact: null,
  };

  it('fills an empty end date with start + 90 days, except for notifications and a set end date', () => {
    expect(applyTargetChange(base, { startDate: start }).next.endDate).toBe(start + 7_776_000);
    expect(applyTargetChange({ ...base, type: 'notification' }, { startDate: start }).next.endDate).toBeNull();
    expect(applyTargetChange({ ...base, endDate: start + DAY }, { startDate: start }).next.endDate).toBe(start + DAY);
    expect(applyTargetChange({ ...base, endDate: start }, { startDate: null }).next.startDate).toBeNull();
  });

  it('computes the release date difference and the revenue impact beyond 15 days, asking for a reason', () => {
    const on = { ...base, startDate: start, endDate: start + 90 * DAY, revenue: 9000 };
    const inTime = applyTargetChange(on, { initialQuotationDate: start - 10 * DAY });
    expect([inTime.next.releaseDateDiff, inTime.next.revenueDelayImpact, inTime.needsDelayReason]).toEqual([10, 0, false]);
    const late = applyTargetChange(on, { initialQuotationDate: start - 45 * DAY });
    expect([late.next.releaseDateDiff, late.next.revenueDelayImpact, late.needsDelayReason]).toEqual([45, 3000, true]);
    const reasoned = applyTargetChange({ ...late.next, delayReason: 'client_reactivity' }, { startDate: start + DAY });
    expect(reasoned.needsDelayReason).toBe(false);
    const noRevenue = applyTargetChange({ ...on, revenue: null }, { initialQuotationDate: start - 45 * DAY });
    expect([noRevenue.next.releaseDateDiff, noRevenue.next.revenueDelayImpact]).toEqual([45, null]);
  });

  it('leaves the difference alone without an initial quotation date', () => {
    expect(applyTargetChange({ ...base, releaseDateDiff: 3 }, { startDate: start }).next.releaseDateDiff).toBe(3);
  });

  it('cancelling clears releaseDateDiff, delayReason and revenueDelayImpact, and later date changes keep them clear', () => {
    const late = {
      ...base,
      startDate: start,
      endDate: start + 90 * DAY,
      initialQuotationDate: start - 45 * DAY,
      revenue: 9000,
      releaseDateDiff: 45,
      delayReason: 'client_reactivity',
      revenueDelayImpact: 3000,
    };
    const { next, needsDelayReason } = applyTargetChange(late, { status: '7. annulé' });
    expect([next.releaseDateDiff, next.delayReason, next.revenueDelayImpact, needsDelayReason]).toEqual([null, null, null, false]);
    expect(applyTargetChange(next, { startDate: start + DAY }).next.releaseDateDiff).toBeNull();
    // Undoing the cancel gives the delay and its impact back; the reason is asked only when a date moves.
    const back = applyTargetChange(next, { status: '2. en ligne' });
    expect([back.next.releaseDateDiff, back.next.revenueDelayImpact, back.needsDelayReason]).toEqual([45, 3000, false]);
  });

  it('asks for a delay reason only on a change that moves a date', () => {
    const late = { ...base, startDate: start, endDate: start + 90 * DAY, initialQuotationDate: start - 45 * DAY, revenue: 9000, releaseDateDiff: 45 };
    expect(applyTargetChange(late, { revenue: 12_000 }).needsDelayReason).toBe(false);
    expect(applyTargetChange(late, { status: '3. stats à sortir' }).needsDelayReason).toBe(false);
    expect(applyTargetChange(late, { startDate: start }).needsDelayReason).toBe(false);
    expect(applyTargetChange(late, { startDate: start + DAY }).needsDelayReason).toBe(true);
    expect(applyTargetChange(late, { endDate: start + 60 * DAY }).needsDelayReason).toBe(true);
    expect(applyTargetChange(late, { delayReason: null }).needsDelayReason).toBe(false);
  });
});

describe('display formats (spec §5, §9)', () => {
  it('formats amounts, numbers and dates', () => {
    expect(formatAmount(12500)).toBe('12 500,00 €');
    expect(formatAmount(1234567.5)).toBe('1 234 567,50 €');
    expect(formatAmount(null)).toBe('');
    expect(formatNumber(1234567)).toBe('1 234 567');
    expect(formatDay(Date.UTC(2026, 0, 5) / 1000)).toBe('05/01/2026');
    expect(formatDay(null)).toBe('');
  });

  it('builds the new-advert route from client, project name and action code', () => {
    expect(decodeURIComponent(newAdvertPath({ clientName: 'Sanofa', projectName: 'Cardio HTA', actionCode: 'SANCARD26-1.1' }))).toBe(
      '/adverts/edit/project-SANOFA - Cardio HTA - SANCARD26-1.1',
    );
  });
});

describe('quote export file', () => {
  it('reads ; or , separated files with accents, decimal commas and both date forms', async () => {
    const quotes = await parseEstimateCsv(
      'quote_number,client,label,quantity,unit_price,signed_date\nDEV-1,Biogena,Post,2,"1 000,50",2026-01-12\nDEV-1,Biogena,Quiz,1,10,',
    );
    expect(quotes).toEqual([
      {
        id: 'DEV-1',
        clientName: 'Biogena',
        signedAt: Date.UTC(2026, 0, 12) / 1000,
        lines: [
          { label: 'Post', quantity: 2, unitPrice: 1000.5 },
          { label: 'Quiz', quantity: 1, unitPrice: 10 },
        ],
      },
    ]);
  });
});

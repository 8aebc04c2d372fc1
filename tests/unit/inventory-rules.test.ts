import { describe, expect, it } from 'vitest';
import {
  availability,
  headerProblem,
  isLowStock,
  moveAnchor,
  parseMonthKey,
  parseViewCount,
  periodLabel,
  quarterLabel,
  spreadOverMonths,
  sumByQuarter,
  viewRange,
} from '@shared/rules/inventory';
import { decoder, separatorOf } from '../../src-server/features/inventory/import';

const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 1000;

describe('inventory rules', () => {
  it("spreads a target's views evenly over its days, month by month", () => {
    expect(Object.fromEntries(spreadOverMonths(day(2026, 1, 1), day(2026, 2, 28), 5900))).toEqual({ '26/01': 3100, '26/02': 2800 });
    expect(Object.fromEntries(spreadOverMonths(day(2026, 12, 31), day(2027, 1, 1), 10))).toEqual({ '26/12': 5, '27/01': 5 });
    // An end before the start books the start day.
    expect(Object.fromEntries(spreadOverMonths(day(2026, 3, 5), day(2026, 3, 1), 7))).toEqual({ '26/03': 7 });
    const total = [...spreadOverMonths(day(2026, 1, 17), day(2026, 9, 3), 123_457).values()].reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(123_457, 6);
  });

  it('sums months per calendar quarter, dated by its first month', () => {
    const months = ['26/01', '26/02', '26/03', '26/04'].map((date, i) => ({ date, totalViews: 10 * (i + 1), consumedViews: i }));
    expect(sumByQuarter(months)).toEqual([
      { date: '26/01', totalViews: 60, consumedViews: 3 },
      { date: '26/04', totalViews: 40, consumedViews: 3 },
    ]);
    expect([1, 4, 7, 12].map((month) => quarterLabel({ year: 2026, month }))).toEqual([
      'Janvier - Mars',
      'Avril - Juin',
      'Juillet - Septembre',
      'Octobre - Décembre',
    ]);
  });

  it('flags a row at or below 30 % remaining', () => {
    expect(isLowStock(1000, 700)).toBe(true);
    expect(isLowStock(1000, 699)).toBe(false);
    expect(isLowStock(1000, 1200)).toBe(true);
    expect(isLowStock(0, 0)).toBe(true);
  });

  it('month view: 6 months from the anchor, moves by 6; quarter view: the calendar year, moves by a year', () => {
    expect(viewRange('month', { year: 2026, month: 9 })).toEqual({ from: { year: 2026, month: 9 }, to: { year: 2027, month: 2 } });
    expect(moveAnchor('month', { year: 2026, month: 9 }, 1)).toEqual({ year: 2027, month: 3 });
    expect(viewRange('quarter', { year: 2026, month: 9 })).toEqual({ from: { year: 2026, month: 1 }, to: { year: 2026, month: 12 } });
    expect(moveAnchor('quarter', { year: 2026, month: 9 }, -1)).toEqual({ year: 2025, month: 9 });
    expect(periodLabel('month', { year: 2026, month: 1 })).toBe('Janvier - Juin 2026 - vues disponibles');
    expect(periodLabel('month', { year: 2026, month: 9 })).toBe('Septembre - Février 2026/2027 - vues disponibles');
  });

  it('availability: sold views spread evenly over the months, viewDifference = remaining − share, available when ≥ 0', () => {
    expect(
      availability(
        [
          { date: '26/03', remaining: 12000 },
          { date: '26/04', remaining: 7000 },
          { date: '26/05', remaining: 6000 },
        ],
        18000,
      ),
    ).toEqual([
      { date: '26/03', isAvailable: true, viewDifference: 6000 },
      { date: '26/04', isAvailable: true, viewDifference: 1000 },
      { date: '26/05', isAvailable: true, viewDifference: 0 },
    ]);
    expect(availability([{ date: '26/03', remaining: 10 }], 11)).toEqual([{ date: '26/03', isAvailable: false, viewDifference: -1 }]);
  });

  it('CSV header rules of §5, in their order, and the cells', () => {
    expect(headerProblem(['Profession', 'Specialty', 'Nom', '26/01'])).toBeNull();
    expect(headerProblem(['Nom', '26/01'])).toBe('Missing columns : Profession | Specialty');
    expect(headerProblem(['Profession', 'Specialty', 'Nom', 'janv.'])).toBe(
      'Wrong format of dates, they should be formated like this: YY/MM (ex: 22/01)',
    );
    expect(headerProblem(['Profession', 'Specialty', 'Nom', '26/00'])).toBe('Invalid dates');
    expect(parseMonthKey('22/01')).toEqual({ year: 2022, month: 1 });
    expect(['12 000', '12\u00a0000', '12\u202f000', '12000', '', '12.000', '-5', '1,5'].map(parseViewCount)).toEqual([
      12000,
      12000,
      12000,
      12000,
      null,
      undefined,
      undefined,
      undefined,
    ]);
    expect([separatorOf('Profession;Specialty;Nom;26/01'), separatorOf('Profession,Specialty,Nom,26/01')]).toEqual([';', ',']);
  });

  it('decodes UTF-8 with or without BOM and Windows-1252', async () => {
    const read = async (bytes: Buffer) => {
      const stream = decoder();
      const out: string[] = [];
      stream.on('data', (chunk) => out.push(String(chunk)));
      stream.end(bytes);
      await new Promise((resolve) => stream.on('end', resolve));
      return out.join('');
    };
    expect(await read(Buffer.from('\uFEFFNom;Sp\u00e9', 'utf8'))).toBe('Nom;Spé');
    expect(await read(Buffer.from('Nom;Sp\u00e9', 'utf8'))).toBe('Nom;Spé');
    expect(await read(Buffer.from('Nom;Sp\u00e9', 'latin1'))).toBe('Nom;Spé');
  });
});

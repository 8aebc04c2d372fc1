import { describe, expect, it } from 'vitest';
import { mergeChanges } from '@shared/rules/conflicts';

describe('mergeChanges: two people on one record, field by field', () => {
  const base = { name: 'A', title: 'T', weight: 5, tags: ['x'], version: 1 };

  it('takes theirs where only they changed, keeps mine where only I did, and lists what both changed differently', () => {
    const mine = { ...base, name: 'Mine', weight: 7 };
    const theirs = { ...base, name: 'Theirs', title: 'Their title', tags: ['x', 'y'], version: 2 };
    const { merged, conflicts } = mergeChanges(base, mine, theirs, new Set(['version']));
    expect(merged).toEqual({ name: 'Mine', title: 'Their title', weight: 7, tags: ['x', 'y'], version: 1 });
    expect(conflicts).toEqual([{ field: 'name', mine: 'Mine', theirs: 'Theirs' }]);
  });

  it('sees no conflict where both made the same change, nor in ignored or absent fields', () => {
    const mine = { ...base, name: 'Same', extra: 'kept' };
    const theirs = { ...base, name: 'Same', version: 9 };
    expect(mergeChanges(base, mine, theirs, new Set(['version']))).toEqual({ merged: { ...mine }, conflicts: [] });
  });

  it('compares values, not references (arrays and objects), and null as undefined', () => {
    const mine = { ...base, tags: ['x'], cta: null };
    const theirs = { ...base, tags: ['x'], cta: undefined };
    expect(mergeChanges({ ...base, cta: null }, mine, theirs).conflicts).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { PopulationCriteria } from '@shared/rules/push';
import { random } from '../../src-server/features/audiences/generator';
import { AudienceIndex } from '../../src-server/features/audiences/engine/bitmap-index';

/**
 * Push targetings on the engine's bitmaps: count() narrows one bitmap in place and only counts the last
 * part, select() builds the set; both must answer what the criteria say, user by user, for any nesting, and never
 * modify the stored bitmaps.
 */

const LABELS = { Area: ['french', 'english', 'spanish'], Profession: ['2', '3', '4', '5'], Os: ['iOS', 'Android'], Role: ['ROLE_EXPERT'] };
type Label = keyof typeof LABELS;
type User = { id: number; values: Partial<Record<Label, string>>; token: boolean };

const next = random(4242);
const choose = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
const users: User[] = Array.from({ length: 3000 }, (_, index) => ({
  // Ids spread over several Roaring containers, some dense, some sparse.
  id: index < 2000 ? index + 1 : 70_000 + index * 37,
  values: Object.fromEntries((Object.keys(LABELS) as Label[]).filter(() => next() < 0.85).map((label) => [label, choose(LABELS[label])] as const)),
  token: next() < 0.8,
}));

const holds = (user: User, criteria: PopulationCriteria): boolean => {
  switch (criteria.kind) {
    case 'everyone':
      return true;
    case 'is':
      return criteria.label === 'PushToken' ? user.token : user.values[criteria.label as Label] === criteria.value;
    case 'not':
      return !holds(user, criteria.of);
    case 'any':
      return criteria.of.some((part) => holds(user, part));
    case 'all':
      return criteria.of.every((part) => holds(user, part));
  }
};

function randomCriteria(depth: number): PopulationCriteria {
  const roll = next();
  if (depth === 0 || roll < 0.35) {
    const label = choose<Label | 'PushToken'>([...(Object.keys(LABELS) as Label[]), 'PushToken']);
    if (label === 'PushToken') return { kind: 'is', label, value: 'any' };
    // Now and then a value nobody has (an empty stored bitmap).
    return { kind: 'is', label, value: next() < 0.1 ? 'nobody' : choose(LABELS[label]) };
  }
  if (roll < 0.5) return { kind: 'not', of: randomCriteria(depth - 1) };
  if (roll < 0.55) return { kind: 'everyone' };
  const of = Array.from({ length: Math.floor(next() * 4) }, () => randomCriteria(depth - 1));
  return { kind: roll < 0.75 ? 'any' : 'all', of };
}

describe('population criteria on the bitmap index', () => {
  it('count() and select() answer what 400 random nested targetings select, and leave the index unchanged', () => {
    const index = new AudienceIndex();
    for (const user of users) {
      const values = Object.entries(user.values).map(([label, value]) => [label, value] as const);
      index.updateUser(user.id, [], user.token ? [...values, ['PushToken', 'any'] as const] : values);
    }
    const before = (Object.keys(LABELS) as Label[]).flatMap((label) => LABELS[label].map((value) => index.select({ kind: 'is', label, value }).size));
    for (let round = 0; round < 400; round += 1) {
      // The push targeting's shape: the token, then a few parts (lists, experts, a clause), at any depth.
      const criteria: PopulationCriteria =
        round % 2
          ? {
              kind: 'all',
              of: [{ kind: 'is', label: 'PushToken', value: 'any' }, ...Array.from({ length: 1 + (round % 5) }, () => randomCriteria(3))],
            }
          : randomCriteria(4);
      const expected = users.filter((user) => holds(user, criteria)).map((user) => user.id);
      expect(index.count(criteria), JSON.stringify(criteria)).toBe(expected.length);
      expect(index.select(criteria).toArray(), JSON.stringify(criteria)).toEqual(expected);
    }
    const after = (Object.keys(LABELS) as Label[]).flatMap((label) => LABELS[label].map((value) => index.select({ kind: 'is', label, value }).size));
    expect(after).toEqual(before);
    expect(index.select({ kind: 'everyone' }).size).toBe(users.length);
    expect(index.select({ kind: 'is', label: 'Area', value: 'nobody' }).size).toBe(0);
  });
});

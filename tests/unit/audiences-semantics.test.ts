import { describe, expect, it } from 'vitest';
import { AudienceIndex } from '../../src-server/features/audiences/engine/bitmap-index';
import {
  GroupCycleError,
  MembershipRules,
  attributeValues,
  oneUserAlgebra,
  type Criterion,
  type GroupDefinition,
  type UserAttributes,
} from '../../src-server/features/audiences/engine/semantics';

/** One rule per test, each checked on one user (booleans) and on the bitmap index (sizes) alike. */

const base: UserAttributes = {
  id: 1,
  professionId: 2,
  specialtyId: 1,
  title: 'DOCTOR',
  area: 'french',
  countryId: 72,
  zipcode: '75011',
  uga: 'UGA-1',
  workplace: 'Hôpital Nord',
  roles: ['ROLE_EXPERT'],
  feeds: ['cardio'],
  apps: ['vidal'],
};

const rel = (label: Criterion['label'], value: string, extra: Partial<Criterion> = {}): Criterion => ({
  nodeId: extra.nodeId ?? 0,
  label,
  value,
  type: 'AND',
  kind: 'required',
  event: null,
  caping: null,
  ...extra,
});

interface World {
  users: UserAttributes[];
  events: { userId: number; nodeId: number; event: string }[];
  groups?: Map<number, GroupDefinition>;
}

/** Members by the boolean rules (one user at a time) and by the bitmap index: both must agree. */
function members(world: World, criteria: Criterion[]): number[] {
  const groups = world.groups ?? new Map();
  const byBoolean = world.users
    .filter((user) => {
      const count = (nodeId: number, event: string | null) =>
        world.events.filter((e) => e.userId === user.id && e.nodeId === nodeId && (event === null || e.event === event)).length;
      return new MembershipRules(oneUserAlgebra(user, count), (id) => groups.get(id)).audience(criteria);
    })
    .map((user) => user.id);
  const index = new AudienceIndex();
  for (const user of world.users) index.updateUser(user.id, [], attributeValues(user));
  for (const event of world.events) index.addEvent(event.userId, event.nodeId, event.event);
  for (const [id, group] of groups) index.setGroup(id, group);
  expect(index.members(criteria)).toEqual(byBoolean);
  expect(index.size(criteria).size).toBe(byBoolean.length);
  for (const user of world.users) expect(index.matches(user.id, criteria)).toBe(byBoolean.includes(user.id));
  return byBoolean;
}

const people = (...changes: Partial<UserAttributes>[]): UserAttributes[] => changes.map((change, i) => ({ ...base, id: i + 1, ...change }));

describe('label groups', () => {
  it('a label group is satisfied by any of its required relationships (OR within a label)', () => {
    const users = people({ professionId: 2 }, { professionId: 3 }, { professionId: 4 });
    expect(members({ users, events: [] }, [rel('Profession', '2'), rel('Profession', '3')])).toEqual([1, 2]);
  });

  it('every label group must be satisfied (AND across labels)', () => {
    const users = people({ professionId: 2, specialtyId: 1 }, { professionId: 2, specialtyId: 6 }, { professionId: 3, specialtyId: 1 });
    expect(members({ users, events: [] }, [rel('Profession', '2'), rel('Specialty', '1')])).toEqual([1]);
  });

  it('a not relationship excludes, and a label group with only not relationships keeps everyone else', () => {
    const users = people({ roles: ['ROLE_EXPERT'] }, { roles: ['ROLE_EXPERT', 'ROLE_PROSPECT'] }, { roles: [] });
    expect(members({ users, events: [] }, [rel('Role', 'ROLE_PROSPECT', { kind: 'not' })])).toEqual([1, 3]);
    expect(members({ users, events: [] }, [rel('Role', 'ROLE_EXPERT'), rel('Role', 'ROLE_PROSPECT', { kind: 'not' })])).toEqual([1]);
  });

  it('an audience without filtering relationships is everyone', () => {
    expect(members({ users: people({}, {}), events: [] }, [])).toEqual([1, 2]);
  });
});

describe('attribute labels', () => {
  it.each([
    ['Profession', '2', { professionId: 3 }],
    ['Specialty', '1', { specialtyId: 6 }],
    ['Title', 'DOCTOR', { title: 'STUDENT' }],
    ['Area', 'french', { area: 'english' }],
    ['Country', '72', { countryId: 722 }],
    ['Zip', '75', { zipcode: '13001' }],
    ['Zipcode', '75011', { zipcode: '75012' }],
    ['Uga', 'UGA-1', { uga: 'UGA-2' }],
    ['Workplace', 'Hôpital Nord', { workplace: 'Cabinet' }],
    ['Role', 'ROLE_EXPERT', { roles: [] }],
    ['Feed', 'cardio', { feeds: ['onco'] }],
    ['App', 'vidal', { apps: [] }],
  ] as [Criterion['label'], string, Partial<UserAttributes>][])('%s matches the user attribute', (label, value, other) => {
    expect(members({ users: people({}, other), events: [] }, [rel(label, value)])).toEqual([1]);
  });

  it('Zip is the first two digits of the zipcode', () => {
    expect(members({ users: people({ zipcode: '75011' }, { zipcode: '97500' }), events: [] }, [rel('Zip', '97')])).toEqual([2]);
  });

  it('User matches that user only', () => {
    expect(members({ users: people({}, {}, {}), events: [] }, [rel('User', '2')])).toEqual([2]);
  });
});

describe('interactions', () => {
  const users = people({}, {}, {});
  const events = [
    { userId: 1, nodeId: 10, event: 'document.view' },
    { userId: 2, nodeId: 10, event: 'document.view' },
    { userId: 2, nodeId: 10, event: 'document.view' },
    { userId: 3, nodeId: 20, event: 'advert.click' },
    { userId: 3, nodeId: 20, event: 'advert.view' },
  ];

  it('Document: at least one event by default', () => {
    expect(members({ users, events }, [rel('Document', 'guide', { nodeId: 10, event: 'document.view' })])).toEqual([1, 2]);
  });

  it('caping asks for at least that many events', () => {
    expect(members({ users, events }, [rel('Document', 'guide', { nodeId: 10, event: 'document.view', caping: 2 })])).toEqual([2]);
    expect(members({ users, events }, [rel('Document', 'guide', { nodeId: 10, event: 'document.view', caping: 3 })])).toEqual([]);
  });

  it('Advert: the event must be the one named; Auto counts every event of the node', () => {
    expect(members({ users, events }, [rel('Advert', 'ad', { nodeId: 20, event: 'advert.view' })])).toEqual([3]);
    expect(members({ users, events }, [rel('Advert', 'ad', { nodeId: 20, event: 'quiz.view' })])).toEqual([]);
    expect(members({ users, events }, [rel('Advert', 'ad', { nodeId: 20, event: null, caping: 2 })])).toEqual([3]);
  });

  it('not on an interaction excludes who had it', () => {
    expect(members({ users, events }, [rel('Document', 'guide', { nodeId: 10, event: 'document.view', kind: 'not' })])).toEqual([3]);
  });
});

describe('groups', () => {
  const users = people({ professionId: 2 }, { specialtyId: 6, professionId: 3 }, { professionId: 4, specialtyId: 7 });
  const groups = new Map<number, GroupDefinition>([
    [100, { label: 'OrGroup', members: [rel('Profession', '2'), rel('Specialty', '6')] }],
    [101, { label: 'AndGroup', members: [rel('Profession', '3'), rel('Specialty', '6')] }],
    [102, { label: 'AndGroup', members: [rel('OrGroup', '', { nodeId: 100 }), rel('Profession', '2', { kind: 'not' })] }],
    [103, { label: 'OrGroup', members: [rel('OrGroup', '', { nodeId: 104 })] }],
    [104, { label: 'OrGroup', members: [rel('OrGroup', '', { nodeId: 103 })] }],
  ]);

  it('OrGroup: any member matches', () => {
    expect(members({ users, events: [], groups }, [rel('OrGroup', '', { nodeId: 100 })])).toEqual([1, 2]);
  });

  it('AndGroup: every member matches', () => {
    expect(members({ users, events: [], groups }, [rel('AndGroup', '', { nodeId: 101 })])).toEqual([2]);
  });

  it('groups nest, and a not member of a group excludes', () => {
    expect(members({ users, events: [], groups }, [rel('AndGroup', '', { nodeId: 102 })])).toEqual([2]);
  });

  it('a cycle of groups is an error, never an endless loop', () => {
    const rules = new MembershipRules(
      oneUserAlgebra(base, () => 0),
      (id) => groups.get(id),
    );
    expect(() => rules.audience([rel('OrGroup', '', { nodeId: 103 })])).toThrow(GroupCycleError);
  });
});

describe('relationships that never filter', () => {
  const users = people({ professionId: 2 }, { professionId: 3 });

  it('Keyword relationships (search triggers) do not change membership', () => {
    const keyword = rel('Keyword', 'diabete', { type: 'SEARCH', event: 'search', nodeId: 5 });
    expect(members({ users, events: [] }, [rel('Profession', '2'), keyword])).toEqual([1]);
    expect(members({ users, events: [] }, [{ ...keyword, kind: 'not' }])).toEqual([1, 2]);
  });

  it('SHOULD_TARGET never excludes anyone', () => {
    expect(members({ users, events: [] }, [rel('Profession', '2', { type: 'SHOULD_TARGET' })])).toEqual([1, 2]);
    expect(members({ users, events: [] }, [rel('Profession', '2', { type: 'SHOULD_TARGET', kind: 'not' })])).toEqual([1, 2]);
  });
});

describe('size per label group', () => {
  it('tells each label group alone', () => {
    const index = new AudienceIndex();
    for (const user of people({ professionId: 2, area: 'french' }, { professionId: 2, area: 'english' }, { professionId: 3, area: 'french' })) {
      index.updateUser(user.id, [], attributeValues(user));
    }
    expect(index.size([rel('Area', 'french'), rel('Profession', '2')])).toEqual({
      size: 1,
      labels: [
        { label: 'Area', size: 2 },
        { label: 'Profession', size: 2 },
      ],
    });
  });

  it('a changed attribute moves the user between bitmaps', () => {
    const index = new AudienceIndex();
    index.updateUser(1, [], attributeValues({ ...base, professionId: 2 }));
    index.updateUser(1, attributeValues({ ...base, professionId: 2 }), attributeValues({ ...base, professionId: 3 }));
    expect(index.size([rel('Profession', '2')]).size).toBe(0);
    expect(index.size([rel('Profession', '3')]).size).toBe(1);
  });

  it('a reset removes the interactions', () => {
    const index = new AudienceIndex();
    index.updateUser(1, [], attributeValues(base));
    index.addEvent(1, 10, 'document.view');
    index.addEvent(1, 10, 'document.view');
    index.removeInteractions(1, [[10, 'document.view']]);
    expect(index.size([rel('Document', 'x', { nodeId: 10, event: null })]).size).toBe(0);
    index.addEvent(1, 10, 'document.view');
    expect(index.size([rel('Document', 'x', { nodeId: 10, event: 'document.view', caping: 2 })]).size).toBe(0);
  });

  it('events added as one batch give the ladders that adding them one by one gives, on top of earlier events', () => {
    const kinds = ['document.view', 'advert.view', 'advert.click'];
    // Deterministic pseudo-random events: 3 nodes, 3 kinds, 6 users, up to a dozen events per (user, node).
    const events = Array.from({ length: 300 }, (_, i) => ({ userId: 1 + ((i * 7) % 6), nodeId: 10 + ((i * 11) % 3), event: kinds[(i * 5) % 3] }));
    const oneByOne = new AudienceIndex();
    const batched = new AudienceIndex();
    for (const index of [oneByOne, batched]) for (let id = 1; id <= 6; id += 1) index.updateUser(id, [], attributeValues({ ...base, id }));
    for (const event of events) oneByOne.addEvent(event.userId, event.nodeId, event.event);
    // Some events one by one first, so the batch climbs ladders that already have steps.
    for (const event of events.slice(0, 40)) batched.addEvent(event.userId, event.nodeId, event.event);
    batched.addEvents(events.slice(40, 200));
    batched.addEvents(events.slice(200));
    for (const nodeId of [10, 11, 12]) {
      for (const event of [...kinds, null]) {
        for (let caping = 1; caping <= 40; caping += 1) {
          const criteria = [rel('Document', 'x', { nodeId, event, caping })];
          expect(batched.members(criteria), `${nodeId} ${event} ${caping}`).toEqual(oneByOne.members(criteria));
        }
      }
    }
    expect(oneByOne.members([rel('Document', 'x', { nodeId: 10, event: null, caping: 5 })]).length).toBeGreaterThan(0);
  });
});

describe('compiled audiences (one-user membership)', () => {
  it('a compiled audience sees later writes: new attribute values, new events, more steps, changed groups', () => {
    const index = new AudienceIndex();
    index.updateUser(1, [], attributeValues({ ...base, professionId: 2 }));
    const profession9 = [rel('Profession', '9')];
    const viewedTwice = [rel('Document', 'x', { nodeId: 10, event: 'document.view', caping: 2 })];
    const inGroup = [rel('OrGroup', '', { nodeId: 50 })];
    // Compiled while nothing matches: no bitmap for Profession 9, no ladder for node 10, no group 50.
    expect(index.matches(1, profession9)).toBe(false);
    expect(index.matches(1, viewedTwice)).toBe(false);
    expect(index.matches(1, inGroup)).toBe(false);
    const compiled = index.matcher(profession9);
    expect(index.matcher(profession9)).toBe(compiled); // cached while the structure holds

    index.updateUser(1, attributeValues({ ...base, professionId: 2 }), attributeValues({ ...base, professionId: 9 }));
    expect(index.matches(1, profession9)).toBe(true);
    index.addEvent(1, 10, 'document.view');
    expect(index.matches(1, viewedTwice)).toBe(false);
    index.addEvent(1, 10, 'document.view');
    expect(index.matches(1, viewedTwice)).toBe(true);
    index.removeInteractions(1, [[10, 'document.view']]);
    expect(index.matches(1, viewedTwice)).toBe(false);
    index.setGroup(50, { label: 'OrGroup', members: [rel('Profession', '9')] });
    expect(index.matches(1, inGroup)).toBe(true);
    index.setGroup(50, { label: 'OrGroup', members: [rel('Profession', '2')] });
    expect(index.matches(1, inGroup)).toBe(false);
    index.deleteGroup(50);
    expect(index.matches(1, inGroup)).toBe(false);
  });

  it('a user the index does not know matches nothing, not even an audience without criteria', () => {
    const index = new AudienceIndex();
    index.updateUser(1, [], attributeValues(base));
    expect(index.matches(1, [])).toBe(true);
    expect(index.matches(2, [])).toBe(false);
    expect(index.matches(2, [rel('Role', 'ROLE_PROSPECT', { kind: 'not' })])).toBe(false);
  });
});

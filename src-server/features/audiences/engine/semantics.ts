import { ATTRIBUTE_LABELS, isGroupLabel, type NodeLabel } from '@shared/rules/audiences';

/**
 * Membership semantics of audiences (docs/audiences.md is the glossary). Written once over an
 * abstract set algebra, so that the same rules give a yes/no for one user (booleans) and a size for everyone
 * (compressed bitmaps): the two can never disagree on a rule.
 */

/** One relationship as the engine reads it. `event` null is Auto (any event of the node); `caping` null is 1. */
export interface Criterion {
  nodeId: number;
  label: NodeLabel;
  /** The node's value: attribute value, app user id, item name; unused for groups. */
  value: string;
  type: 'AND' | 'SEARCH' | 'SHOULD_TARGET';
  kind: 'required' | 'not';
  event: string | null;
  caping: number | null;
}

export interface GroupDefinition {
  label: 'OrGroup' | 'AndGroup';
  members: readonly Criterion[];
}

/** What the rules need from a representation of sets of users. */
export interface SetAlgebra<S> {
  everyone(): S;
  nobody(): S;
  /** Users whose attribute `label` has `value` (User: the user whose id is `value`). */
  attribute(label: NodeLabel, value: string): S;
  /** Users with at least `atLeast` events `event` (null: any event) on node `nodeId`. */
  interactions(nodeId: number, event: string | null, atLeast: number): S;
  and(sets: S[]): S;
  or(sets: S[]): S;
  /** `set` minus `removed`. */
  minus(set: S, removed: S): S;
}

const ATTRIBUTE = new Set<string>([...ATTRIBUTE_LABELS, 'User']);

/** Whether a relationship can narrow membership at all: Keyword triggers and SHOULD_TARGET ranking never do. */
export function filtersMembership(criterion: Pick<Criterion, 'label' | 'type'>): boolean {
  return criterion.label !== 'Keyword' && criterion.type !== 'SHOULD_TARGET';
}

/** Least number of events an Advert or Document relationship asks for. */
export function threshold(caping: number | null): number {
  return caping && caping > 0 ? caping : 1;
}

export class GroupCycleError extends Error {
  constructor(readonly groupId: number) {
    super(`group ${groupId} contains itself`);
  }
}

/** Evaluates audiences and groups over one algebra; group definitions are looked up by node id. */
export class MembershipRules<S> {
  constructor(
    private readonly algebra: SetAlgebra<S>,
    private readonly groups: (groupId: number) => GroupDefinition | undefined,
  ) {}

  /** Users matched by one relationship's node, before its kind (required / not) is applied. */
  matchNode(criterion: Criterion, visiting: ReadonlySet<number> = new Set()): S {
    const { algebra } = this;
    if (ATTRIBUTE.has(criterion.label)) return algebra.attribute(criterion.label, criterion.value);
    if (criterion.label === 'Advert' || criterion.label === 'Document') {
      return algebra.interactions(criterion.nodeId, criterion.event, threshold(criterion.caping));
    }
    if (isGroupLabel(criterion.label)) {
      if (visiting.has(criterion.nodeId)) throw new GroupCycleError(criterion.nodeId);
      const group = this.groups(criterion.nodeId);
      if (!group) return algebra.nobody();
      const inside = new Set(visiting).add(criterion.nodeId);
      const members = group.members.filter(filtersMembership).map((member) => this.member(member, inside));
      // OrGroup: any member; AndGroup: every member. The group's own label says which, not the node's.
      return group.label === 'OrGroup' ? algebra.or(members) : algebra.and(members);
    }
    // Keyword (never filters) and any label without a rule match nobody when asked directly.
    return algebra.nobody();
  }

  /** A group member: its node's users, or everyone else when the member is `not`. */
  private member(criterion: Criterion, visiting: ReadonlySet<number>): S {
    const matched = this.matchNode(criterion, visiting);
    return criterion.kind === 'not' ? this.algebra.minus(this.algebra.everyone(), matched) : matched;
  }

  /** Relationships that filter, grouped by node label (the editor's label groups). */
  labelGroups(criteria: readonly Criterion[]): Map<NodeLabel, Criterion[]> {
    const byLabel = new Map<NodeLabel, Criterion[]>();
    for (const criterion of criteria) {
      if (!filtersMembership(criterion)) continue;
      const list = byLabel.get(criterion.label) ?? [];
      list.push(criterion);
      byLabel.set(criterion.label, list);
    }
    return byLabel;
  }

  /** A label group: at least one `required` relationship (or none at all), and none of the `not` ones. */
  labelGroup(criteria: readonly Criterion[]): S {
    const { algebra } = this;
    const required = criteria.filter((criterion) => criterion.kind === 'required');
    const excluded = criteria.filter((criterion) => criterion.kind === 'not');
    const included = required.length ? algebra.or(required.map((criterion) => this.matchNode(criterion))) : algebra.everyone();
    return excluded.length ? algebra.minus(included, algebra.or(excluded.map((criterion) => this.matchNode(criterion)))) : included;
  }

  /** The audience: every label group satisfied. */
  audience(criteria: readonly Criterion[]): S {
    const groups = [...this.labelGroups(criteria).values()].map((group) => this.labelGroup(group));
    return groups.length ? this.algebra.and(groups) : this.algebra.everyone();
  }
}

/** The node ids a group reaches through nested groups, for the cycle check before a group is saved. */
export function reachableGroups(start: readonly Criterion[], groups: (groupId: number) => GroupDefinition | undefined): Set<number> {
  const seen = new Set<number>();
  const stack = start.filter((criterion) => isGroupLabel(criterion.label)).map((criterion) => criterion.nodeId);
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const member of groups(id)?.members ?? []) if (isGroupLabel(member.label)) stack.push(member.nodeId);
  }
  return seen;
}

/** The attributes of one app user that attribute labels match, as the engine's keys. */
export interface UserAttributes {
  id: number;
  professionId: number | null;
  specialtyId: number | null;
  title: string | null;
  area: string | null;
  countryId: number | null;
  zipcode: string | null;
  uga: string | null;
  workplace: string | null;
  roles: readonly string[];
  feeds: readonly string[];
  apps: readonly string[];
}

/** `[label, value]` of every attribute node that matches the user. */
export function attributeValues(user: UserAttributes): [NodeLabel, string][] {
  const values: [NodeLabel, string][] = [['User', String(user.id)]];
  if (user.professionId !== null) values.push(['Profession', String(user.professionId)]);
  if (user.specialtyId !== null) values.push(['Specialty', String(user.specialtyId)]);
  if (user.title) values.push(['Title', user.title]);
  if (user.area) values.push(['Area', user.area]);
  if (user.countryId !== null) values.push(['Country', String(user.countryId)]);
  if (user.zipcode) {
    values.push(['Zipcode', user.zipcode]);
    if (user.zipcode.length >= 2) values.push(['Zip', user.zipcode.slice(0, 2)]);
  }
  if (user.uga) values.push(['Uga', user.uga]);
  if (user.workplace) values.push(['Workplace', user.workplace]);
  for (const role of user.roles) values.push(['Role', role]);
  for (const feed of user.feeds) values.push(['Feed', feed]);
  for (const app of user.apps) values.push(['App', app]);
  return values;
}

/** A boolean algebra over one user: membership of a single user, and the reference of the unit tests. */
export function oneUserAlgebra(user: UserAttributes, eventCount: (nodeId: number, event: string | null) => number): SetAlgebra<boolean> {
  const attributes = new Set(attributeValues(user).map(([label, value]) => `${label}\u0000${value}`));
  return {
    everyone: () => true,
    nobody: () => false,
    attribute: (label, value) => attributes.has(`${label}\u0000${value}`),
    interactions: (nodeId, event, atLeast) => eventCount(nodeId, event) >= atLeast,
    and: (sets) => sets.every(Boolean),
    or: (sets) => sets.some(Boolean),
    minus: (set, removed) => set && !removed,
  };
}

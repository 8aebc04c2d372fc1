/**
 * History of audiences and groups (docs/audience-history.md, beyond the spec): the definition kept at each change and what
 * changed between two of them. Pure, shared by the server (which records) and the history panel (which shows).
 */

export const HISTORY_SUBJECT_KINDS = ['audience', 'group'] as const;
export type HistorySubjectKind = (typeof HISTORY_SUBJECT_KINDS)[number];
export const HISTORY_ACTIONS = ['create', 'update', 'delete', 'restore'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** One relationship as kept in a snapshot: the node by id with its label and name at the time. */
export interface SnapshotRelationship {
  nodeId: number;
  label: string;
  name: string;
  type: string;
  kind: string;
  event: string | null;
  caping: number | null;
}

/** An audience's or a group's definition at one moment. */
export interface DefinitionSnapshot {
  kind: HistorySubjectKind;
  id: number;
  name: string;
  /** Groups: OrGroup or AndGroup. */
  label?: string;
  /** Audiences only. */
  type?: string | null;
  area?: string;
  isInCatalog?: boolean;
  authorId?: number | null;
  authorName?: string;
  createdAt?: number;
  relationships: SnapshotRelationship[];
}

export const HISTORY_FIELDS = ['name', 'type', 'area', 'isInCatalog'] as const;
export type HistoryField = (typeof HISTORY_FIELDS)[number];

export interface HistoryChanges {
  fields: { field: HistoryField; from: string | boolean | null; to: string | boolean | null }[];
  added: SnapshotRelationship[];
  removed: SnapshotRelationship[];
  /** Same node, other type, kind, event or caping. */
  changed: { from: SnapshotRelationship; to: SnapshotRelationship }[];
}

export const NO_CHANGES: HistoryChanges = { fields: [], added: [], removed: [], changed: [] };

const sameRelationship = (a: SnapshotRelationship, b: SnapshotRelationship) =>
  a.type === b.type && a.kind === b.kind && (a.event ?? null) === (b.event ?? null) && (a.caping ?? null) === (b.caping ?? null);

/**
 * What changed from `before` to `after` (either may be null: created, deleted). An audience's Area relationship is
 * left out: its `area` field says the same thing once.
 */
export function diffSnapshots(before: DefinitionSnapshot | null, after: DefinitionSnapshot | null): HistoryChanges {
  const fields: HistoryChanges['fields'] = [];
  for (const field of HISTORY_FIELDS) {
    const from = before?.[field] ?? null;
    const to = after?.[field] ?? null;
    if (from !== to && (before?.kind ?? after?.kind) === 'audience') fields.push({ field, from, to });
    else if (from !== to && field === 'name') fields.push({ field, from, to });
  }
  const relevant = (snapshot: DefinitionSnapshot | null) =>
    new Map((snapshot?.relationships ?? []).filter((r) => !(snapshot!.kind === 'audience' && r.label === 'Area')).map((r) => [r.nodeId, r]));
  const old = relevant(before);
  const now = relevant(after);
  const added = [...now.values()].filter((r) => !old.has(r.nodeId));
  const removed = [...old.values()].filter((r) => !now.has(r.nodeId));
  const changed = [...now.values()].flatMap((r) => {
    const previous = old.get(r.nodeId);
    return previous && !sameRelationship(previous, r) ? [{ from: previous, to: r }] : [];
  });
  return { fields, added, removed, changed };
}

export function isEmptyChange(changes: HistoryChanges): boolean {
  return !changes.fields.length && !changes.added.length && !changes.removed.length && !changes.changed.length;
}

/** The action a change is: its subject appeared, went, came back, or changed. */
export function historyAction(before: DefinitionSnapshot | null, after: DefinitionSnapshot | null, restoring: boolean): HistoryAction {
  if (!after) return 'delete';
  if (!before) return restoring ? 'restore' : 'create';
  return 'update';
}

// ---- how the panel says it ---------------------------------------------------------------------------------------

export const HISTORY_ACTION_LABELS: Record<HistoryAction, string> = {
  create: 'Création',
  update: 'Modification',
  delete: 'Suppression',
  restore: 'Restauration',
};

const FIELD_LABELS: Record<HistoryField, string> = { name: 'Nom', type: 'Type', area: 'Area', isInCatalog: 'Catalogue' };

function showValue(value: string | boolean | null): string {
  if (value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  return value;
}

function describeRelationship(r: SnapshotRelationship): string {
  const details = [r.kind === 'not' ? 'Not' : 'Req', r.event ?? 'Auto', ...(r.caping && r.caping > 1 ? [`≥ ${r.caping}`] : [])];
  return `${r.label} « ${r.name} » (${details.join(', ')})`;
}

/** One line per change, in French, for the history panel. */
export function describeChanges(changes: HistoryChanges): string[] {
  return [
    ...changes.fields.map((f) => `${FIELD_LABELS[f.field]} : ${showValue(f.from)} → ${showValue(f.to)}`),
    ...changes.added.map((r) => `+ ${describeRelationship(r)}`),
    ...changes.removed.map((r) => `− ${describeRelationship(r)}`),
    ...changes.changed.map((c) => `~ ${describeRelationship(c.from)} → ${describeRelationship(c.to)}`),
  ];
}

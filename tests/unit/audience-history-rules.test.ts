import { describe, expect, it } from 'vitest';
import {
  describeChanges,
  diffSnapshots,
  historyAction,
  isEmptyChange,
  type DefinitionSnapshot,
  type SnapshotRelationship,
} from '@shared/rules/audience-history';

const rel = (nodeId: number, label: string, name: string, extra: Partial<SnapshotRelationship> = {}): SnapshotRelationship => ({
  nodeId,
  label,
  name,
  type: 'AND',
  kind: 'required',
  event: null,
  caping: null,
  ...extra,
});
const audience = (extra: Partial<DefinitionSnapshot> = {}): DefinitionSnapshot => ({
  kind: 'audience',
  id: 5,
  name: 'Cardiologues',
  type: 'timeline',
  area: 'french',
  isInCatalog: false,
  relationships: [rel(1, 'Area', 'french'), rel(2, 'Specialty', 'Cardiologie')],
  ...extra,
});

describe('history of audiences and groups', () => {
  it('says which fields and relationships changed, leaving the Area relationship to the area field', () => {
    const after = audience({
      name: 'Cardiologues FR',
      area: 'english',
      relationships: [
        rel(9, 'Area', 'english'),
        rel(2, 'Specialty', 'Cardiologie', { kind: 'not' }),
        rel(3, 'Document', 'Guide', { event: 'document.view', caping: 2 }),
      ],
    });
    const changes = diffSnapshots(audience(), after);
    expect(changes.fields).toEqual([
      { field: 'name', from: 'Cardiologues', to: 'Cardiologues FR' },
      { field: 'area', from: 'french', to: 'english' },
    ]);
    expect(changes.added.map((r) => r.name)).toEqual(['Guide']);
    expect(changes.removed).toEqual([]);
    expect(changes.changed).toEqual([{ from: rel(2, 'Specialty', 'Cardiologie'), to: rel(2, 'Specialty', 'Cardiologie', { kind: 'not' }) }]);
    expect(describeChanges(changes)).toEqual([
      'Nom : Cardiologues → Cardiologues FR',
      'Area : french → english',
      '+ Document « Guide » (Req, document.view, ≥ 2)',
      '~ Specialty « Cardiologie » (Req, Auto) → Specialty « Cardiologie » (Not, Auto)',
    ]);
  });

  it('a group has only its name and members', () => {
    const group: DefinitionSnapshot = { kind: 'group', id: 7, name: 'Appétence', label: 'OrGroup', relationships: [rel(2, 'Feed', 'Cardiologie')] };
    const changes = diffSnapshots(group, { ...group, relationships: [] });
    expect(changes.fields).toEqual([]);
    expect(describeChanges(changes)).toEqual(['− Feed « Cardiologie » (Req, Auto)']);
    expect(diffSnapshots(null, group).fields).toEqual([{ field: 'name', from: null, to: 'Appétence' }]);
  });

  it('names the action and sees a write that changed nothing', () => {
    expect(historyAction(null, audience(), false)).toBe('create');
    expect(historyAction(null, audience(), true)).toBe('restore');
    expect(historyAction(audience(), null, false)).toBe('delete');
    expect(historyAction(audience(), audience({ name: 'x' }), false)).toBe('update');
    expect(isEmptyChange(diffSnapshots(audience(), audience()))).toBe(true);
    expect(isEmptyChange(diffSnapshots(audience(), audience({ isInCatalog: true })))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { BatItem } from '@shared/contract/bat';
import type { StoredLayer } from '../../src-server/features/bat/queries';
import { planSave, StaleLayer } from '../../src-server/features/bat/save-plan';

/** The autosave writes only what changed (issue 24): the diff of a whole proof against the stored one. */
const text = (i: string, x: number, content: Record<string, unknown> | null = null): BatItem => ({
  i,
  x,
  y: 0,
  w: 6,
  h: 2,
  type: 'text',
  url: null,
  displayApp: false,
  content,
});
const stored = (id: number, position: number, item: BatItem) => ({ ...item, id, position });

const layers = (): StoredLayer[] => [
  {
    id: 10,
    page: 1,
    level: 1,
    items: [stored(1, 0, text('a', 0, { root: { children: [], type: 'root' } })), stored(2, 1, text('b', 6)), stored(3, 2, text('c', 12))],
  },
  { id: 20, page: 2, level: 1, items: [stored(4, 0, text('d', 0))] },
];

describe('the save plan of an autosave', () => {
  it('writes nothing when nothing changed (text states compared whatever their key order)', () => {
    const plan = planSave(layers(), [
      { page: 1, layers: [{ id: 10, content: [text('a', 0, { root: { type: 'root', children: [] } }), text('b', 6), text('c', 12)] }] },
    ]);
    expect(plan.changes).toEqual({ deleted: [], updated: [], inserted: [] });
  });

  it('updates a moved item by its row, inserts a new one, deletes a removed one, renumbers the order', () => {
    const plan = planSave(layers(), [
      { page: 1, layers: [{ id: 10, content: [text('b', 18), text('a', 0, { root: { type: 'root', children: [] } }), text('e', 24)] }] },
    ]);
    expect(plan.changes.deleted).toEqual([3]);
    expect(plan.changes.updated.map((row) => [row.id, row.itemKey, row.position, row.x])).toEqual([
      [2, 'b', 0, 18],
      [1, 'a', 1, 0],
    ]);
    expect(plan.changes.inserted).toEqual([expect.objectContaining({ layerId: 10, itemKey: 'e', position: 2, x: 24 })]);
  });

  it('answers every page as stored, with the saved layers replaced', () => {
    const plan = planSave(layers(), [{ page: 2, layers: [{ id: 20, content: [] }] }]);
    expect(plan.changes.deleted).toEqual([4]);
    expect(plan.pages.map((page) => [page.page, page.layers.map((layer) => layer.content.map((item) => item.i))])).toEqual([
      [1, [['a', 'b', 'c']]],
      [2, [[]]],
    ]);
    expect(plan.pages[0].layers[0].content[0]).not.toHaveProperty('id');
  });

  it('is stale when a layer is not on the page the save names (moved or deleted meanwhile)', () => {
    expect(() => planSave(layers(), [{ page: 2, layers: [{ id: 10, content: [] }] }])).toThrow(StaleLayer);
    expect(() => planSave(layers(), [{ page: 1, layers: [{ id: 99, content: [] }] }])).toThrow(StaleLayer);
  });
});

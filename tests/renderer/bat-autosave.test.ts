import { describe, expect, it } from 'vitest';
import type { BatItem, BatPage } from '@shared/contract/bat';
import { changedLayers } from '../../src-renderer/features/bat/useBatEditor';

/** The autosave sends the layers changed since its last save: edits replace only the layer they touch. */
const item = (i: string, x: number): BatItem => ({ i, x, y: 0, w: 6, h: 2, type: 'text', url: null, displayApp: false, content: null });
const saved: BatPage[] = [
  {
    page: 1,
    layers: [
      { id: 1, level: 1, content: [item('a', 0)] },
      { id: 2, level: 2, content: [] },
    ],
  },
  { page: 2, layers: [{ id: 3, level: 1, content: [item('b', 0)] }] },
];
/** What changeLayer does: a new object for the layer changed, the same ones for the others. */
const edit = (pages: BatPage[], id: number, content: BatItem[]): BatPage[] =>
  pages.map((page) => ({ ...page, layers: page.layers.map((layer) => (layer.id === id ? { ...layer, content } : layer)) }));

describe('the layers an autosave sends', () => {
  it('none when nothing changed since the last save', () => {
    expect(changedLayers(saved, saved)).toEqual([]);
    expect(
      changedLayers(
        edit(edit(saved, 3, []), 3, saved[1].layers[0].content).map((page) => page),
        saved,
      ),
    ).toHaveLength(1);
  });

  it('only the layer edited, under its page number', () => {
    const next = edit(saved, 3, [item('b', 6)]);
    expect(changedLayers(next, saved)).toEqual([{ page: 2, layers: [{ id: 3, level: 1, content: [item('b', 6)] }] }]);
  });

  it('an undo back to the saved objects sends nothing; to older ones, their layers', () => {
    const first = edit(saved, 1, [item('a', 12)]);
    const second = edit(first, 2, [item('c', 0)]);
    // Saved at `second`, then undone twice: back to `saved`, whose layers 1 and 2 differ from the ones saved.
    expect(changedLayers(second, second)).toEqual([]);
    expect(changedLayers(saved, second).map((page) => page.layers.map((layer) => layer.id))).toEqual([[1, 2]]);
  });
});

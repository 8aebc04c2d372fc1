import { isDeepStrictEqual } from 'node:util';
import type { BatItem, BatPage } from '@shared/contract/bat';
import type { ItemRow, StoredItem, StoredLayer } from './queries';

/** A save's layers: each names its page; `content` is the layer's whole list of items, checked. */
export interface SavedPage {
  page: number;
  layers: { id: number; content: BatItem[] }[];
}

export interface SavePlan {
  changes: { deleted: number[]; updated: (ItemRow & { id: number })[]; inserted: ItemRow[] };
  /** The proof's pages once written, as a fetch would read them. */
  pages: BatPage[];
}

/** A layer the save names is not on that page of the proof (it was moved or deleted since): the save is stale. */
export class StaleLayer extends Error {}

const rowOf = (layerId: number, position: number, item: BatItem): ItemRow => ({
  layerId,
  position,
  itemKey: item.i,
  x: item.x,
  y: item.y,
  w: item.w,
  h: item.h,
  type: item.type,
  url: item.url,
  displayApp: item.displayApp,
  content: item.content,
});

const unchanged = (stored: StoredItem, position: number, item: BatItem) =>
  stored.position === position &&
  stored.x === item.x &&
  stored.y === item.y &&
  stored.w === item.w &&
  stored.h === item.h &&
  stored.type === item.type &&
  stored.url === item.url &&
  stored.displayApp === item.displayApp &&
  // Key order aside (jsonb keeps its own), the same text state.
  isDeepStrictEqual(stored.content, item.content);

/**
 * What an autosave writes (§2.6, every 500 ms of editing): the whole proof comes each time, but only the items
 * that differ from the stored ones are written (an item is known by its key within its layer), so a moved item
 * costs one row, not the proof's hundreds. The layers it does not name keep their items.
 */
export function planSave(stored: StoredLayer[], saved: SavedPage[]): SavePlan {
  const byId = new Map(stored.map((layer) => [layer.id, layer]));
  const written = new Map<number, BatItem[]>();
  const changes: SavePlan['changes'] = { deleted: [], updated: [], inserted: [] };
  for (const page of saved) {
    for (const layer of page.layers) {
      const current = byId.get(layer.id);
      if (current?.page !== page.page) throw new StaleLayer();
      written.set(layer.id, layer.content);
      const before = new Map(current.items.map((item) => [item.i, item]));
      layer.content.forEach((item, position) => {
        const previous = before.get(item.i);
        before.delete(item.i);
        if (!previous) changes.inserted.push(rowOf(layer.id, position, item));
        else if (!unchanged(previous, position, item)) changes.updated.push({ ...rowOf(layer.id, position, item), id: previous.id });
      });
      for (const gone of before.values()) changes.deleted.push(gone.id);
    }
  }
  const pages: BatPage[] = [];
  for (const layer of stored) {
    let page = pages[pages.length - 1];
    if (page?.page !== layer.page) pages.push((page = { page: layer.page, layers: [] }));
    const content = written.get(layer.id) ?? layer.items.map(({ id: _id, position: _position, ...item }) => item);
    page.layers.push({ id: layer.id, level: layer.level, content });
  }
  return { changes, pages };
}

import type { BatItem, BatPage } from '@shared/contract/bat';
import { firstCollision, placeItem } from '@shared/rules/bat';
import { mergeChanges } from '@shared/rules/conflicts';

/**
 * A proof saved by someone else while this editor had unsaved items (docs/architecture.md, "Versions and
 * conflicts"): their proof is the new base, and the user's changes are merged onto it item by item, the way the
 * advert editor merges field by field. An item only they changed (or added, or deleted) takes theirs; an item only
 * the user changed, added or deleted keeps theirs out; an item both changed differently is a conflict to decide.
 */

/** One item both people changed differently; `null` for an item one of them deleted. */
export interface ItemConflict {
  page: number;
  layerId: number;
  i: string;
  mine: BatItem | null;
  theirs: BatItem | null;
}

export interface MergedProof {
  pages: BatPage[];
  conflicts: ItemConflict[];
}

/**
 * The layers changed since `saved`, by page. Edits replace a layer's object and keep the others' (changeLayer), so
 * an unchanged layer is the very object last saved; undo and redo bring back objects, never copies.
 */
export function changedLayers(pages: BatPage[], saved: BatPage[]): BatPage[] {
  const savedLayers = new Set(saved.flatMap((page) => page.layers));
  return pages
    .map((page) => ({ page: page.page, layers: page.layers.filter((layer) => !savedLayers.has(layer)) }))
    .filter((page) => page.layers.length > 0);
}

const byKey = (items: readonly BatItem[]) => Object.fromEntries(items.map((item) => [item.i, item])) as Record<string, BatItem | undefined>;

/**
 * Merges `mine` (the editor's pages, based on `base`) onto `theirs` (the proof now). Layers the user did not
 * touch are theirs as they are (the same objects, so the autosave does not send them again); a layer they
 * deleted is gone with it.
 */
export function mergeProof(base: BatPage[], mine: BatPage[], theirs: BatPage[]): MergedProof {
  const baseLayers = new Map(base.flatMap((page) => page.layers.map((layer) => [layer.id, layer] as const)));
  const mineLayers = new Map(mine.flatMap((page) => page.layers.map((layer) => [layer.id, layer] as const)));
  const conflicts: ItemConflict[] = [];
  const pages = theirs.map((page) => ({
    ...page,
    layers: page.layers.map((layer) => {
      const mineLayer = mineLayers.get(layer.id);
      const baseLayer = baseLayers.get(layer.id);
      if (!mineLayer || mineLayer === baseLayer) return layer;
      const baseItems = byKey(baseLayer?.content ?? []);
      const theirItems = byKey(layer.content);
      // An item of the base they deleted is a change of theirs too: it counts as `undefined`.
      for (const i of Object.keys(baseItems)) if (!(i in theirItems)) theirItems[i] = undefined;
      const { merged, conflicts: found } = mergeChanges(baseItems, byKey(mineLayer.content), theirItems);
      for (const { field, mine: m, theirs: t } of found) {
        conflicts.push({ page: page.page, layerId: layer.id, i: field, mine: (m as BatItem) ?? null, theirs: (t as BatItem) ?? null });
      }
      // Their order first, then the items only the user added, in the user's order.
      const order = [...layer.content.map((item) => item.i), ...mineLayer.content.map((item) => item.i)];
      const content = [...new Set(order)].map((i) => merged[i]).filter((item): item is BatItem => item !== undefined);
      return { ...layer, content: placedApart(content, (i) => !(i in baseItems) && !(i in theirItems)) };
    }),
  }));
  return { pages, conflicts };
}

/**
 * The items only the user added, moved to the layer's first free place when they overlap another one (both people
 * added a block at the same free place): the grid allows no collisions, and the server refuses a proof with one.
 */
function placedApart(content: BatItem[], addedByMe: (i: string) => boolean): BatItem[] {
  if (!firstCollision(content)) return content;
  const placed: BatItem[] = content.filter((item) => !addedByMe(item.i));
  for (const item of content.filter((other) => addedByMe(other.i))) {
    const free = firstCollision([...placed, item]) ? placeItem(placed, { w: item.w, h: item.h }) : null;
    placed.push(free ? { ...item, ...free } : item);
  }
  // Their order first, then the user's additions, as the merge orders them.
  const byI = new Map(placed.map((item) => [item.i, item]));
  return content.map((item) => byI.get(item.i) ?? item);
}

/** The pages with one item of one layer replaced by `item` (or removed when null): taking theirs for a conflict. */
export function withItem(pages: BatPage[], layerId: number, i: string, item: BatItem | null): BatPage[] {
  return pages.map((page) => ({
    ...page,
    layers: page.layers.map((layer) => {
      if (layer.id !== layerId) return layer;
      const present = layer.content.some((existing) => existing.i === i);
      const content = present
        ? layer.content.flatMap((existing) => (existing.i === i ? (item ? [item] : []) : [existing]))
        : [...layer.content, ...(item ? [item] : [])];
      return { ...layer, content };
    }),
  }));
}

/** The plain text of a text item's rich state (paragraphs joined by line breaks). */
export function plainText(content: BatItem['content']): string {
  const walk = (node: unknown): string => {
    if (!node || typeof node !== 'object') return '';
    const { text, children, type } = node as { text?: unknown; children?: unknown[]; type?: string };
    if (typeof text === 'string') return text;
    const inner = (children ?? []).map(walk);
    return type === 'root' ? inner.join('\n') : inner.join('');
  };
  return walk((content as { root?: unknown } | null)?.root).trim();
}

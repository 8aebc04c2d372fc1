import { atom, type Getter } from 'jotai';
import type { ApiOutput } from '../../bridge/api';
import { INVENTORY_MESSAGES as M, INVENTORY_NOTICES } from '@shared/messages/inventory';
import { withText } from '@shared/messages/notice';
import { INVENTORY_PAGE_SIZE, monthKey, monthOf, viewRange, type Month, type ViewType } from '@shared/rules/inventory';
import { apiAtom } from '../../lib/bridge';
import { exportCsvAtom } from '../../lib/file-jobs';
import { raiseNoticeAtom } from '../../lib/notices';
import { uploadFileAtom } from '../../lib/uploads';

export type InventoryRows = ApiOutput<'inventory.list'>['items'];
export type InventoryRow = InventoryRows[number];

/** A category of the 'Spécialité' filter: `Specialty:1`, `Profession:4`, or '' for every one. */
export type CategoryKey = string;
export const categoryKey = (label: string, id: number): CategoryKey => `${label}:${id}`;

export function filterBody(key: CategoryKey): { specialty: number[]; profession: number[] } {
  const [label, id] = key.split(':');
  return { specialty: label === 'Specialty' ? [Number(id)] : [], profession: label === 'Profession' ? [Number(id)] : [] };
}

export const inventoryViewTypeAtom = atom<ViewType>('month');
inventoryViewTypeAtom.debugLabel = 'inventory.viewType';

/** §4: the month view starts with the current month; the arrows move it (6 months, or a year in quarter view). */
export const inventoryAnchorAtom = atom<Month>(monthOf(Date.now()));
inventoryAnchorAtom.debugLabel = 'inventory.anchor';

export const inventoryCategoryAtom = atom<CategoryKey>('');
inventoryCategoryAtom.debugLabel = 'inventory.category';

export const inventoryRowsAtom = atom<InventoryRows>([]);
inventoryRowsAtom.debugLabel = 'inventory.rows';

/** How many categories the view has; the rows are its first pages (INVENTORY_PAGE_SIZE each). */
export const inventoryTotalAtom = atom(0);
inventoryTotalAtom.debugLabel = 'inventory.total';

/** Which first page the rows belong to: a next page answered after the view changed is dropped. */
const inventoryGenerationAtom = atom(0);
inventoryGenerationAtom.debugLabel = 'inventory.generation';

/** Whether the rows were read at least once (the empty state shows after a read, not before). */
export const inventoryLoadedAtom = atom(false);
inventoryLoadedAtom.debugLabel = 'inventory.loaded';

/**
 * Reads the rows of the view: on failure, §8 'Inventory fetch failed' (the response's errorMsg, error, 3 s). A read
 * the page's query replaced (another period or category, the page left) writes nothing (docs/architecture.md).
 */
export const loadInventoryAtom = atom(null, async (get, set, signal?: AbortSignal) => {
  const generation = get(inventoryGenerationAtom) + 1;
  set(inventoryGenerationAtom, generation);
  const result = await readPage(get, 0);
  if (signal?.aborted || get(inventoryGenerationAtom) !== generation) return;
  if (!result.ok) {
    set(raiseNoticeAtom, withText(INVENTORY_NOTICES.fetchFailed, result.errorMsg));
    return;
  }
  set(inventoryRowsAtom, result.data.items);
  set(inventoryTotalAtom, result.data.total);
  set(inventoryLoadedAtom, true);
});
loadInventoryAtom.debugLabel = 'inventory.load';

/** « Afficher plus »: the next page of categories, after those shown. */
export const loadMoreInventoryAtom = atom(null, async (get, set) => {
  const generation = get(inventoryGenerationAtom);
  const shown = get(inventoryRowsAtom);
  const result = await readPage(get, shown.length);
  if (get(inventoryGenerationAtom) !== generation) return;
  if (!result.ok) {
    set(raiseNoticeAtom, withText(INVENTORY_NOTICES.fetchFailed, result.errorMsg));
    return;
  }
  const seen = new Set(shown.map((row) => `${row.label}:${row.id}`));
  set(inventoryRowsAtom, [...shown, ...result.data.items.filter((row) => !seen.has(`${row.label}:${row.id}`))]);
  set(inventoryTotalAtom, result.data.total);
});
loadMoreInventoryAtom.debugLabel = 'inventory.loadMore';

/** A page of the view's categories (its period, view type and filter), from `skip`. */
function readPage(get: Getter, skip: number) {
  const viewType = get(inventoryViewTypeAtom);
  const { from, to } = viewRange(viewType, get(inventoryAnchorAtom));
  return get(apiAtom)('inventory.list', {
    body: { from: monthKey(from), to: monthKey(to), viewType, ...filterBody(get(inventoryCategoryAtom)), skip, limit: INVENTORY_PAGE_SIZE },
  });
}

/** 'Importer CSV' (§5): the loading toast, then success, the §5 problem (error, 4 s) or 'Le fichier est vide' (warning). */
export const importInventoryAtom = atom(null, async (get, set) => {
  set(raiseNoticeAtom, INVENTORY_NOTICES.processing);
  const result = await set(uploadFileAtom, { operation: 'inventory.upload', label: M.importCsv });
  if (!result.ok) {
    set(raiseNoticeAtom, result.errorMsg === M.emptyFile ? INVENTORY_NOTICES.emptyFile : withText(INVENTORY_NOTICES.csvProblem, result.errorMsg));
    return;
  }
  if (!result.data) return;
  set(raiseNoticeAtom, INVENTORY_NOTICES.uploaded);
  await set(loadInventoryAtom);
});
importInventoryAtom.debugLabel = 'inventory.import';

/** inventaire.csv, 12 months from now (§7), through main's export job and the save dialog. */
export const exportInventoryAtom = atom(null, async (_get, set) =>
  set(exportCsvAtom, { operation: 'inventory.export', input: { body: {} }, defaultName: 'inventaire.csv', label: M.exportLabel }),
);
exportInventoryAtom.debugLabel = 'inventory.export';

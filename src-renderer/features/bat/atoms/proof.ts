import { atom, type Getter, type Setter } from 'jotai';
import type { BatDocument, BatItem, BatPage, BatVersion } from '@shared/contract/bat';
import type { IpcResult } from '@shared/ipc';
import { BAT_NOTICES } from '@shared/messages/bat';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { flushBatSaveAtom, scheduleBatSaveAtom } from './save';
import { resetBatViewAtom } from './view';
import {
  batAdvertIdAtom,
  batAutosaveTimerAtom,
  batConflictsAtom,
  batDirtyAtom,
  batDocAtom,
  batHistoryAtom,
  batLayerIdAtom,
  batLoadAtom,
  batPageIndexAtom,
  batPagesAtom,
  batRevisionAtom,
  batSavedAtom,
  batSavingAtom,
  batStaleAtom,
  type History,
} from './state';

const HISTORY_LIMIT = 100;

/** The highest layer of a page (§2.6: adding a page or a layer selects the highest one). */
const highestLayer = (page: BatPage | undefined) => page?.layers.reduce((top, layer) => (layer.level > top.level ? layer : top), page.layers[0]);

type Select = 'page' | 'layer' | 'keep';

/** A document from the server becomes the proof edited: its pages, what is saved, a fresh history, a selection. */
export function adoptProof(get: Getter, set: Setter, next: BatDocument, select?: Select) {
  set(batDocAtom, next);
  const pages = next.bat?.pages ?? [];
  set(batSavedAtom, { pages, version: next.bat?.version ?? 0 });
  set(batPagesAtom, pages);
  set(batHistoryAtom, { past: [], future: [] });
  const index = get(batPageIndexAtom);
  const target = select === 'page' ? pages.length - 1 : Math.min(index, Math.max(0, pages.length - 1));
  set(batPageIndexAtom, target);
  const page = pages[target];
  const current = get(batLayerIdAtom);
  set(batLayerIdAtom, select === 'keep' && page?.layers.some((layer) => layer.id === current) ? current : (highestLayer(page)?.id ?? null));
}

/** The proof as the server has it now, the user's unsaved changes dropped (on arrival; 'Recharger' of a conflict). */
export const reloadBatAtom = atom(null, async (get, set) => {
  const advertId = get(batAdvertIdAtom);
  if (advertId === null) return;
  const result = await get(apiAtom)('bat.fetch', { params: { id: advertId } });
  // Another proof opened meanwhile: this answer is not its.
  if (get(batAdvertIdAtom) !== advertId) return;
  if (result.ok) {
    set(batStaleAtom, null);
    set(batDirtyAtom, false);
    adoptProof(get, set, result.data, 'keep');
    set(batLoadAtom, { status: 'ready' });
  } else if (result.status === 404) set(batLoadAtom, { status: 'notFound' });
  else set(batLoadAtom, { status: 'error', message: result.errorMsg });
});
reloadBatAtom.debugLabel = 'bat.reload';

/** Opens an advert's proof: another advert's state goes, then the proof loads. */
export const openBatAtom = atom(null, async (get, set, advertId: number) => {
  if (get(batAdvertIdAtom) !== advertId) {
    const timer = get(batAutosaveTimerAtom);
    if (timer) clearTimeout(timer);
    set(batAutosaveTimerAtom, null);
    set(batAdvertIdAtom, advertId);
    set(batLoadAtom, { status: 'loading' });
    set(batDocAtom, null);
    set(batPagesAtom, []);
    set(batSavedAtom, { pages: [], version: 0 });
    set(batHistoryAtom, { past: [], future: [] });
    set(batPageIndexAtom, 0);
    set(batLayerIdAtom, null);
    set(batDirtyAtom, false);
    set(batSavingAtom, false);
    set(batStaleAtom, null);
    set(batConflictsAtom, []);
    set(resetBatViewAtom);
  }
  await set(reloadBatAtom);
});
openBatAtom.debugLabel = 'bat.open';

/** New pages from the user: recorded for undo (unless told not to, e.g. each step of a drag), then autosaved. */
export const commitBatPagesAtom = atom(null, (get, set, next: BatPage[], recordHistory = true) => {
  const previous = get(batPagesAtom);
  set(batPagesAtom, next);
  if (recordHistory) {
    const { past } = get(batHistoryAtom);
    set(batHistoryAtom, { past: [...past.slice(-HISTORY_LIMIT + 1), previous], future: [] });
  }
  set(scheduleBatSaveAtom);
});
commitBatPagesAtom.debugLabel = 'bat.commitPages';

/** Changes the items of one layer. */
export const changeBatLayerAtom = atom(null, (get, set, id: number, change: (items: BatItem[]) => BatItem[], recordHistory = true) => {
  const next = get(batPagesAtom).map((page) => ({
    ...page,
    layers: page.layers.map((layer) => (layer.id === id ? { ...layer, content: change(layer.content) } : layer)),
  }));
  set(commitBatPagesAtom, next, recordHistory);
});
changeBatLayerAtom.debugLabel = 'bat.changeLayer';

/** Pages replaced whole (undo, redo, a merge): the text editors start again from them. */
export function showPages(set: Setter, pages: BatPage[]) {
  set(batPagesAtom, pages);
  set(batRevisionAtom, (revision) => revision + 1);
}

function restore(set: Setter, pages: BatPage[], next: History) {
  showPages(set, pages);
  set(batHistoryAtom, next);
  set(scheduleBatSaveAtom);
}

/** Undo (beyond the spec): the previous snapshot, saved as any change. */
export const undoBatAtom = atom(null, (get, set) => {
  const { past, future } = get(batHistoryAtom);
  if (!past.length) return;
  restore(set, past[past.length - 1], { past: past.slice(0, -1), future: [get(batPagesAtom), ...future] });
});
undoBatAtom.debugLabel = 'bat.undo';

export const redoBatAtom = atom(null, (get, set) => {
  const { past, future } = get(batHistoryAtom);
  if (!future.length) return;
  restore(set, future[0], { past: [...past, get(batPagesAtom)], future: future.slice(1) });
});
redoBatAtom.debugLabel = 'bat.redo';

export const batCanUndoAtom = atom((get) => get(batHistoryAtom).past.length > 0);
batCanUndoAtom.debugLabel = 'bat.canUndo';
export const batCanRedoAtom = atom((get) => get(batHistoryAtom).future.length > 0);
batCanRedoAtom.debugLabel = 'bat.canRedo';

/** Another page: its highest layer is selected. */
export const selectBatPageAtom = atom(null, (get, set, index: number) => {
  set(batPageIndexAtom, index);
  set(batLayerIdAtom, highestLayer(get(batPagesAtom)[index])?.id ?? null);
});
selectBatPageAtom.debugLabel = 'bat.selectPage';

/** A structural call (page, layer): what waits is saved first, then the answer replaces the proof. */
export const structuralBatAtom = atom(null, async (get, set, run: () => Promise<IpcResult<BatDocument>>, select: Select): Promise<boolean> => {
  await set(flushBatSaveAtom);
  const result = await run();
  if (!result.ok) {
    set(raiseNoticeAtom, BAT_NOTICES.error(result.errorMsg));
    return false;
  }
  adoptProof(get, set, result.data, select);
  if (select === 'layer') set(batLayerIdAtom, highestLayer(result.data.bat?.pages[get(batPageIndexAtom)])?.id ?? null);
  return true;
});
structuralBatAtom.debugLabel = 'bat.structural';

/** The screenshot library as its calls answer it (no history, no autosave). */
export const setBatScreenshotsAtom = atom(null, (_get, set, screenshots: BatDocument['screenshots']) =>
  set(batDocAtom, (doc) => (doc ? { ...doc, screenshots } : doc)),
);
setBatScreenshotsAtom.debugLabel = 'bat.setScreenshots';

/** A frozen version added (newest first) or changed, as its call answers it. */
export const putBatVersionAtom = atom(null, (_get, set, version: BatVersion, how: 'add' | 'replace') =>
  set(batDocAtom, (doc) => {
    if (!doc) return doc;
    const others = doc.versions.filter((other) => other.id !== version.id);
    return { ...doc, versions: how === 'add' ? [version, ...others] : doc.versions.map((other) => (other.id === version.id ? version : other)) };
  }),
);
putBatVersionAtom.debugLabel = 'bat.putVersion';

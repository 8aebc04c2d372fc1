import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { decideBatConflictAtom, reloadKeepingMineAtom, reloadTheirsAtom, resumeBatDraftAtom } from './atoms/merge';
import {
  batCanRedoAtom,
  batCanUndoAtom,
  changeBatLayerAtom,
  openBatAtom,
  putBatVersionAtom,
  redoBatAtom,
  selectBatPageAtom,
  setBatScreenshotsAtom,
  structuralBatAtom,
  undoBatAtom,
} from './atoms/proof';
import { flushBatSaveAtom } from './atoms/save';
import { resetBatViewAtom } from './atoms/view';
import {
  batAdvertIdAtom,
  batConflictsAtom,
  batDirtyAtom,
  batDocAtom,
  batLayerIdAtom,
  batLoadAtom,
  batPageIndexAtom,
  batPagesAtom,
  batRevisionAtom,
  batSavedAtom,
  batSavingAtom,
  batStaleAtom,
  batWaitingForServerAtom,
  type LoadState,
} from './atoms/state';
import { changedLayers } from './merge';

export { changedLayers };
export type { SavedProof } from './atoms/state';

const LOADING: LoadState = { status: 'loading' };

/**
 * The proof editor (§2.6) as its views use it: the state lives in the feature's atoms (atoms/), which hold the
 * document loaded by bat.fetch, the pages being edited with an undo / redo history (beyond the spec), the autosave
 * 500 ms after any change (one save in flight; a 409 marks the proof stale and stops saving until it is
 * reloaded; no answer waits for the server, lib/offline.ts), and the structural calls (pages, layers, screenshots).
 */
export function useBatEditor(advertId: number) {
  const open = useSetAtom(openBatAtom);
  const flush = useSetAtom(flushBatSaveAtom);
  const resetView = useSetAtom(resetBatViewAtom);
  useEffect(() => {
    void open(advertId);
    // Leaving the page: what waits for the autosave is sent at once, and the tools are put down (coming back to
    // the same proof finds no arrow tool armed and nothing selected, as on a first visit).
    return () => {
      void flush(true);
      resetView();
    };
  }, [advertId, open, flush, resetView]);

  // Until the atoms hold this advert's proof (the first render after another one), it is loading.
  const current = useAtomValue(batAdvertIdAtom) === advertId;
  const load = useAtomValue(batLoadAtom);
  const putVersion = useSetAtom(putBatVersionAtom);
  const reloadKeepingMine = useSetAtom(reloadKeepingMineAtom);
  return {
    call: useAtomValue(apiAtom),
    raise: useSetAtom(raiseNoticeAtom),
    load: current ? load : LOADING,
    doc: useAtomValue(batDocAtom),
    pages: useAtomValue(batPagesAtom),
    pageIndex: useAtomValue(batPageIndexAtom),
    selectPage: useSetAtom(selectBatPageAtom),
    layerId: useAtomValue(batLayerIdAtom),
    setLayerId: useSetAtom(batLayerIdAtom),
    saving: useAtomValue(batSavingAtom),
    /** Changes not saved yet (a save refused leaves them so). */
    dirty: useAtomValue(batDirtyAtom),
    /** A save waits for the server (lib/offline.ts). */
    waitingForServer: useAtomValue(batWaitingForServerAtom),
    saved: useAtomValue(batSavedAtom),
    resumeDraft: useSetAtom(resumeBatDraftAtom),
    stale: useAtomValue(batStaleAtom),
    reload: useSetAtom(reloadTheirsAtom),
    conflicts: useAtomValue(batConflictsAtom),
    reloadKeepingMine: () => reloadKeepingMine(),
    decide: useSetAtom(decideBatConflictAtom),
    flush: () => flush(),
    changeLayer: useSetAtom(changeBatLayerAtom),
    undo: useSetAtom(undoBatAtom),
    redo: useSetAtom(redoBatAtom),
    canUndo: useAtomValue(batCanUndoAtom),
    canRedo: useAtomValue(batCanRedoAtom),
    revision: useAtomValue(batRevisionAtom),
    structural: useSetAtom(structuralBatAtom),
    setScreenshots: useSetAtom(setBatScreenshotsAtom),
    addVersion: (version: Parameters<typeof putVersion>[0]) => putVersion(version, 'add'),
    replaceVersion: (version: Parameters<typeof putVersion>[0]) => putVersion(version, 'replace'),
  };
}

export type BatEditor = ReturnType<typeof useBatEditor>;

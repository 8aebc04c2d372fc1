import { atom } from 'jotai';
import type { BatDocument, BatPage } from '@shared/contract/bat';
import { pendingSavesAtom } from '../../../lib/offline';
import type { ItemConflict } from '../merge';

/**
 * The proof editor's state (adverts-articles.md §2.6), one concern an atom: callbacks that run later (the
 * autosave, a retried save, a merge) read the atoms as they are then, instead of refs kept beside React state.
 */

export type LoadState = { status: 'loading' } | { status: 'notFound' } | { status: 'error'; message: string } | { status: 'ready' };

/** The pages as the server has them and its version (docs/architecture.md, "Versions and conflicts"). */
export interface SavedProof {
  pages: BatPage[];
  version: number;
}

export type History = { past: BatPage[][]; future: BatPage[][] };

/** The advert whose proof the atoms hold (the editor opens one proof at a time). */
export const batAdvertIdAtom = atom<number | null>(null);
batAdvertIdAtom.debugLabel = 'bat.advertId';

/** How bat.fetch answered for that advert. */
export const batLoadAtom = atom<LoadState>({ status: 'loading' });
batLoadAtom.debugLabel = 'bat.load';

/** The document as loaded: the proof, its screenshot library and its frozen versions. */
export const batDocAtom = atom<BatDocument | null>(null);
batDocAtom.debugLabel = 'bat.doc';

/** The pages being edited. */
export const batPagesAtom = atom<BatPage[]>([]);
batPagesAtom.debugLabel = 'bat.pages';

/** The proof as the server has it now (loaded or last saved): a layer object still in it is unchanged. */
export const batSavedAtom = atom<SavedProof>({ pages: [], version: 0 });
batSavedAtom.debugLabel = 'bat.saved';

/** Undo and redo (beyond the spec): whole-proof snapshots. */
export const batHistoryAtom = atom<History>({ past: [], future: [] });
batHistoryAtom.debugLabel = 'bat.history';

/** Bumped when undo / redo or a merge replace the pages: text editors start again from the restored state. */
export const batRevisionAtom = atom(0);
batRevisionAtom.debugLabel = 'bat.revision';

export const batPageIndexAtom = atom(0);
batPageIndexAtom.debugLabel = 'bat.pageIndex';

export const batLayerIdAtom = atom<number | null>(null);
batLayerIdAtom.debugLabel = 'bat.layerId';

/** Pages changed since the last save went out. */
export const batDirtyAtom = atom(false);
batDirtyAtom.debugLabel = 'bat.dirty';

/** A save waiting for the autosave's delay, or in flight. */
export const batSavingAtom = atom(false);
batSavingAtom.debugLabel = 'bat.saving';

/** The 409's message (who changed the proof and when): nothing is saved until the proof is reloaded. */
export const batStaleAtom = atom<string | null>(null);
batStaleAtom.debugLabel = 'bat.stale';

/** Items both people changed, still to decide after a merge: nothing is saved until they are. */
export const batConflictsAtom = atom<ItemConflict[]>([]);
batConflictsAtom.debugLabel = 'bat.conflicts';

/** The autosave's timer: 500 ms after the last change (BAT_AUTOSAVE_MS). */
export const batAutosaveTimerAtom = atom<ReturnType<typeof setTimeout> | null>(null);
batAutosaveTimerAtom.debugLabel = 'bat.autosaveTimer';

/** The save in flight: one at a time, the next waits for it. */
export const batSaveInFlightAtom = atom<Promise<void> | null>(null);
batSaveInFlightAtom.debugLabel = 'bat.saveInFlight';

/** The key of this proof's save in the offline queue (lib/offline.ts). */
export const batOfflineKey = (advertId: number) => `bat:${advertId}`;

/** A save of this proof waits for the server (lib/offline.ts): the header never says 'Enregistré' meanwhile. */
export const batWaitingForServerAtom = atom((get) => {
  const advertId = get(batAdvertIdAtom);
  return advertId !== null && get(pendingSavesAtom).some((save) => save.key === batOfflineKey(advertId));
});
batWaitingForServerAtom.debugLabel = 'bat.waitingForServer';

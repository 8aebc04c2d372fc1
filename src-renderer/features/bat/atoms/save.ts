import { atom, type Setter } from 'jotai';
import { BAT_NOTICES } from '@shared/messages/bat';
import { BAT_AUTOSAVE_MS } from '@shared/rules/bat';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { queueSaveAtom, type AppStore, type RetryOutcome } from '../../../lib/offline';
import { changedLayers } from '../merge';
import {
  batAdvertIdAtom,
  batAutosaveTimerAtom,
  batConflictsAtom,
  batDirtyAtom,
  batOfflineKey,
  batPagesAtom,
  batSavedAtom,
  batSaveInFlightAtom,
  batSavingAtom,
  batStaleAtom,
} from './state';

/** A retry of lib/offline.ts, told how it went (and never queued again). */
type RetryOptions = { onOutcome: (outcome: RetryOutcome) => void };

/**
 * No answer from the server (lib/offline.ts): the banner says so instead of an error, the pages stay (and the local
 * draft keeps them), and the save is sent again when it answers, if the editor still holds the same proof then.
 */
function waitForServer(set: Setter, advertId: number) {
  const run = async (store: AppStore): Promise<RetryOutcome> => {
    // Another proof is open now: this one's pages wait in its local draft.
    if (store.get(batAdvertIdAtom) !== advertId) return 'saved';
    let outcome: RetryOutcome = 'saved';
    await store.set(saveBatAtom, { onOutcome: (answer) => (outcome = answer) });
    return outcome;
  };
  set(queueSaveAtom, { key: batOfflineKey(advertId), run });
}

/**
 * One save (§2.6): after the one in flight, the layers changed since the last save (the server keeps the others).
 * A 409 marks the proof stale; no answer queues it for the server's return (lib/offline.ts).
 */
export const saveBatAtom = atom(null, async (get, set, retry?: RetryOptions): Promise<void> => {
  const inFlight = get(batSaveInFlightAtom);
  if (inFlight) await inFlight;
  const advertId = get(batAdvertIdAtom);
  const held = get(batStaleAtom) !== null || get(batConflictsAtom).length > 0;
  if (advertId === null || !get(batDirtyAtom) || held) {
    set(batSavingAtom, false);
    return retry?.onOutcome(held ? 'refused' : 'saved');
  }
  set(batDirtyAtom, false);
  set(batSavingAtom, true);
  const sent = get(batPagesAtom);
  const saved = get(batSavedAtom);
  const changed = changedLayers(sent, saved.pages);
  if (!changed.length) {
    set(batSavingAtom, false);
    return retry?.onOutcome('saved');
  }
  const run = (async () => {
    const result = await get(apiAtom)('bat.save', { params: { advertId }, body: { version: saved.version, pages: changed } });
    if (result.ok) {
      set(batSavedAtom, { pages: sent, version: result.data.version });
      return retry?.onOutcome('saved');
    }
    set(batDirtyAtom, true);
    if (result.status === 0) {
      retry?.onOutcome('unreachable');
      if (!retry) waitForServer(set, advertId);
      return;
    }
    retry?.onOutcome('refused');
    if (result.status === 409) set(batStaleAtom, result.errorMsg);
    else set(raiseNoticeAtom, BAT_NOTICES.error(result.errorMsg));
  })();
  set(batSaveInFlightAtom, run);
  try {
    await run;
  } finally {
    set(batSaveInFlightAtom, null);
    // A change made while this one was in flight still waits for its own save.
    set(batSavingAtom, get(batAutosaveTimerAtom) !== null);
  }
});
saveBatAtom.debugLabel = 'bat.save';

/** The autosave (§2.6): 500 ms after the last change, one save in flight. */
export const scheduleBatSaveAtom = atom(null, (get, set) => {
  set(batDirtyAtom, true);
  set(batSavingAtom, true);
  const pending = get(batAutosaveTimerAtom);
  if (pending) clearTimeout(pending);
  const timer = setTimeout(() => {
    set(batAutosaveTimerAtom, null);
    void set(saveBatAtom);
  }, BAT_AUTOSAVE_MS);
  set(batAutosaveTimerAtom, timer);
});
scheduleBatSaveAtom.debugLabel = 'bat.scheduleSave';

/** Saves now what waits for the autosave (before a structural call, which bumps the version; on leaving the page). */
export const flushBatSaveAtom = atom(null, async (get, set, onlyIfWaiting?: boolean) => {
  const pending = get(batAutosaveTimerAtom);
  if (pending) {
    clearTimeout(pending);
    set(batAutosaveTimerAtom, null);
  } else if (onlyIfWaiting) return;
  await set(saveBatAtom);
});
flushBatSaveAtom.debugLabel = 'bat.flushSave';

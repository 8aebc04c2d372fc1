import { atom, useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect } from 'react';

/**
 * Saves the server could not be reached for (docs/architecture.md, "Versions and conflicts"): the app says so once,
 * keeps them in the order they were made, and sends them again when the server answers, stopping at the first one
 * it refuses (a 409: the user decides in that editor; the local drafts keep what was typed meanwhile).
 */
export type RetryOutcome = 'saved' | 'unreachable' | 'refused';

export interface PendingSave {
  /** The record it saves (`advert:12`): a newer save of the same record takes the older one's place. */
  key: string;
  /** Sends it again, through the app's store (the atoms' own setters, not those of the failed call). */
  run: (store: AppStore) => Promise<RetryOutcome>;
}

export type AppStore = ReturnType<typeof useStore>;

export const pendingSavesAtom = atom<PendingSave[]>([]);
pendingSavesAtom.debugLabel = 'offline/pendingSaves';

/** Whether a save found the server unreachable and has not gone through since. */
export const serverUnreachableAtom = atom((get) => get(pendingSavesAtom).length > 0);
serverUnreachableAtom.debugLabel = 'offline/unreachable';

export const queueSaveAtom = atom(null, (get, set, save: PendingSave) => {
  const pending = get(pendingSavesAtom);
  const at = pending.findIndex((item) => item.key === save.key);
  set(pendingSavesAtom, at === -1 ? [...pending, save] : pending.map((item, index) => (index === at ? save : item)));
});
queueSaveAtom.debugLabel = 'offline/queueSave';

/** Waits between tries: quick at first (a restart takes seconds), then every 10 s at most. */
export const OFFLINE_RETRY_MS = { first: 1_000, max: 10_000 } as const;

/**
 * Sends the pending saves again while there are some: the first one until the server answers, then the next ones
 * in order. A refused one (409 or another refusal) ends the round: the others wait for the user's next save.
 */
export function useOfflineRetries() {
  const store = useStore();
  const unreachable = useAtomValue(serverUnreachableAtom);
  const setPending = useSetAtom(pendingSavesAtom);
  useEffect(() => {
    if (!unreachable) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wait: number = OFFLINE_RETRY_MS.first;
    const tick = async () => {
      while (!stopped) {
        const [first] = store.get(pendingSavesAtom);
        if (!first) return;
        const outcome = await first.run(store);
        if (stopped) return;
        if (outcome === 'unreachable') break;
        if (outcome === 'refused') return setPending([]);
        // A save of the same record queued while this one ran stays.
        setPending((pending) => pending.filter((item) => item !== first));
        wait = OFFLINE_RETRY_MS.first;
      }
      if (stopped) return;
      timer = setTimeout(() => void tick(), wait);
      wait = Math.min(wait * 2, OFFLINE_RETRY_MS.max);
    };
    timer = setTimeout(() => void tick(), wait);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [unreachable, store, setPending]);
}

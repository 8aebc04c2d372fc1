import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import type { BatDocument, BatItem, BatPage, BatVersion } from '@shared/contract/bat';
import { BAT_NOTICES } from '@shared/messages/bat';
import { BAT_AUTOSAVE_MS } from '@shared/rules/bat';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { useLatest } from '../../lib/render-state';
import { changedLayers } from './merge';
import { useProofMerge } from './useProofMerge';

export { changedLayers };

export type LoadState = { status: 'loading' } | { status: 'notFound' } | { status: 'error'; message: string } | { status: 'ready' };

const HISTORY_LIMIT = 100;

/** The highest layer of a page (§2.6: adding a page or a layer selects the highest one). */
export const highestLayer = (page: BatPage | undefined) =>
  page?.layers.reduce((top, layer) => (layer.level > top.level ? layer : top), page.layers[0]);

/** The pages as the server has them and its version (docs/architecture.md, "Versions and conflicts"). */
export interface SavedProof {
  pages: BatPage[];
  version: number;
}

interface AutosaveState {
  versionRef: MutableRefObject<number>;
  pagesRef: MutableRefObject<BatPage[]>;
  /** The pages as the server has them (loaded or last saved): a layer object still in them is unchanged. */
  savedRef: MutableRefObject<BatPage[]>;
  dirtyRef: MutableRefObject<boolean>;
  staleRef: MutableRefObject<boolean>;
  /** Items both people changed, still to decide after a merge: nothing is saved until they are. */
  holdRef: MutableRefObject<boolean>;
  setSaving(saving: boolean): void;
  /** The proof as the server has it now, as state: what the local draft compares the pages with. */
  setSaved(saved: SavedProof): void;
  /** The refusal's message (who changed the proof and when), or null. */
  setStale(stale: string | null): void;
}

/**
 * The autosave (§2.6): 500 ms after the last change, one save in flight, carrying the layers changed since the
 * last save (the server keeps the others); a 409 marks the proof stale.
 */
function useAutosave(advertId: number, state: AutosaveState) {
  const call = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const { versionRef, pagesRef, savedRef, dirtyRef, staleRef, holdRef, setSaving, setSaved, setStale } = state;

  const save = useCallback(async (): Promise<void> => {
    if (inFlight.current) await inFlight.current;
    if (!dirtyRef.current || staleRef.current || holdRef.current) return setSaving(false);
    dirtyRef.current = false;
    setSaving(true);
    const sent = pagesRef.current;
    const changed = changedLayers(sent, savedRef.current);
    if (!changed.length) return setSaving(false);
    const body = { version: versionRef.current, pages: changed };
    const run = (async () => {
      const result = await call('bat.save', { params: { advertId }, body });
      if (result.ok) {
        versionRef.current = result.data.version;
        savedRef.current = sent;
        setSaved({ pages: sent, version: result.data.version });
      } else if (result.status === 409) {
        staleRef.current = true;
        dirtyRef.current = true;
        setStale(result.errorMsg);
      } else {
        dirtyRef.current = true;
        raise(BAT_NOTICES.error(result.errorMsg));
      }
    })();
    inFlight.current = run;
    try {
      await run;
    } finally {
      inFlight.current = null;
      setSaving(false);
    }
  }, [advertId, call, raise, dirtyRef, pagesRef, savedRef, setSaving, setSaved, setStale, staleRef, holdRef, versionRef]);

  const schedule = useCallback(() => {
    dirtyRef.current = true;
    setSaving(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void save();
    }, BAT_AUTOSAVE_MS);
  }, [save, dirtyRef, setSaving]);

  /** Saves now what waits for the autosave (before a structural call, which bumps the version). */
  const flush = useCallback(async () => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    await save();
  }, [save]);

  useEffect(
    () => () => {
      // Leaving the page: what waits is sent at once.
      if (timer.current) {
        clearTimeout(timer.current);
        void save();
      }
    },
    [save],
  );

  return { schedule, flush };
}

type History = { past: BatPage[][]; future: BatPage[][] };

/** Undo and redo of the editor's changes (beyond the spec): whole-proof snapshots, text editors restarted. */
function useHistory(
  history: MutableRefObject<History>,
  setHistory: (next: History) => void,
  pagesRef: MutableRefObject<BatPage[]>,
  setPages: (pages: BatPage[]) => void,
  setRevision: Dispatch<SetStateAction<number>>,
  schedule: () => void,
) {
  const restore = (pagesToShow: BatPage[], next: History) => {
    pagesRef.current = pagesToShow;
    setPages(pagesToShow);
    setRevision((r) => r + 1);
    setHistory(next);
    schedule();
  };
  const undo = () => {
    const { past, future } = history.current;
    if (!past.length) return;
    restore(past[past.length - 1], { past: past.slice(0, -1), future: [pagesRef.current, ...future] });
  };
  const redo = () => {
    const { past, future } = history.current;
    if (!future.length) return;
    restore(future[0], { past: [...past, pagesRef.current], future: future.slice(1) });
  };

  return { undo, redo, canUndo: history.current.past.length > 0, canRedo: history.current.future.length > 0 };
}

/** The screenshot library and the frozen versions as their calls answer them (no history, no autosave). */
function useLibraryAndVersions(setDoc: Dispatch<SetStateAction<BatDocument | null>>) {
  const setScreenshots = useCallback((screenshots: BatDocument['screenshots']) => setDoc((d) => (d ? { ...d, screenshots } : d)), [setDoc]);
  const addVersion = useCallback(
    (v: BatVersion) => setDoc((d) => (d ? { ...d, versions: [v, ...d.versions.filter((o) => o.id !== v.id)] } : d)),
    [setDoc],
  );
  const replaceVersion = useCallback(
    (v: BatVersion) => setDoc((d) => (d ? { ...d, versions: d.versions.map((o) => (o.id === v.id ? v : o)) } : d)),
    [setDoc],
  );
  return { setScreenshots, addVersion, replaceVersion };
}

/** A structural call (page, layer): what waits is saved first, then the answer replaces the proof. */
function useStructural(
  flush: () => Promise<void>,
  adopt: (next: BatDocument, select: 'page' | 'layer' | 'keep') => void,
  raise: (notice: ReturnType<typeof BAT_NOTICES.error>) => void,
  setLayerId: (id: number | null) => void,
  pageIndexRef: MutableRefObject<number>,
) {
  return useCallback(
    async (
      run: () => Promise<{ ok: true; data: BatDocument } | { ok: false; status: number; errorMsg: string }>,
      select: 'page' | 'layer' | 'keep',
    ) => {
      await flush();
      const result = await run();
      if (!result.ok) {
        raise(BAT_NOTICES.error(result.errorMsg));
        return false;
      }
      adopt(result.data, select);
      if (select === 'layer') {
        setLayerId(highestLayer(result.data.bat?.pages[pageIndexRef.current])?.id ?? null);
      }
      return true;
    },
    [adopt, flush, raise, setLayerId, pageIndexRef],
  );
}

/**
 * A local draft resumed (lib/local-drafts.ts): its pages are saved as any change is; one based on an older version
 * is merged onto the proof as it is now against the pages it was typed on, as 'Recharger le BAT' does.
 */
function useDraftResume(
  refs: Pick<AutosaveState, 'versionRef' | 'pagesRef' | 'savedRef'>,
  commit: (pages: BatPage[]) => void,
  reloadKeepingMine: () => Promise<void>,
) {
  const { versionRef, pagesRef, savedRef } = refs;
  return useCallback(
    (draft: SavedProof, base: SavedProof | null) => {
      if (!base || draft.version === versionRef.current) return commit(draft.pages);
      savedRef.current = base.pages;
      pagesRef.current = draft.pages;
      void reloadKeepingMine();
    },
    [commit, reloadKeepingMine, versionRef, pagesRef, savedRef],
  );
}

/**
 * The proof editor's state (§2.6): the document loaded by bat.fetch, the pages being edited with an undo / redo
 * history (beyond the spec), the autosave 500 ms after any change (one save in flight; a 409 marks the proof
 * stale and stops saving until it is reloaded), and the structural calls (pages, layers, screenshots).
 */
export function useBatEditor(advertId: number) {
  const call = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [load, setLoad] = useState<LoadState>({ status: 'loading' });
  const [doc, setDoc] = useState<BatDocument | null>(null);
  const [pages, setPages] = useState<BatPage[]>([]);
  const history = useRef<{ past: BatPage[][]; future: BatPage[][] }>({ past: [], future: [] });
  const [, setHistoryTick] = useState(0);
  const setHistory = useCallback((next: { past: BatPage[][]; future: BatPage[][] }) => {
    history.current = next;
    setHistoryTick((tick) => tick + 1);
  }, []);
  /** Bumped when undo / redo replace the pages: text editors start again from the restored state. */
  const [revision, setRevision] = useState(0);
  const [pageIndex, setPageIndex] = useState(0);
  const [layerId, setLayerId] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [stale, setStale] = useState<string | null>(null);
  const [saved, setSaved] = useState<SavedProof | null>(null);
  const versionRef = useRef(0);
  // Read by callbacks after the commit; `adopt` also moves them ahead of the next render.
  const pageIndexRef = useLatest(pageIndex);
  const layerIdRef = useLatest(layerId);
  const pagesRef = useRef<BatPage[]>([]);
  const savedRef = useRef<BatPage[]>([]);
  const dirtyRef = useRef(false);
  const staleRef = useRef(false);
  const holdRef = useRef(false);

  const adopt = useCallback(
    (next: BatDocument, selectHighest?: 'page' | 'layer' | 'keep') => {
      setDoc(next);
      const nextPages = next.bat?.pages ?? [];
      versionRef.current = next.bat?.version ?? 0;
      pagesRef.current = nextPages;
      savedRef.current = nextPages;
      setSaved({ pages: nextPages, version: versionRef.current });
      setPages(nextPages);
      setHistory({ past: [], future: [] });
      const index = pageIndexRef.current;
      const target = selectHighest === 'page' ? nextPages.length - 1 : Math.min(index, Math.max(0, nextPages.length - 1));
      pageIndexRef.current = target;
      setPageIndex(target);
      const page = nextPages[target];
      const current = layerIdRef.current;
      setLayerId(selectHighest === 'keep' && page?.layers.some((layer) => layer.id === current) ? current : (highestLayer(page)?.id ?? null));
    },
    [setHistory, pageIndexRef, layerIdRef],
  );

  const reload = useCallback(async () => {
    const result = await call('bat.fetch', { params: { id: advertId } });
    if (result.ok) {
      staleRef.current = false;
      setStale(null);
      dirtyRef.current = false;
      adopt(result.data, 'keep');
      setLoad({ status: 'ready' });
    } else if (result.status === 404) setLoad({ status: 'notFound' });
    else setLoad({ status: 'error', message: result.errorMsg });
  }, [advertId, adopt, call]);

  useEffect(() => {
    // Loading on arrival: the state is set when the server answers, never synchronously in the effect (the rule
    // cannot see past the call); `reload` is also what the stale banner runs.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void reload();
  }, [reload]);

  const refs = { versionRef, pagesRef, savedRef, dirtyRef, staleRef, holdRef };
  const { schedule, flush } = useAutosave(advertId, { ...refs, setSaving, setSaved, setStale });
  const fetchProof = useCallback(() => call('bat.fetch', { params: { id: advertId } }), [advertId, call]);
  const merge = useProofMerge({ fetchProof, reload, adopt, raise, ...refs, setStale, setPages, setRevision, schedule });

  const commit = useCallback(
    (next: BatPage[], recordHistory = true) => {
      const previous = pagesRef.current;
      pagesRef.current = next;
      setPages(next);
      if (recordHistory) setHistory({ past: [...history.current.past.slice(-HISTORY_LIMIT + 1), previous], future: [] });
      schedule();
    },
    [schedule, setHistory],
  );

  /** Changes the items of one layer of the current page. */
  const changeLayer = useCallback(
    (id: number, change: (items: BatItem[]) => BatItem[], recordHistory = true) => {
      const next = pagesRef.current.map((page) => ({
        ...page,
        layers: page.layers.map((layer) => (layer.id === id ? { ...layer, content: change(layer.content) } : layer)),
      }));
      commit(next, recordHistory);
    },
    [commit],
  );

  const { undo, redo, canUndo, canRedo } = useHistory(history, setHistory, pagesRef, setPages, setRevision, schedule);

  const structural = useStructural(flush, adopt, raise, setLayerId, pageIndexRef);
  const { setScreenshots, addVersion, replaceVersion } = useLibraryAndVersions(setDoc);

  const resumeDraft = useDraftResume(refs, commit, merge.reloadKeepingMine);

  const selectPage = useCallback((index: number) => {
    setPageIndex(index);
    setLayerId(highestLayer(pagesRef.current[index])?.id ?? null);
  }, []);

  return {
    call,
    raise,
    load,
    doc,
    pages,
    pageIndex,
    selectPage,
    layerId,
    setLayerId,
    saving,
    saved,
    resumeDraft,
    stale,
    reload: merge.reloadTheirs,
    conflicts: merge.conflicts,
    reloadKeepingMine: merge.reloadKeepingMine,
    decide: merge.decide,
    flush,
    changeLayer,
    undo,
    redo,
    canUndo,
    canRedo,
    revision,
    structural,
    setScreenshots,
    addVersion,
    replaceVersion,
  };
}

export type BatEditor = ReturnType<typeof useBatEditor>;

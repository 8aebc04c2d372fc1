import { useCallback, useState, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import type { BatDocument, BatItem, BatPage } from '@shared/contract/bat';
import type { IpcResult } from '@shared/ipc';
import { BAT_NOTICES } from '@shared/messages/bat';
import { changedLayers, mergeProof, withItem, type ItemConflict } from './merge';

interface MergeDeps {
  fetchProof(): Promise<IpcResult<BatDocument>>;
  /** Their proof whole, dropping the user's unsaved items. */
  reload(): Promise<void>;
  adopt(next: BatDocument, select: 'keep'): void;
  raise(notice: ReturnType<typeof BAT_NOTICES.error>): void;
  pagesRef: MutableRefObject<BatPage[]>;
  savedRef: MutableRefObject<BatPage[]>;
  staleRef: MutableRefObject<boolean>;
  holdRef: MutableRefObject<boolean>;
  dirtyRef: MutableRefObject<boolean>;
  setStale(stale: string | null): void;
  setPages(pages: BatPage[]): void;
  setRevision: Dispatch<SetStateAction<number>>;
  schedule(): void;
}

/**
 * 'Recharger le BAT' after a refused save (docs/architecture.md, "Versions and conflicts"): their proof comes in
 * and the user's unsaved items are merged onto it (merge.ts), so nothing typed is lost. Items both changed are
 * listed, theirs beside yours, and nothing is saved until each is decided; 'Recharger' in that list drops the
 * user's changes for theirs whole.
 */
export function useProofMerge(deps: MergeDeps) {
  const [conflicts, setConflicts] = useState<ItemConflict[]>([]);
  const { fetchProof, reload, adopt, raise, pagesRef, savedRef, staleRef, holdRef, dirtyRef, setStale, setPages, setRevision, schedule } = deps;

  const show = useCallback(
    (pages: BatPage[]) => {
      pagesRef.current = pages;
      setPages(pages);
      setRevision((revision) => revision + 1);
    },
    [pagesRef, setPages, setRevision],
  );

  const reloadKeepingMine = useCallback(async () => {
    const base = savedRef.current;
    const mine = pagesRef.current;
    const result = await fetchProof();
    if (!result.ok) return raise(BAT_NOTICES.error(result.errorMsg));
    const theirs = result.data.bat?.pages ?? [];
    const merged = mergeProof(base, mine, theirs);
    adopt(result.data, 'keep');
    staleRef.current = false;
    setStale(null);
    holdRef.current = merged.conflicts.length > 0;
    setConflicts(merged.conflicts);
    show(merged.pages);
    // What the user changed is saved on their version (after the choices, when there are some to make).
    if (changedLayers(merged.pages, theirs).length) schedule();
    else dirtyRef.current = false;
  }, [adopt, dirtyRef, fetchProof, holdRef, pagesRef, raise, savedRef, schedule, setStale, show, staleRef]);

  const decide = useCallback(
    (conflict: ItemConflict, take: 'mine' | 'theirs') => {
      const rest = conflicts.filter((other) => other !== conflict);
      holdRef.current = rest.length > 0;
      setConflicts(rest);
      if (take === 'theirs') show(withItem(pagesRef.current, conflict.layerId, conflict.i, conflict.theirs as BatItem | null));
      schedule();
    },
    [conflicts, holdRef, pagesRef, schedule, show],
  );

  /** 'Recharger' in the conflict list: their proof whole, the user's unsaved items dropped (they chose so). */
  const reloadTheirs = useCallback(async () => {
    holdRef.current = false;
    setConflicts([]);
    await reload();
  }, [holdRef, reload]);

  return { conflicts, reloadKeepingMine, decide, reloadTheirs };
}

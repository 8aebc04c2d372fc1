import { atom } from 'jotai';
import type { BatItem, BatPage } from '@shared/contract/bat';
import { BAT_NOTICES } from '@shared/messages/bat';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { changedLayers, mergeProof, withItem, type ItemConflict } from '../merge';
import { adoptProof, commitBatPagesAtom, reloadBatAtom, showPages } from './proof';
import { scheduleBatSaveAtom } from './save';
import { batAdvertIdAtom, batConflictsAtom, batDirtyAtom, batPagesAtom, batSavedAtom, batStaleAtom, type SavedProof } from './state';

/**
 * 'Recharger le BAT' after a refused save (docs/architecture.md, "Versions and conflicts"): their proof comes in
 * and the user's unsaved items are merged onto it (merge.ts), so nothing typed is lost. Items both changed are
 * listed, theirs beside yours, and nothing is saved until each is decided. `from` is the user's pages and the
 * proof they were typed on when they are not the editor's (a resumed local draft).
 */
export const reloadKeepingMineAtom = atom(null, async (get, set, from?: { base: BatPage[]; mine: BatPage[] }) => {
  const advertId = get(batAdvertIdAtom);
  if (advertId === null) return;
  const base = from?.base ?? get(batSavedAtom).pages;
  const mine = from?.mine ?? get(batPagesAtom);
  const result = await get(apiAtom)('bat.fetch', { params: { id: advertId } });
  if (!result.ok) return set(raiseNoticeAtom, BAT_NOTICES.error(result.errorMsg));
  const theirs = result.data.bat?.pages ?? [];
  const merged = mergeProof(base, mine, theirs);
  adoptProof(get, set, result.data, 'keep');
  set(batStaleAtom, null);
  set(batConflictsAtom, merged.conflicts);
  showPages(set, merged.pages);
  // What the user changed is saved on their version (after the choices, when there are some to make).
  if (changedLayers(merged.pages, theirs).length) set(scheduleBatSaveAtom);
  else set(batDirtyAtom, false);
});
reloadKeepingMineAtom.debugLabel = 'bat.reloadKeepingMine';

/** The user's choice for one item both changed; the proof is saved once none is left. */
export const decideBatConflictAtom = atom(null, (get, set, conflict: ItemConflict, take: 'mine' | 'theirs') => {
  set(
    batConflictsAtom,
    get(batConflictsAtom).filter((other) => other !== conflict),
  );
  if (take === 'theirs') showPages(set, withItem(get(batPagesAtom), conflict.layerId, conflict.i, conflict.theirs as BatItem | null));
  set(scheduleBatSaveAtom);
});
decideBatConflictAtom.debugLabel = 'bat.decideConflict';

/** 'Recharger' in the conflict list: their proof whole, the user's unsaved items dropped (they chose so). */
export const reloadTheirsAtom = atom(null, async (_get, set) => {
  set(batConflictsAtom, []);
  await set(reloadBatAtom);
});
reloadTheirsAtom.debugLabel = 'bat.reloadTheirs';

/**
 * A local draft resumed (lib/local-drafts.ts): its pages are saved as any change is; one based on an older version
 * is merged onto the proof as it is now against the pages it was typed on, as 'Recharger le BAT' does.
 */
export const resumeBatDraftAtom = atom(null, async (get, set, draft: SavedProof, base: SavedProof | null) => {
  if (!base || draft.version === get(batSavedAtom).version) return set(commitBatPagesAtom, draft.pages);
  await set(reloadKeepingMineAtom, { base: base.pages, mine: draft.pages });
});
resumeBatDraftAtom.debugLabel = 'bat.resumeDraft';

import { atom } from 'jotai';
import { AUDIENCE_NOTICES } from '@shared/messages';
import { keywordAllowed } from '@shared/rules/audience-editor';
import type { Area, AudienceType } from '@shared/rules/audiences';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { adoptAudienceConflict } from './conflict';
import { changeDraftAtom, draftAtom, pristineAtom, serverErrorAtom } from './draft';

// The audience's own fields in the editor: name, type, catalogue, and the area (saved at once).

/** Spec §4: changing the area replaces the Area relationship; saved at once on a saved audience ('Area saved.'). */
export const setAreaAtom = atom(null, async (get, set, area: Area) => {
  const draft = get(draftAtom);
  if (!draft || draft.area === area) return;
  set(draftAtom, { ...draft, area });
  if (draft.id === null) return;
  const result = await get(apiAtom)('audiences.update', {
    params: { id: draft.id },
    body: { area, ...(draft.version !== null ? { version: draft.version } : {}) },
  });
  if (!result.ok) {
    // Someone saved the audience meanwhile: the area stays the user's, in the conflict view beside theirs.
    if (adoptAudienceConflict(get, set, result)) return;
    set(changeDraftAtom, (current) => ({ ...current, area: draft.area }));
    return set(serverErrorAtom, result.errorMsg);
  }
  const version = result.data.version ?? null;
  set(changeDraftAtom, (current) => ({ ...current, version }));
  const pristine = get(pristineAtom);
  if (pristine) set(pristineAtom, { ...pristine, area, version });
  set(raiseNoticeAtom, AUDIENCE_NOTICES.areaSaved);
});
setAreaAtom.debugLabel = 'audiences.editor.setArea';

/** A timeline audience takes no keyword (spec §4): the type is refused with the alert while keywords are there. */
export const setTypeAtom = atom(null, (get, set, type: AudienceType | null) => {
  const draft = get(draftAtom);
  if (!draft) return;
  if (!keywordAllowed(type) && draft.relationships.some((r) => r.node.label === 'Keyword'))
    return set(raiseNoticeAtom, AUDIENCE_NOTICES.keywordOnTimeline);
  set(draftAtom, { ...draft, type });
});
setTypeAtom.debugLabel = 'audiences.editor.setType';

export const setNameAtom = atom(null, (_get, set, name: string) => set(changeDraftAtom, (draft) => ({ ...draft, name })));
setNameAtom.debugLabel = 'audiences.editor.setName';

export const setCatalogAtom = atom(null, (_get, set, isInCatalog: boolean) => set(changeDraftAtom, (draft) => ({ ...draft, isInCatalog })));
setCatalogAtom.debugLabel = 'audiences.editor.setCatalog';

import { atom, type Setter } from 'jotai';
import type { Audience } from '@shared/contract/audiences/audiences';
import type { CsvImportReport } from '@shared/ipc';
import { AUDIENCE_NOTICES } from '@shared/messages';
import { canSave } from '@shared/rules/audience-editor';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { queueSaveAtom, type AppStore, type RetryOutcome } from '../../../lib/offline';
import { adoptAudienceConflict, audienceConflictAtom } from './conflict';
import { changeDraftAtom, draftAtom, fieldsRefusedAtom, fromAudience, pristineAtom, serverErrorAtom, setSavedDraftAtom, toInput } from './draft';

// Saving the audience editor's draft: creating a new audience, saving a saved one (queued while the server is
// unreachable, lib/offline.ts), and the provisional audience an e-mail list attaches to.

export const savingAtom = atom(false);
savingAtom.debugLabel = 'audiences.editor.saving';

/** Creates the new audience on the server from the draft (spec §4: adding a relationship creates it first). */
export const createFromDraftAtom = atom(null, async (get, set): Promise<number | null> => {
  const created = await set(createOnServerAtom);
  if (created === null) return null;
  // Created with the draft's relationships: all of it is saved now.
  set(setSavedDraftAtom, { ...fromAudience(created), relationships: get(draftAtom)?.relationships ?? [] });
  return created.id;
});
createFromDraftAtom.debugLabel = 'audiences.editor.createFromDraft';

/** POST /audience from the draft, the draft left as it is (still new); answers the created audience, or null. */
const createOnServerAtom = atom(null, async (get, set): Promise<Audience | null> => {
  const draft = get(draftAtom);
  if (!draft || set(fieldsRefusedAtom)) return null;
  const result = await get(apiAtom)('audiences.create', {
    body: {
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      ...(draft.type ? { type: draft.type } : {}),
      area: draft.area,
      isInCatalog: draft.isInCatalog,
      relationships: draft.relationships.map(toInput),
    },
  });
  if (!result.ok) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.notSaved);
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  return result.data;
});
createOnServerAtom.debugLabel = 'audiences.editor.createOnServer';

/** A retry of lib/offline.ts, told how it went (and never queued again). */
type RetryOptions = { onOutcome: (outcome: RetryOutcome) => void };

/**
 * No answer from the server (lib/offline.ts): the banner says so instead of an error, the draft keeps the values,
 * and the save is sent again when it answers, if this editor still shows the same audience then.
 */
function waitForServer(set: Setter, id: number, retry: RetryOptions | undefined) {
  if (retry) return;
  const run = async (store: AppStore): Promise<RetryOutcome> => {
    if (store.get(draftAtom)?.id !== id) return 'saved';
    let outcome: RetryOutcome = 'refused';
    await store.set(saveAudienceAtom, { onOutcome: (answer) => (outcome = answer) });
    return outcome;
  };
  set(queueSaveAtom, { key: `audience:${id}`, run });
}

/**
 * Saves the audience: refused without an area and a criterion (spec §4); creates it when new, else its fields
 * then its relationships. Answers the saved id, or null.
 */
export const saveAudienceAtom = atom(null, async (get, set, retry?: RetryOptions): Promise<number | null> => {
  const draft = get(draftAtom);
  if (!draft || get(savingAtom) || set(fieldsRefusedAtom)) return null;
  if (!canSave(draft)) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.needsCriterion);
    return null;
  }
  set(savingAtom, true);
  try {
    if (draft.id === null) {
      const id = await set(createFromDraftAtom);
      if (id !== null) set(raiseNoticeAtom, AUDIENCE_NOTICES.audienceSaved);
      return id;
    }
    const api = get(apiAtom);
    const basedOn = draft.version !== null ? { version: draft.version } : {};
    const fields = await api('audiences.update', {
      params: { id: draft.id },
      body: {
        ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
        type: draft.type,
        area: draft.area,
        isInCatalog: draft.isInCatalog,
        ...basedOn,
      },
    });
    // The fields' save moved the version on: the criteria's save is based on the version it answered.
    const fieldsVersion = fields.ok && fields.data.version !== undefined ? { version: fields.data.version } : {};
    const saved = fields.ok
      ? await api('audiences.setRelationships', {
          params: { id: draft.id },
          body: { relationships: draft.relationships.map(toInput), ...(draft.version !== null ? fieldsVersion : {}) },
        })
      : fields;
    if (!saved.ok) {
      retry?.onOutcome(saved.status === 0 ? 'unreachable' : 'refused');
      if (saved.status === 0) {
        waitForServer(set, draft.id, retry);
        return null;
      }
      if (adoptAudienceConflict(get, set, saved)) return null;
      set(raiseNoticeAtom, AUDIENCE_NOTICES.notSaved);
      set(serverErrorAtom, saved.errorMsg);
      return null;
    }
    retry?.onOutcome('saved');
    set(audienceConflictAtom, null);
    // Keep what the user changed meanwhile; take the server's name (a blank name stays the old one).
    const version = saved.data.version ?? null;
    set(changeDraftAtom, (current) => ({ ...current, name: saved.data.name, adverts: saved.data.adverts, version }));
    set(pristineAtom, { ...draft, name: saved.data.name, adverts: saved.data.adverts, version });
    set(raiseNoticeAtom, AUDIENCE_NOTICES.audienceSaved);
    return draft.id;
  } finally {
    set(savingAtom, false);
  }
});
saveAudienceAtom.debugLabel = 'audiences.editor.save';

/** Makes sure the audience exists on the server (the e-mail list attaches to a saved audience); answers its id. */
export const ensureSavedAtom = atom(null, async (get, set): Promise<number | null> => {
  const draft = get(draftAtom);
  if (!draft) return null;
  if (draft.id !== null) return draft.id;
  return set(createFromDraftAtom);
});
ensureSavedAtom.debugLabel = 'audiences.editor.ensureSaved';

/**
 * The e-mail list of a new audience that has no criterion yet: the audience must exist for the list to attach to
 * it, but it may be kept only if the list brings a criterion (spec §4: never saved without one). `attach` runs on
 * an audience created for it; when nothing was attached, that audience is deleted and the draft stays new, else
 * the draft becomes the saved audience. Answers attach's answer and whether the audience was kept.
 */
export const attachToProvisionalAudienceAtom = atom(
  null,
  async (
    get,
    set,
    attach: (id: number) => Promise<{ answer: CsvImportReport; attached: boolean } | null>,
  ): Promise<{ answer: CsvImportReport; kept: boolean } | null> => {
    const created = await set(createOnServerAtom);
    if (created === null) return null;
    const done = await attach(created.id);
    if (!done || !done.attached) {
      const removed = await get(apiAtom)('audiences.delete', { params: { id: created.id } });
      if (!removed.ok) set(serverErrorAtom, removed.errorMsg);
      return done && { answer: done.answer, kept: false };
    }
    // The list attached moved the version on after `created`: no check on the next save rather than a refusal.
    set(setSavedDraftAtom, { ...fromAudience(created), relationships: get(draftAtom)?.relationships ?? [], version: null });
    return { answer: done.answer, kept: true };
  },
);
attachToProvisionalAudienceAtom.debugLabel = 'audiences.editor.attachToProvisional';

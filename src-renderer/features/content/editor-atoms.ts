import { atom, type Getter, type Setter, type WritableAtom } from 'jotai';
import type { IpcResult } from '@shared/ipc';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { CONFLICT_NOTICES } from '@shared/messages/conflicts';
import { criteriaByLabel, sameCriteria } from '@shared/rules/article-audience';
import type { CallApi } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { queueSaveAtom, type AppStore, type RetryOutcome } from '../../lib/offline';
import { publicationProblems, saveChecks, type AskDelayReason } from './publish-checks';
import type { ContentApi, ContentItem, PublishRequest } from './types';
import { publishProblems, refused, refusedAt } from './editor-refusals';
import { adoptConflict } from './editor-conflict-adoption';
import { adopt, createEditorState, type ApiOf, type EditorState, type SaveOptions } from './editor-state';

const audienceIdsOf = (item: ContentItem | null) => (item?._$audiences ?? []).map((audience) => audience.id).sort((a, b) => a - b);
const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/** An article's own audience criteria (§2.5), loaded beside the item. */
async function withCriteria(api: ContentApi, item: ContentItem): Promise<IpcResult<ContentItem>> {
  if (!api.criteria || item.id === undefined) return { ok: true, data: item };
  const criteria = await api.criteria.get(item.id);
  return criteria.ok ? { ok: true, data: { ...item, _$criteria: criteria.data.criteria } } : criteria;
}

/** Writes the draft's criteria when they changed, then reloads the item (its audience link changed with them). */
async function saveCriteria(api: ContentApi, id: number, draft: ContentItem, saved: ContentItem | null): Promise<IpcResult<ContentItem> | null> {
  if (!api.criteria || !draft._$criteria || sameCriteria(draft._$criteria, saved?._$criteria ?? [])) return null;
  const written = await api.criteria.set(id, criteriaByLabel(draft._$criteria));
  if (!written.ok) return written;
  const reloaded = await api.load(id);
  return reloaded.ok ? { ok: true, data: { ...reloaded.data, _$criteria: written.data.criteria } } : reloaded;
}

/** Loading, starting and changing the draft, and marking what the server already stored. */
function createDraftActions(state: EditorState, apiOf: ApiOf, name: (part: string) => string) {
  const { statusAtom, draftAtom, savedAtom, pristineAtom } = state;

  // A load the route replaced (another item, a new one, the editor left) writes nothing: its late answer would
  // become the draft of the item now on screen (docs/architecture.md, "How a screen loads data").
  const loadAtom = atom(null, async (get, set, id: number, signal?: AbortSignal) => {
    set(statusAtom, 'loading');
    set(state.conflictAtom, null);
    set(draftAtom, null);
    set(savedAtom, null);
    set(pristineAtom, null);
    const api = apiOf(get);
    const loaded = await api.load(id);
    if (signal?.aborted) return;
    const result = loaded.ok ? await withCriteria(api, loaded.data) : loaded;
    if (signal?.aborted) return;
    if (!result.ok) {
      set(statusAtom, 'notFound');
      if (result.status !== 404) refused(set, result);
      return;
    }
    adopt(state, set, result.data);
    set(statusAtom, 'ready');
  });
  loadAtom.debugLabel = name('load');

  /** A new item (id 'new' or 'project-{name}'): not saved yet, the defaults come with the first save. */
  const startNewAtom = atom(null, (get, set, initial: ContentItem) => {
    const started: ContentItem = { published: false, archived: false, weight: 5, ...initial };
    set(state.conflictAtom, null);
    set(savedAtom, null);
    set(draftAtom, started);
    set(pristineAtom, started);
    set(statusAtom, 'ready');
  });
  startNewAtom.debugLabel = name('startNew');

  const patchAtom = atom(null, (get, set, patch: Partial<ContentItem>) => {
    const draft = get(draftAtom);
    if (draft) set(draftAtom, { ...draft, ...patch });
    // A field the user changes no longer shows what the last refusal said of it.
    const errors = get(state.fieldErrorsAtom);
    // The article's criteria are its audience: changing them answers the audience's message.
    const changed = Object.keys(patch).flatMap((key) => (key === '_$criteria' ? [key, '_$audiences'] : [key]));
    const kept = Object.entries(errors).filter(([field]) => !changed.includes(field.split('.')[0]));
    if (kept.length !== Object.keys(errors).length) set(state.fieldErrorsAtom, Object.fromEntries(kept));
  });
  patchAtom.debugLabel = name('patch');

  /**
   * A change the server already stored (an upload, a story screen added or removed) applied to the saved version
   * too: the draft's same change then is no unsaved change (docs/content.md, unsaved changes).
   */
  const markStoredAtom = atom(null, (get, set, apply: (item: ContentItem) => ContentItem) => {
    const pristine = get(pristineAtom);
    if (pristine) set(pristineAtom, apply(pristine));
    const saved = get(savedAtom);
    if (!saved) return;
    const stored = apply(saved);
    set(savedAtom, stored);
    // The server's own write moved the item's version (docs/architecture.md, "Versions and conflicts"): the draft
    // is based on it now, or its next save would be refused as if someone else had changed the item.
    const draft = get(draftAtom);
    if (draft && stored.version !== saved.version) set(draftAtom, { ...draft, version: stored.version });
  });
  markStoredAtom.debugLabel = name('markStored');

  return { loadAtom, startNewAtom, patchAtom, markStoredAtom };
}

/**
 * No answer from the server (lib/offline.ts): the banner says so instead of an error, the local draft keeps the
 * values, and the save is sent again when it answers, if this editor still shows the same item then.
 */
function waitForServer(
  state: EditorState,
  saveAtom: WritableAtom<null, [SaveOptions?], Promise<ContentItem | null>>,
  get: Getter,
  set: Setter,
  draft: ContentItem,
  options: SaveOptions | undefined,
  kind: string,
) {
  if (options?.onOutcome) return options.onOutcome('unreachable');
  // A new item moves to its own route once created, which only the page's own save does: it is told once.
  if (draft.id === undefined) return set(raiseNoticeAtom, CONFLICT_NOTICES.offline);
  const run = async (store: AppStore): Promise<RetryOutcome> => {
    // Another item is open now: its own save is the user's; this one's values wait in its local draft.
    if (store.get(state.draftAtom)?.id !== draft.id) return 'saved';
    let outcome: RetryOutcome = 'refused';
    await store.set(saveAtom, { onOutcome: (answer) => (outcome = answer) });
    return outcome;
  };
  set(queueSaveAtom, { key: `${kind}:${draft.id}`, run });
}

/**
 * Taking an item offline never runs the checks for putting it online (§5): the unpublish goes first, from the saved
 * version, so an unsaved change the online checks would refuse (a non-expert audience) cannot keep it online; the
 * draft's unsaved changes are then saved on the offline item, their own refusal told as any save's.
 */
async function unpublishThenSave(
  state: EditorState,
  apiOf: ApiOf,
  saveAtom: WritableAtom<null, [SaveOptions?], Promise<ContentItem | null>>,
  get: Getter,
  set: Setter,
  request: PublishRequest,
): Promise<boolean> {
  const saved = get(state.savedAtom);
  const draft = get(state.draftAtom);
  if (!saved?.id || !draft) return false;
  const dirty = get(state.dirtyAtom);
  set(state.pendingAtom, true);
  let result: IpcResult<ContentItem>;
  try {
    result = await apiOf(get).publish(saved.id, { ...request, version: saved.version });
  } finally {
    set(state.pendingAtom, false);
  }
  if (!result.ok) {
    if (result.status === 0) set(raiseNoticeAtom, CONFLICT_NOTICES.offline);
    else if (!adoptConflict(state, get, set, result)) refusedAt(set, state.highlightFieldsAtom, result);
    return false;
  }
  adopt(state, set, result.data, get);
  set(raiseNoticeAtom, N.contentOffline);
  if (!dirty) return true;
  const { published, publishedAt, unpublishedAt, version, updatedAt } = result.data;
  set(state.draftAtom, { ...draft, published, publishedAt, unpublishedAt, version, updatedAt });
  await set(saveAtom, { quiet: true });
  return true;
}

/** Saving, publishing, converting and restoring: server calls that answer with the item the editor adopts. */
function createServerActions(state: EditorState, apiOf: ApiOf, name: (part: string) => string) {
  const { draftAtom, savedAtom, pendingAtom, highlightFieldsAtom } = state;

  /**
   * Saves the draft (§4): the §5 checks first (a 3 s warning, the fields highlighted 3 s); a new item is created,
   * an existing one updated (its audiences in the same call when they changed). Answers the saved item, or null.
   */
  const saveAtom = atom(null, async (get, set, options?: SaveOptions): Promise<ContentItem | null> => {
    const draft = get(draftAtom);
    if (!draft) return null;
    const api = apiOf(get);
    const check = saveChecks(draft, api.kind, get(savedAtom));
    if (check.messages.length) {
      set(raiseNoticeAtom, N.validation(check.messages));
      set(highlightFieldsAtom, check.fields, check.errors);
      return null;
    }
    set(pendingAtom, true);
    try {
      // An article's audience is its own criteria (written after the item), not attached saved audiences.
      const audienceIds = api.criteria ? [] : audienceIdsOf(draft);
      const written =
        draft.id === undefined
          ? await api.create(draft, audienceIds)
          : await api.update(draft.id, draft, api.criteria || sameIds(audienceIds, audienceIdsOf(get(savedAtom))) ? null : audienceIds);
      if (!written.ok) {
        if (written.status === 0) waitForServer(state, saveAtom, get, set, draft, options, apiOf(get).kind);
        else if (!adoptConflict(state, get, set, written)) refusedAt(set, highlightFieldsAtom, written);
        if (written.status !== 0) options?.onOutcome?.('refused');
        return null;
      }
      options?.onOutcome?.('saved');
      set(state.conflictAtom, null);
      const withNewCriteria = written.data.id !== undefined ? await saveCriteria(api, written.data.id, draft, get(savedAtom)) : null;
      if (withNewCriteria && !withNewCriteria.ok) {
        // The item is saved (created, maybe): keep it, with the criteria still to save in the draft.
        adopt(state, set, written.data, get);
        set(draftAtom, { ...written.data, _$criteria: draft._$criteria });
        refused(set, withNewCriteria);
        return null;
      }
      const result = withNewCriteria ?? written;
      adopt(state, set, result.data, get);
      // Saved before a publication, it says nothing: the publication's outcome is the one message (docs/content.md, field labels).
      if (!options?.quiet) set(raiseNoticeAtom, N.saved);
      return result.data;
    } finally {
      set(pendingAtom, false);
    }
  });
  saveAtom.debugLabel = name('save');

  /**
   * Publishing saves first, then sends the publish request (§4); answers true once done. `askDelayReason` (a late start)
   * is called once every check passed (required properties, save, publication checks): a reason is never chosen in vain.
   */
  const publishAtom = atom(null, async (get, set, publication: PublishRequest & { askDelayReason?: AskDelayReason }): Promise<boolean> => {
    const { askDelayReason, ...request } = publication;
    if (!request.publish && get(savedAtom)?.published) return unpublishThenSave(state, apiOf, saveAtom, get, set, request);
    // The properties its type needs (§5), named by their labels and marked at their fields, before anything is sent.
    const draft = get(draftAtom);
    const problems = request.publish && draft && apiOf(get).kind === 'advert' ? publishProblems(draft) : null;
    if (problems) {
      set(raiseNoticeAtom, problems.notice);
      set(highlightFieldsAtom, Object.keys(problems.errors), problems.errors);
      return false;
    }
    const saved = await set(saveAtom, { quiet: true });
    if (!saved?.id) return false;
    if (askDelayReason) {
      const problems = request.publish ? publicationProblems(apiOf(get).kind, saved) : null;
      if (problems) return (set(raiseNoticeAtom, N.serverError(problems)), false);
      const reason = await askDelayReason();
      if (!reason) return false;
      request.delayReason = reason;
    }
    set(pendingAtom, true);
    try {
      const result = await apiOf(get).publish(saved.id, { ...request, version: saved.version });
      if (!result.ok) {
        if (!adoptConflict(state, get, set, result)) refusedAt(set, highlightFieldsAtom, result);
        return false;
      }
      adopt(state, set, result.data, get);
      set(raiseNoticeAtom, result.data.published ? N.contentOnline : N.contentOffline);
      return true;
    } finally {
      set(pendingAtom, false);
    }
  });
  publishAtom.debugLabel = name('publish');

  /** Converts into the other kind (§4); answers the new item's id. */
  const convertAtom = atom(null, async (get, set): Promise<number | null> => {
    const draft = get(draftAtom);
    if (!draft?.id) return null;
    set(pendingAtom, true);
    try {
      const result = await apiOf(get).convert(draft.id);
      if (!result.ok) {
        refused(set, result);
        return null;
      }
      return result.data.id;
    } finally {
      set(pendingAtom, false);
    }
  });
  convertAtom.debugLabel = name('convert');

  /** Puts back a version of the history (server §7); the draft becomes the server's answer. */
  const restoreAtom = atom(null, async (get, set, entryId: number) => {
    const draft = get(draftAtom);
    const api = apiOf(get);
    if (!draft?.id || !api.restore) return;
    const result = await api.restore(draft.id, entryId);
    if (!result.ok) return refused(set, result);
    adopt(state, set, result.data, get);
    set(raiseNoticeAtom, N.saved);
  });
  restoreAtom.debugLabel = name('restore');

  /** The user's choice for one field both changed: theirs into the form, or theirs set aside for yours. */
  const resolveFieldAtom = atom(null, (get, set, choice: { field: string; take: 'mine' | 'theirs' }) => {
    const conflict = get(state.conflictAtom);
    const draft = get(draftAtom);
    if (!conflict || !draft) return;
    const decided = conflict.conflicts.find((item) => item.field === choice.field);
    if (decided && choice.take === 'theirs') set(draftAtom, { ...draft, [choice.field]: decided.theirs });
    set(state.conflictAtom, { ...conflict, conflicts: conflict.conflicts.filter((item) => item.field !== choice.field) });
  });
  resolveFieldAtom.debugLabel = name('resolveField');

  /** Their version whole: the user's unsaved values are dropped (they chose so). */
  const reloadTheirsAtom = atom(null, (get, set) => {
    const conflict = get(state.conflictAtom);
    if (!conflict) return;
    adopt(state, set, conflict.theirs, get);
    set(state.conflictAtom, null);
  });
  reloadTheirsAtom.debugLabel = name('reloadTheirs');

  return { saveAtom, publishAtom, convertAtom, restoreAtom, resolveFieldAtom, reloadTheirsAtom };
}

/**
 * The state of one editor (adverts-articles.md §2.2, §2.5, §4, §5): the draft being edited, the server's last
 * version, the page state, a pending flag for the spinner and the fields highlighted by the last failed save. Each
 * concern is its own atom; actions raise the spec's notices and answer what the page needs to navigate.
 */
export function createEditorAtoms(label: string, makeApi: (call: CallApi) => ContentApi) {
  const name = (part: string) => `${label}.${part}`;
  const state = createEditorState(name);
  const apiOf: ApiOf = (get) => makeApi(get(apiAtom));
  const { statusAtom, draftAtom, savedAtom, pendingAtom, highlightAtom, fieldErrorsAtom, dirtyAtom, conflictAtom, pristineAtom } = state;
  return {
    conflictAtom,
    pristineAtom,
    statusAtom,
    draftAtom,
    savedAtom,
    pendingAtom,
    highlightAtom,
    fieldErrorsAtom,
    dirtyAtom,
    ...createDraftActions(state, apiOf, name),
    ...createServerActions(state, apiOf, name),
    apiOf,
    refused,
  };
}

export type EditorAtoms = ReturnType<typeof createEditorAtoms>;

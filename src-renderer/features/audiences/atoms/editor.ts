import { atom, type Getter, type Setter } from 'jotai';
import type { Audience, RelationshipInput } from '@shared/contract/audiences';
import type { CsvImportReport } from '@shared/ipc';
import { AUDIENCE_NOTICES, withText } from '@shared/messages';
import { audienceFieldErrors, canSave, hasNode, keywordAllowed, type EditorRelationship } from '@shared/rules/audience-editor';
import { mergeChanges, type FieldConflict } from '@shared/rules/conflicts';
import type { IpcResult } from '@shared/ipc';
import type { Area, AudienceType, NodeLabel } from '@shared/rules/audiences';
import { apiAtom } from '../../../lib/bridge';
import { createLatestCall } from '../../../lib/latest-call';
import { raiseNoticeAtom } from '../../../lib/notices';
import { queueSaveAtom, type AppStore, type RetryOutcome } from '../../../lib/offline';
import { sameData } from '../../../lib/unsaved-changes';

/** What the editor holds: the audience as the user is changing it, saved or not (`id` null for 'new'). */
export interface AudienceDraft {
  id: number | null;
  name: string;
  type: AudienceType | null;
  area: Area;
  isInCatalog: boolean;
  /** Without the Area relationship: the area is its own field (docs/audiences.md rule 3). */
  relationships: EditorRelationship[];
  adverts: { id: number; name: string }[];
  /**
   * The server's version the draft is based on (docs/architecture.md, "Versions and conflicts"); null when a
   * change saved at once did not answer it (the next save then goes without a check rather than refuse itself).
   */
  version: number | null;
}

/** A save refused because someone else changed the audience: who and when, and the fields both changed. */
export interface AudienceConflict {
  message: string;
  conflicts: FieldConflict[];
  theirs: AudienceDraft;
}

export const audienceConflictAtom = atom<AudienceConflict | null>(null);
audienceConflictAtom.debugLabel = 'audiences.editor.conflict';

export type EditorNode = EditorRelationship['node'];

export const draftAtom = atom<AudienceDraft | null>(null);
draftAtom.debugLabel = 'audiences.editor.draft';

/**
 * The draft as the server holds it (last opened, saved, or as a new audience started): the draft differs from it
 * while changes are unsaved. Changes saved at once (area, a deleted group, an attached list) are applied to both.
 */
export const pristineAtom = atom<AudienceDraft | null>(null);
pristineAtom.debugLabel = 'audiences.editor.pristine';

/** Whether the draft holds unsaved changes (docs/content.md, unsaved changes: asked before leaving). */
export const dirtyAtom = atom((get) => {
  const draft = get(draftAtom);
  const pristine = get(pristineAtom);
  return draft !== null && pristine !== null && !sameData(draft, pristine);
});
dirtyAtom.debugLabel = 'audiences.editor.dirty';

/** The fields the last 'Sauvegarder' refused, each with its message (shown beside them while still wrong). */
export const audienceFieldErrorsAtom = atom<{ name?: string; type?: string }>({});
audienceFieldErrorsAtom.debugLabel = 'audiences.editor.fieldErrors';

/** Sets the draft and what is saved to the same value. */
const setSavedDraftAtom = atom(null, (_get, set, draft: AudienceDraft | null) => {
  set(draftAtom, draft);
  set(pristineAtom, draft);
  set(audienceFieldErrorsAtom, {});
});

/** Refuses, at the fields, an audience with no type or an emptied name (never saved nor renamed silently). */
const fieldsRefusedAtom = atom(null, (get, set): boolean => {
  const draft = get(draftAtom);
  const errors = draft ? audienceFieldErrors(draft) : {};
  set(audienceFieldErrorsAtom, errors);
  return Object.keys(errors).length > 0;
});
fieldsRefusedAtom.debugLabel = 'audiences.editor.fieldsRefused';
setSavedDraftAtom.debugLabel = 'audiences.editor.setSavedDraft';

/** Applies a change the server already made to both the draft and what is saved. */
const changeBothAtom = atom(null, (get, set, change: (draft: AudienceDraft) => AudienceDraft) => {
  const draft = get(draftAtom);
  const pristine = get(pristineAtom);
  if (draft) set(draftAtom, change(draft));
  if (pristine) set(pristineAtom, change(pristine));
});
changeBothAtom.debugLabel = 'audiences.editor.changeBoth';

/** 'missing': the address names no audience the editor can show (load failed, or 'new' not in memory). */
export const editorStatusAtom = atom<'idle' | 'loading' | 'ready' | 'missing'>('idle');
editorStatusAtom.debugLabel = 'audiences.editor.status';

/** A new audience started from the list's create menu, waiting for /audiences/new to open it. */
export const pendingNewAudienceAtom = atom<{ type: AudienceType } | null>(null);
pendingNewAudienceAtom.debugLabel = 'audiences.editor.pendingNew';

/** Only the latest open counts (lib/latest-call.ts): a late answer of an older open, or one after a close, is ignored. */
const openCall = createLatestCall('audiences.editor.openRequest', (get, id: number) => get(apiAtom)('audiences.get', { params: { id } }));

export const savingAtom = atom(false);
savingAtom.debugLabel = 'audiences.editor.saving';

/** The unsaved definition, as the size and membership calls take it. */
export const definitionAtom = atom((get) => {
  const draft = get(draftAtom);
  if (!draft) return null;
  return { area: draft.area, type: draft.type, relationships: draft.relationships.map(toInput) };
});
definitionAtom.debugLabel = 'audiences.editor.definition';

function toInput(relationship: EditorRelationship): RelationshipInput {
  return {
    node: { label: relationship.node.label, id: relationship.node.id },
    type: relationship.type,
    kind: relationship.kind,
    event: relationship.event,
    caping: relationship.caping === null || relationship.caping === '' ? null : Number(relationship.caping),
  };
}

function fromAudience(audience: Audience): AudienceDraft {
  return {
    id: audience.id,
    name: audience.name,
    type: audience.type,
    area: audience.area,
    isInCatalog: audience.isInCatalog,
    relationships: audience.relationships
      .filter((relationship) => relationship.node.label !== 'Area')
      .map((relationship) => ({
        node: relationship.node,
        type: relationship.type,
        kind: relationship.kind,
        event: relationship.event,
        caping: relationship.caping,
      })),
    adverts: audience.adverts,
    version: audience.version ?? null,
  };
}

const serverErrorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, errorMsg)));
serverErrorAtom.debugLabel = 'audiences.editor.serverError';

/** Opens /audiences/{id}: a saved audience from the server, or 'new' from the create menu. */
export const openAudienceAtom = atom(null, async (get, set, idParam: string) => {
  if (idParam === 'new') {
    const pending = get(pendingNewAudienceAtom);
    const current = get(draftAtom);
    if (current && current.id === null) return set(editorStatusAtom, 'ready');
    if (!pending) {
      // Spec §2: a new audience that is not in memory goes back to the list with a warning.
      set(raiseNoticeAtom, AUDIENCE_NOTICES.notSaved);
      set(draftAtom, null);
      return set(editorStatusAtom, 'missing');
    }
    // The pending audience stays until the list shows again: opening twice (React's strict mode) finds it still.
    set(setSavedDraftAtom, {
      id: null,
      name: '',
      type: pending.type,
      area: 'french',
      isInCatalog: false,
      relationships: [],
      adverts: [],
      version: null,
    });
    return set(editorStatusAtom, 'ready');
  }
  const id = Number(idParam);
  if (get(draftAtom)?.id === id) return set(editorStatusAtom, 'ready');
  set(editorStatusAtom, 'loading');
  set(draftAtom, null);
  const valid = Number.isInteger(id) && id > 0;
  if (!valid) set(openCall.cancelAtom);
  const result = valid ? await set(openCall.runAtom, id) : undefined;
  if (result === null) return; // overtaken by a newer open or a close
  if (!result?.ok) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.loadFailed);
    return set(editorStatusAtom, 'missing');
  }
  set(setSavedDraftAtom, fromAudience(result.data));
  set(editorStatusAtom, 'ready');
});
openAudienceAtom.debugLabel = 'audiences.editor.open';

export const closeAudienceAtom = atom(null, (_get, set) => {
  set(audienceConflictAtom, null);
  set(openCall.cancelAtom);
  set(setSavedDraftAtom, null);
  set(editorStatusAtom, 'idle');
});
closeAudienceAtom.debugLabel = 'audiences.editor.close';

const changeDraftAtom = atom(null, (get, set, change: (draft: AudienceDraft) => AudienceDraft) => {
  const draft = get(draftAtom);
  if (draft) set(draftAtom, change(draft));
});
changeDraftAtom.debugLabel = 'audiences.editor.change';

/** Creates the new audience on the server from the draft (spec §4: adding a relationship creates it first). */
const createFromDraftAtom = atom(null, async (get, set): Promise<number | null> => {
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

/**
 * Adds a criterion. Refused when the node is already there (spec §4) or is a keyword on a timeline audience
 * (an alert). On a new audience the audience is created first; answers its id then, so the screen moves to it.
 */
export const addNodeAtom = atom(null, async (get, set, node: EditorNode): Promise<{ createdId: number } | null> => {
  const draft = get(draftAtom);
  if (!draft) return null;
  if (hasNode(draft.relationships, node)) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.nodeAlreadyInGroup);
    return null;
  }
  if (node.label === 'Keyword' && !keywordAllowed(draft.type)) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.keywordOnTimeline);
    return null;
  }
  const searchKeyword = node.label === 'Keyword' && draft.type === 'search';
  const relationship: EditorRelationship = {
    node,
    type: searchKeyword ? 'SEARCH' : 'AND',
    kind: 'required',
    event: searchKeyword ? 'search' : null,
    caping: null,
  };
  set(draftAtom, { ...draft, relationships: [...draft.relationships, relationship] });
  if (draft.id !== null) return null;
  const id = await set(createFromDraftAtom);
  if (id === null) {
    set(changeDraftAtom, (current) => ({
      ...current,
      relationships: current.relationships.filter((r) => !(r.node.id === node.id && r.node.label === node.label)),
    }));
    return null;
  }
  set(raiseNoticeAtom, AUDIENCE_NOTICES.saved);
  return { createdId: id };
});
addNodeAtom.debugLabel = 'audiences.editor.addNode';

const sameNode = (relationship: EditorRelationship, node: { id: number; label: NodeLabel }) =>
  relationship.node.id === node.id && relationship.node.label === node.label;

export const updateRelationshipAtom = atom(
  null,
  (_get, set, node: { id: number; label: NodeLabel }, patch: Partial<Pick<EditorRelationship, 'kind' | 'event' | 'caping'>>) =>
    set(changeDraftAtom, (draft) => ({ ...draft, relationships: draft.relationships.map((r) => (sameNode(r, node) ? { ...r, ...patch } : r)) })),
);
updateRelationshipAtom.debugLabel = 'audiences.editor.updateRelationship';

/** Takes the criterion out of the audience (for a group: unlinks it, the group stays). */
export const removeRelationshipAtom = atom(null, (_get, set, node: { id: number; label: NodeLabel }) =>
  set(changeDraftAtom, (draft) => ({ ...draft, relationships: draft.relationships.filter((r) => !sameNode(r, node)) })),
);
removeRelationshipAtom.debugLabel = 'audiences.editor.removeRelationship';

/** Spec §4: a group relationship can be removed: the group itself is deleted, from every audience. */
export const deleteGroupNodeAtom = atom(null, async (get, set, node: { id: number; label: NodeLabel }) => {
  const result = await get(apiAtom)('graph.delete', { body: { nodes: [node.id], relationships: [] } });
  if (!result.ok) return set(serverErrorAtom, result.errorMsg);
  set(changeBothAtom, (draft) => ({ ...draft, relationships: draft.relationships.filter((r) => !sameNode(r, node)), version: null }));
  set(raiseNoticeAtom, AUDIENCE_NOTICES.saved);
});
deleteGroupNodeAtom.debugLabel = 'audiences.editor.deleteGroupNode';

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

/** Fields of the draft that are the server's bookkeeping: never a conflict. */
const AUDIENCE_SERVER_FIELDS = new Set(['id', 'adverts', 'version']);

/**
 * A save refused because someone else changed the audience (409; docs/architecture.md): their audience becomes
 * what is saved, the draft keeps the user's values with theirs where only they changed a field, and the fields
 * both changed wait for the user's choice. Answers false for another failure.
 */
function adoptAudienceConflict(get: Getter, set: Setter, result: IpcResult<unknown>): boolean {
  if (result.ok || result.status !== 409 || !result.conflict?.current) return false;
  const theirs = fromAudience(result.conflict.current as Audience);
  const mine = get(draftAtom);
  const base = get(pristineAtom);
  if (!mine || !base) return false;
  const { merged, conflicts } = mergeChanges(
    base as unknown as Record<string, unknown>,
    mine as unknown as Record<string, unknown>,
    theirs as unknown as Record<string, unknown>,
    AUDIENCE_SERVER_FIELDS,
  );
  set(pristineAtom, theirs);
  set(draftAtom, { ...(merged as unknown as AudienceDraft), version: theirs.version, adverts: theirs.adverts });
  set(audienceConflictAtom, { message: result.errorMsg, conflicts, theirs });
  return true;
}

/**
 * A resumed local draft (lib/local-drafts.ts): the typed fields come back with the version they were based on; the
 * id and the adverts stay the server's. A stale one also brings the audience as it was then, so its save's 409
 * merges against that: only what the user changed meets what others changed since.
 */
export const resumeAudienceDraftAtom = atom(null, (get, set, { values, base }: { values: AudienceDraft; base: AudienceDraft | null }) => {
  const current = get(draftAtom);
  const pristine = get(pristineAtom);
  if (!current || !pristine) return;
  set(draftAtom, { ...values, id: current.id, adverts: current.adverts });
  if (base && base.version !== pristine.version) set(pristineAtom, { ...base, id: pristine.id, adverts: pristine.adverts });
});
resumeAudienceDraftAtom.debugLabel = 'audiences.editor.resumeDraft';

/** The user's choice for one field both changed. */
export const resolveAudienceFieldAtom = atom(null, (get, set, choice: { field: string; take: 'mine' | 'theirs' }) => {
  const conflict = get(audienceConflictAtom);
  const draft = get(draftAtom);
  if (!conflict || !draft) return;
  const decided = conflict.conflicts.find((item) => item.field === choice.field);
  if (decided && choice.take === 'theirs') set(draftAtom, { ...draft, [choice.field]: decided.theirs });
  set(audienceConflictAtom, { ...conflict, conflicts: conflict.conflicts.filter((item) => item.field !== choice.field) });
});
resolveAudienceFieldAtom.debugLabel = 'audiences.editor.resolveField';

/** Their audience whole: the user chose to drop their unsaved values. */
export const reloadTheirAudienceAtom = atom(null, (get, set) => {
  const conflict = get(audienceConflictAtom);
  if (!conflict) return;
  set(setSavedDraftAtom, conflict.theirs);
  set(audienceConflictAtom, null);
});
reloadTheirAudienceAtom.debugLabel = 'audiences.editor.reloadTheirs';

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

/**
 * A new OrGroup / AndGroup ("add new group"), added to the audience at once. On a saved audience the link is
 * saved with the group (docs/audiences.md: a group kept only in the draft was lost, and left orphan, as soon as the
 * user followed its link); a new audience is created with it (addNode). The draft's other changes stay unsaved.
 */
export const createGroupAtom = atom(null, async (get, set, group: { name: string; label: 'OrGroup' | 'AndGroup' }) => {
  const api = get(apiAtom);
  const result = await api('groups.create', { body: { name: group.name.trim(), label: group.label, relationships: [] } });
  if (!result.ok) {
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  const node: EditorNode = { id: result.data.id, label: result.data.label, name: result.data.name };
  const audienceId = get(draftAtom)?.id ?? null;
  if (audienceId === null) return set(addNodeAtom, node);
  const relationship: EditorRelationship = { node, type: 'AND', kind: 'required', event: null, caping: null };
  const linked = await api('relationships.create', { body: { source: audienceId, ...toInput(relationship) } });
  if (!linked.ok) {
    // Not linked: the group would stay alone in /groupes.
    await api('graph.delete', { body: { nodes: [node.id], relationships: [] } });
    set(serverErrorAtom, linked.errorMsg);
    return null;
  }
  if (get(draftAtom)?.id !== audienceId) return null;
  set(changeBothAtom, (draft) =>
    hasNode(draft.relationships, node)
      ? { ...draft, version: null }
      : { ...draft, relationships: [...draft.relationships, relationship], version: null },
  );
  set(raiseNoticeAtom, AUDIENCE_NOTICES.saved);
  return null;
});
createGroupAtom.debugLabel = 'audiences.editor.createGroup';

/** The new keyword modal: the Keyword node of the text (trimmed and lowercased by the server), then added. */
export const addKeywordAtom = atom(null, async (get, set, text: string) => {
  if (!keywordAllowed(get(draftAtom)?.type)) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.keywordOnTimeline);
    return null;
  }
  const result = await get(apiAtom)('nodes.keyword', { body: { name: text } });
  if (!result.ok) {
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  return set(addNodeAtom, result.data);
});
addKeywordAtom.debugLabel = 'audiences.editor.addKeyword';

/**
 * After an e-mail list was attached on the server, the User relationships it added join the draft (other
 * unsaved changes stay). Answers how many were added.
 */
export const mergeAttachedUsersAtom = atom(null, async (get, set, id: number): Promise<number | null> => {
  const result = await get(apiAtom)('audiences.get', { params: { id } });
  if (!result.ok) {
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  const draft = get(draftAtom);
  if (!draft) return null;
  const attached = fromAudience(result.data).relationships.filter((r) => r.node.label === 'User');
  const added = attached.filter((r) => !hasNode(draft.relationships, r.node));
  const version = result.data.version ?? null;
  set(draftAtom, { ...draft, relationships: [...draft.relationships, ...added], version });
  // They are saved: what is saved gets them too (the draft's other changes stay unsaved).
  const pristine = get(pristineAtom);
  if (pristine)
    set(pristineAtom, {
      ...pristine,
      version,
      relationships: [...pristine.relationships, ...attached.filter((r) => !hasNode(pristine.relationships, r.node))],
    });
  return added.length;
});
mergeAttachedUsersAtom.debugLabel = 'audiences.editor.mergeAttachedUsers';

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

import { atom, type Getter, type Setter } from 'jotai';
import type { LabProject } from '@shared/contract/laboratory';
import type { IpcResult } from '@shared/ipc';
import { LAB_MESSAGES, LAB_NOTICES } from '@shared/messages/laboratory';
import { withText } from '@shared/messages';
import { mergeChanges } from '@shared/rules/conflicts';
import { toBase64 } from '@shared/rules/laboratory';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { queueSaveAtom, type AppStore, type RetryOutcome } from '../../lib/offline';
import {
  draftOf,
  labBasedOnAtom,
  labConflictAtom,
  labDirtyAtom,
  labProjectAtom,
  showProjectAtom,
  tagDraftsAtom,
  type LabFieldConflict,
  type TagDraft,
} from './atoms';

/**
 * The writes of a project's page (docs/laboratory.md, "Two people on one project"): Save and a tag's delete send
 * the versions they were based on; a 409 keeps every tag typed and shows the fields both people changed
 * (ui/ConflictPanel); no answer from the server keeps them too and sends them again (lib/offline.ts).
 */

/** What a tag field is called in the conflict view (the labels of the tag modal). */
const TAG_FIELDS = {
  name: LAB_MESSAGES.tagName,
  type: LAB_MESSAGES.tagType,
  level: LAB_MESSAGES.tagLevel,
  content: LAB_MESSAGES.tagContent,
  linkTitle: LAB_MESSAGES.tagLinkTitle,
  link: LAB_MESSAGES.tagLink,
  query: LAB_MESSAGES.tagQuery,
  params: LAB_MESSAGES.tagParams,
} as const;
type TagField = keyof typeof TAG_FIELDS;

/** The tags on the server as flat fields (`12.name`), what the shared merge compares. */
function flatten(tags: TagDraft[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const tag of tags) {
    if (tag.id === undefined) continue;
    for (const field of Object.keys(TAG_FIELDS) as TagField[]) fields[`${tag.id}.${field}`] = tag[field];
  }
  return fields;
}

/**
 * My tags merged with theirs: a field only they changed takes theirs, one only I changed keeps mine (the shared
 * mergeChanges); a tag they added comes in; a tag of mine they deleted stays, as a new one for Save to write again.
 */
function mergeTags(base: TagDraft[], mine: TagDraft[], theirs: TagDraft[]) {
  const { merged, conflicts } = mergeChanges(flatten(base), flatten(mine), flatten(theirs));
  const theirById = new Map(theirs.map((tag) => [tag.id, tag]));
  const mineIds = new Set(mine.map((tag) => tag.id));
  const baseIds = new Set(base.map((tag) => tag.id));
  const tags = mine.map((tag): TagDraft => {
    const their = tag.id === undefined ? undefined : theirById.get(tag.id);
    if (tag.id !== undefined && !their) return { ...tag, id: undefined, version: undefined };
    if (!their) return tag;
    const next: TagDraft = { ...tag, version: their.version };
    for (const field of Object.keys(TAG_FIELDS) as TagField[]) (next as unknown as Record<string, unknown>)[field] = merged[`${tag.id}.${field}`];
    // Their query kept: their count with it.
    return next.query === their.query && next.params === their.params ? { ...next, usersCount: their.usersCount } : next;
  });
  for (const tag of theirs) if (!mineIds.has(tag.id) && !baseIds.has(tag.id)) tags.push(tag);
  const named = conflicts.map((conflict): LabFieldConflict => {
    const [id, field] = conflict.field.split('.');
    const tag = mine.find((item) => String(item.id) === id);
    return { ...conflict, label: `${tag?.name || '—'} · ${TAG_FIELDS[field as TagField]}` };
  });
  return { tags, conflicts: named };
}

/** A 409 of the page (project or tag version): their project becomes the base, my tags stay merged with theirs. */
function adoptConflict(get: Getter, set: Setter, shown: LabProject, result: IpcResult<unknown>): boolean {
  if (result.ok || result.status !== 409 || !result.conflict?.current) return false;
  const theirs = result.conflict.current as LabProject;
  const { tags, conflicts } = mergeTags(shown.tags.map(draftOf), get(tagDraftsAtom), theirs.tags.map(draftOf));
  set(labProjectAtom, theirs);
  set(tagDraftsAtom, tags);
  set(labBasedOnAtom, theirs.version);
  set(labDirtyAtom, true);
  set(labConflictAtom, { message: result.errorMsg, conflicts });
  return true;
}

/** The user's choice for a field both changed: mine stays as typed; theirs is put in the tag. */
export const resolveLabFieldAtom = atom(null, (get, set, choice: { field: string; take: 'mine' | 'theirs' }) => {
  const conflict = get(labConflictAtom);
  if (!conflict) return;
  const decided = conflict.conflicts.find((item) => item.field === choice.field);
  if (decided && choice.take === 'theirs') {
    const [id, field] = decided.field.split('.');
    set(
      tagDraftsAtom,
      get(tagDraftsAtom).map((tag) => (String(tag.id) === id ? { ...tag, [field]: decided.theirs } : tag)),
    );
  }
  set(labConflictAtom, { ...conflict, conflicts: conflict.conflicts.filter((item) => item.field !== choice.field) });
});
resolveLabFieldAtom.debugLabel = 'laboratory.resolveField';

/** Their project whole: the user chose to drop their unsaved tags. */
export const reloadTheirLabProjectAtom = atom(null, (get, set) => {
  const project = get(labProjectAtom);
  if (project) set(showProjectAtom, project);
  set(labConflictAtom, null);
});
reloadTheirLabProjectAtom.debugLabel = 'laboratory.reloadTheirs';

/** A retry of lib/offline.ts, told how it went (and never queued again). */
type RetryOptions = { onOutcome: (outcome: RetryOutcome) => void };

/** Queues a write the server did not answer; it runs again (in order) once the server answers. */
function waitForServer(set: Setter, key: string, run: (store: AppStore, retry: RetryOptions) => Promise<unknown>) {
  set(queueSaveAtom, {
    key,
    run: async (store) => {
      let outcome: RetryOutcome = 'refused';
      await run(store, { onOutcome: (answer) => (outcome = answer) });
      return outcome;
    },
  });
}

/**
 * The saved project on the page: the tags as saved, unless the user changed some while the save was under way
 * (a retry after the server came back): those stay, based on the versions just saved.
 */
function showSaved(get: Getter, set: Setter, saved: LabProject, sent: TagDraft[], before: LabProject) {
  const now = get(tagDraftsAtom);
  if (now === sent) return set(showProjectAtom, saved);
  const known = new Set([...before.tags.map((tag) => tag.id), ...sent.map((tag) => tag.id)]);
  const inserted = saved.tags.filter((tag) => !known.has(tag.id));
  const sentKeys = new Set(sent.filter((tag) => tag.id === undefined).map((tag) => tag.key));
  const savedById = new Map(saved.tags.map((tag) => [tag.id, tag]));
  set(labProjectAtom, saved);
  set(labBasedOnAtom, saved.version);
  set(
    tagDraftsAtom,
    now.map((tag) => {
      if (tag.id === undefined && sentKeys.has(tag.key)) {
        const created = inserted.shift();
        return created ? { ...tag, id: created.id, version: created.version } : tag;
      }
      return tag.id !== undefined && savedById.has(tag.id) ? { ...tag, version: savedById.get(tag.id)?.version } : tag;
    }),
  );
}

/**
 * Save: PUT /alphonse/project/{id} with every tag, query and params base64-encoded (spec §7), the project's version
 * and each tag's; counts come back. Refused for a version, the conflict view (never 'Projet enregistré').
 */
export const saveLabProjectAtom = atom(null, async (get, set, retry?: RetryOptions) => {
  const project = get(labProjectAtom);
  if (!project) return;
  const sent = get(tagDraftsAtom);
  const tags = sent.map(({ key: _key, usersCount: _count, query, params, ...tag }) => ({
    ...tag,
    query: toBase64(query),
    params: toBase64(params),
  }));
  const basedOn = get(labBasedOnAtom);
  const version = basedOn !== null ? { version: basedOn } : {};
  const result = await get(apiAtom)('laboratory.update', { params: { id: project.id }, body: { tags, ...version } });
  if (!result.ok) {
    retry?.onOutcome(result.status === 0 ? 'unreachable' : 'refused');
    if (result.status === 0) {
      if (!retry) waitForServer(set, `labProject:${project.id}`, (store, again) => retrySave(store, project.id, again));
      return;
    }
    if (adoptConflict(get, set, project, result)) return;
    return set(raiseNoticeAtom, withText(LAB_NOTICES.failed, result.errorMsg));
  }
  retry?.onOutcome('saved');
  set(labConflictAtom, null);
  showSaved(get, set, result.data, sent, project);
  set(raiseNoticeAtom, LAB_NOTICES.projectSaved);
});
saveLabProjectAtom.debugLabel = 'laboratory.save';

/** The queued Save, with the tags as they are then; nothing left to send once another project is open or all is saved. */
async function retrySave(store: AppStore, id: number, retry: RetryOptions) {
  if (store.get(labProjectAtom)?.id !== id || !store.get(labDirtyAtom)) return retry.onOutcome('saved');
  await store.set(saveLabProjectAtom, retry);
}

const dropDraft = (get: Getter, set: Setter, draft: TagDraft) =>
  set(
    tagDraftsAtom,
    get(tagDraftsAtom).filter((tag) => tag.key !== draft.key),
  );

/**
 * DELETE …/tag with the tag's version, then the tag leaves the drafts. A stale version: the conflict view; no
 * answer: the tag leaves the page and its delete is sent again; another refusal: 'Une erreur est survenue'.
 */
const removeTagAtom = atom(null, async (get, set, { draft, retry }: { draft: TagDraft; retry?: RetryOptions }): Promise<boolean> => {
  const project = get(labProjectAtom);
  if (!project) return false;
  if (draft.id === undefined) {
    dropDraft(get, set, draft);
    return true;
  }
  const version = draft.version === undefined ? {} : { version: draft.version };
  const result = await get(apiAtom)('laboratory.deleteTag', { params: { projectId: project.id }, body: { tagId: draft.id, ...version } });
  if (!result.ok) {
    retry?.onOutcome(result.status === 0 ? 'unreachable' : 'refused');
    if (result.status === 0) {
      dropDraft(get, set, draft);
      if (!retry) waitForServer(set, `labTag:${draft.id}:delete`, (store, again) => store.set(removeTagAtom, { draft, retry: again }));
      return false;
    }
    if (!adoptConflict(get, set, project, result)) set(raiseNoticeAtom, LAB_NOTICES.failed);
    return false;
  }
  retry?.onOutcome('saved');
  dropDraft(get, set, draft);
  const current = get(labProjectAtom);
  if (current) set(labProjectAtom, { ...current, tags: current.tags.filter((tag) => tag.id !== draft.id) });
  return true;
});
removeTagAtom.debugLabel = 'laboratory.removeTag';

/** DELETE …/tag: 'Tag supprimé', or 'Une erreur est survenue' (spec §8). */
export const deleteTagAtom = atom(null, async (_get, set, draft: TagDraft) => {
  if (await set(removeTagAtom, { draft })) set(raiseNoticeAtom, LAB_NOTICES.tagDeleted);
});
deleteTagAtom.debugLabel = 'laboratory.deleteTag';

/**
 * 'Ajouter un tag' creates the tag on the server for its dialog; 'Annuler' on that dialog takes it away again,
 * without a word (nothing the user made is lost): a nameless, query-less tag is never left behind.
 */
export const discardNewTagAtom = atom(null, async (_get, set, draft: TagDraft) => {
  await set(removeTagAtom, { draft });
});
discardNewTagAtom.debugLabel = 'laboratory.discardNewTag';

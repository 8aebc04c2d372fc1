import { atom, type Getter, type Setter } from 'jotai';
import type { LabAccount, LabProject, LabProjectListItem, Tag } from '@shared/contract/laboratory';
import { LAB_MESSAGES, LAB_NOTICES } from '@shared/messages/laboratory';
import { withText } from '@shared/messages';
import { CONFLICT_NOTICES } from '@shared/messages/conflicts';
import { labWriters } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import type { FieldConflict } from '@shared/rules/conflicts';
import { LAB_ACCOUNT_SEARCH_MIN_LENGTH, toBase64, type TagType } from '@shared/rules/laboratory';
import { apiAtom } from '../../lib/bridge';
import { createLatestCall } from '../../lib/latest-call';
import { raiseNoticeAtom } from '../../lib/notices';
import { rolesAtom } from '../../lib/session';
import { uploadFileAtom } from '../../lib/uploads';

/** SALES and ADMIN write laboratory projects; an account granted on a project only reads it (README). */
export const canWriteLabAtom = atom((get) => isAllowed(labWriters, get(rolesAtom)));
canWriteLabAtom.debugLabel = 'laboratory.canWrite';

// ---- The list (/alphonse) ----

export const labProjectsAtom = atom<LabProjectListItem[]>([]);
labProjectsAtom.debugLabel = 'laboratory.projects';
export const labProjectsLoadingAtom = atom(false);
labProjectsLoadingAtom.debugLabel = 'laboratory.projectsLoading';

/** Reads the list; a read the page's query replaced (a newer poll, the page left) writes nothing. */
export const loadLabProjectsAtom = atom(null, async (get, set, signal?: AbortSignal) => {
  set(labProjectsLoadingAtom, true);
  const result = await get(apiAtom)('laboratory.list', { body: {} });
  set(labProjectsLoadingAtom, false);
  if (signal?.aborted) return;
  if (!result.ok) return set(raiseNoticeAtom, withText(LAB_NOTICES.createFailed, result.errorMsg));
  set(labProjectsAtom, result.data);
});
loadLabProjectsAtom.debugLabel = 'laboratory.loadProjects';

/**
 * Panel loads the server's stop cut (no answer: a crash, a restart) in this window: nothing of them is kept (the
 * server removes their pending project, docs/laboratory.md), the list says so at once and offers to load again.
 */
export interface InterruptedLoad {
  projectName: string;
  specialtyId: number;
}
export const interruptedLoadsAtom = atom<InterruptedLoad[]>([]);
interruptedLoadsAtom.debugLabel = 'laboratory.interruptedLoads';

/**
 * The new-project modal's create: main picks the panel file and streams it with its progress (lib/uploads); the
 * list shows the project pending meanwhile once reloaded. 'Missing columns : …' lasts 4 s, other failures 3.5 s.
 */
export const createLabProjectAtom = atom(null, async (get, set, fields: { projectName: string; specialtyId: number }): Promise<boolean> => {
  set(interruptedLoadsAtom, (loads) => loads.filter((load) => load.projectName !== fields.projectName));
  const running = set(uploadFileAtom, {
    operation: 'laboratory.create',
    fields: { projectName: fields.projectName, specialtyId: String(fields.specialtyId) },
    label: fields.projectName,
  });
  const result = await running;
  if (!result.ok && result.status === 0) {
    set(interruptedLoadsAtom, (loads) => [...loads, fields]);
    set(raiseNoticeAtom, LAB_NOTICES.loadInterrupted(fields.projectName));
    return false;
  }
  if (!result.ok) {
    const missing = result.errorMsg.startsWith(LAB_MESSAGES.missingColumns([]).trimEnd());
    set(raiseNoticeAtom, withText(missing ? LAB_NOTICES.missingColumns : LAB_NOTICES.createFailed, result.errorMsg));
    await set(loadLabProjectsAtom);
    return false;
  }
  if (!result.data) return false;
  const created = result.data.answer as LabProjectListItem;
  set(raiseNoticeAtom, LAB_NOTICES.created(created.name, created.usersCount, created.matchedCount));
  await set(loadLabProjectsAtom);
  return true;
});
createLabProjectAtom.debugLabel = 'laboratory.create';

export const deleteLabProjectAtom = atom(null, async (get, set, project: { id: number; name: string }) => {
  const result = await get(apiAtom)('laboratory.delete', { params: { id: project.id }, body: { name: project.name } });
  if (!result.ok) return set(raiseNoticeAtom, withText(LAB_NOTICES.deleteFailed, result.errorMsg));
  set(raiseNoticeAtom, withText(LAB_NOTICES.deleted, LAB_MESSAGES.deleted(project.name)));
  set(
    labProjectsAtom,
    get(labProjectsAtom).filter((row) => row.id !== project.id),
  );
});
deleteLabProjectAtom.debugLabel = 'laboratory.delete';

// ---- A project (/alphonse/project/{id}) ----

/** A tag as the page edits it: query and params as text (base64 only on the wire); `key` tells rows apart. */
export interface TagDraft {
  key: string;
  id?: number;
  name: string;
  type: Tag['type'];
  level: Tag['level'];
  content: string;
  linkTitle: string;
  link: string;
  query: string;
  params: string;
  usersCount: number;
  /** The tag's version this draft is based on (absent for a tag not on the server yet). */
  version?: number;
}

export const labProjectAtom = atom<LabProject | null>(null);
labProjectAtom.debugLabel = 'laboratory.project';
export const tagDraftsAtom = atom<TagDraft[]>([]);
tagDraftsAtom.debugLabel = 'laboratory.tagDrafts';
export const labDirtyAtom = atom(false);
labDirtyAtom.debugLabel = 'laboratory.dirty';
/**
 * The project's version the page's tags are based on (docs/architecture.md, "Versions and conflicts"): the loaded
 * or saved one, or an older one when a local draft written before a later change is resumed.
 */
export const labBasedOnAtom = atom<number | null>(null);
labBasedOnAtom.debugLabel = 'laboratory.basedOn';
/** One field of a refused save both people changed: `{tagId}.{field}`, named by the tag and the field. */
export interface LabFieldConflict extends FieldConflict {
  label: string;
}

/** A Save or tag delete refused for a version (save.ts): who and when, and the fields both people changed. */
export const labConflictAtom = atom<{ message: string; conflicts: LabFieldConflict[] } | null>(null);
labConflictAtom.debugLabel = 'laboratory.conflict';

export const labProjectErrorAtom = atom<string | null>(null);
labProjectErrorAtom.debugLabel = 'laboratory.projectError';

const decode = (text: string) => {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
  } catch {
    return '';
  }
};

export const draftOf = ({ projectId: _projectId, ...tag }: Tag): TagDraft => ({
  ...tag,
  key: `tag-${tag.id}`,
  query: decode(tag.query),
  params: decode(tag.params),
});

export const showProjectAtom = atom(null, (_get, set, project: LabProject) => {
  set(labProjectAtom, project);
  set(tagDraftsAtom, project.tags.map(draftOf));
  set(labDirtyAtom, false);
  set(labBasedOnAtom, project.version);
  set(labConflictAtom, null);
});
showProjectAtom.debugLabel = 'laboratory.showProject';

/** What a local draft of the page keeps (lib/local-drafts.ts): the tags, and the version they are based on. */
export interface LabDraftValues {
  tags: TagDraft[];
  version: number | null;
}

/** The tags as the server holds them: the page's tags differ from these while changes are unsaved. */
export const savedLabValuesAtom = atom((get): LabDraftValues | null => {
  const project = get(labProjectAtom);
  return project ? { tags: project.tags.map(draftOf), version: project.version } : null;
});
savedLabValuesAtom.debugLabel = 'laboratory.savedValues';

export const labValuesAtom = atom((get): LabDraftValues => ({ tags: get(tagDraftsAtom), version: get(labBasedOnAtom) }));
labValuesAtom.debugLabel = 'laboratory.values';

/** A resumed local draft: its tags on the page, to be saved with Save on the version they were typed on. */
export const resumeTagDraftsAtom = atom(null, (_get, set, values: LabDraftValues) => {
  set(tagDraftsAtom, values.tags);
  set(labBasedOnAtom, values.version);
  set(labDirtyAtom, true);
});
resumeTagDraftsAtom.debugLabel = 'laboratory.resumeTagDrafts';

/** Reads a project; a read the page's query replaced (another project opened, the page left) writes nothing. */
export const loadLabProjectAtom = atom(null, async (get, set, id: number, signal?: AbortSignal) => {
  set(labProjectErrorAtom, null);
  const result = await get(apiAtom)('laboratory.get', { params: { id } });
  if (signal?.aborted) return;
  if (!result.ok) {
    set(labProjectAtom, null);
    return set(labProjectErrorAtom, result.errorMsg);
  }
  set(showProjectAtom, result.data);
});
loadLabProjectAtom.debugLabel = 'laboratory.loadProject';

let offlineTags = 0;

/**
 * 'Ajouter un tag' with the server out of reach: the tag exists on the page only (no id), the banner's notice says
 * why, and Save writes it as a new tag once the server answers (docs/laboratory.md).
 */
function addOfflineTag(get: Getter, set: Setter, type: TagType): TagDraft {
  offlineTags += 1;
  const draft: TagDraft = {
    key: `offline-${offlineTags}`,
    name: '',
    type,
    level: 'UNDERSTAND',
    content: '',
    linkTitle: '',
    link: '',
    query: '',
    params: '',
    usersCount: 0,
  };
  set(tagDraftsAtom, [...get(tagDraftsAtom), draft]);
  set(labDirtyAtom, true);
  set(raiseNoticeAtom, CONFLICT_NOTICES.offline);
  return draft;
}

/** POST …/tag with its type: the new tag comes back with its count and opens in the modal. */
export const addTagAtom = atom(null, async (get, set, type: TagType): Promise<TagDraft | null> => {
  const project = get(labProjectAtom);
  if (!project) return null;
  const result = await get(apiAtom)('laboratory.addTag', { params: { projectId: project.id }, body: { projectId: project.id, type } });
  if (!result.ok && result.status === 0) return addOfflineTag(get, set, type);
  if (!result.ok) {
    set(raiseNoticeAtom, withText(LAB_NOTICES.failed, result.errorMsg));
    return null;
  }
  const draft = draftOf(result.data);
  set(tagDraftsAtom, [...get(tagDraftsAtom), draft]);
  // Created on the server: saved as it is, so only what is typed into it next is unsaved.
  set(labProjectAtom, { ...project, tags: [...project.tags, result.data] });
  return draft;
});
addTagAtom.debugLabel = 'laboratory.addTag';

export const changeTagAtom = atom(null, (get, set, draft: TagDraft) => {
  set(
    tagDraftsAtom,
    get(tagDraftsAtom).map((tag) => (tag.key === draft.key ? draft : tag)),
  );
  set(labDirtyAtom, true);
});
changeTagAtom.debugLabel = 'laboratory.changeTag';

/** The tag modal's live count: only the latest answer counts. */
const countCall = createLatestCall('laboratory.count', (get, input: { projectId: number; query: string; params: string }) =>
  get(apiAtom)('laboratory.countTag', {
    params: { projectId: input.projectId },
    body: { query: toBase64(input.query), params: toBase64(input.params) },
  }),
);
export const countTagAtom = atom(null, async (get, set, input: { query: string; params: string }) => {
  const project = get(labProjectAtom);
  if (!project) return null;
  return set(countCall.runAtom, { projectId: project.id, ...input });
});
countTagAtom.debugLabel = 'laboratory.countTag';

// ---- Access ----

export const accountTermAtom = atom('');
accountTermAtom.debugLabel = 'laboratory.accountTerm';
export const accountResultsAtom = atom<LabAccount[]>([]);
accountResultsAtom.debugLabel = 'laboratory.accountResults';

/**
 * POST /alphonse/account/search from 3 characters (spec §5); failures are 3.5 s toasts (spec §8). Started by the
 * Access tab's query (lib/use-query.ts), whose signal tells a search a newer one replaced: it then writes nothing.
 */
export const searchLabAccountsAtom = atom(null, async (get, set, signal: AbortSignal) => {
  const term = get(accountTermAtom).trim();
  const project = get(labProjectAtom);
  if (!project || term.length < LAB_ACCOUNT_SEARCH_MIN_LENGTH) return set(accountResultsAtom, []);
  const result = await get(apiAtom)('laboratory.searchAccounts', { body: { term, projectId: project.id } });
  if (signal.aborted) return;
  if (!result.ok) return set(raiseNoticeAtom, withText(LAB_NOTICES.accountSearchFailed, result.errorMsg));
  set(accountResultsAtom, result.data);
});
searchLabAccountsAtom.debugLabel = 'laboratory.searchAccounts';

function setAccounts(set: (atom: typeof labProjectAtom, value: LabProject) => void, project: LabProject, userAccounts: LabAccount[]) {
  set(labProjectAtom, { ...project, userAccounts });
}

/** PUT /alphonse/accounts with the list plus the account picked: 'Enregistré'. */
export const addLabAccountAtom = atom(null, async (get, set, account: LabAccount) => {
  const project = get(labProjectAtom);
  if (!project) return;
  const userAccounts = [...project.userAccounts, account];
  const result = await get(apiAtom)('laboratory.setAccounts', { body: { projectId: project.id, userAccounts } });
  if (!result.ok) return set(raiseNoticeAtom, LAB_NOTICES.failed);
  setAccounts(set, project, result.data);
  set(accountTermAtom, '');
  set(accountResultsAtom, []);
  set(raiseNoticeAtom, LAB_NOTICES.saved);
});
addLabAccountAtom.debugLabel = 'laboratory.addAccount';

export const removeLabAccountAtom = atom(null, async (get, set, account: LabAccount) => {
  const project = get(labProjectAtom);
  if (!project) return;
  const result = await get(apiAtom)('laboratory.removeAccount', { body: { projectId: project.id, accountId: account.id } });
  if (!result.ok) return set(raiseNoticeAtom, LAB_NOTICES.failed);
  setAccounts(
    set,
    project,
    project.userAccounts.filter((row) => row.id !== account.id),
  );
  set(raiseNoticeAtom, LAB_NOTICES.saved);
});
removeLabAccountAtom.debugLabel = 'laboratory.removeAccount';

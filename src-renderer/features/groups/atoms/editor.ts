import { atom, type Getter, type Setter } from 'jotai';
import type { Group } from '@shared/contract/audiences/groups';
import type { AudienceNode } from '@shared/contract/audiences/shared';
import { GROUP_MESSAGES, GROUP_NOTICES, withText } from '@shared/messages';
import type { IpcResult } from '@shared/ipc';
import type { GroupLabel, NodeLabel } from '@shared/rules/audiences';
import { mergeChanges, type FieldConflict } from '@shared/rules/conflicts';
import { addMembers, groupSearchLimit, orderForGroupPage, preselectedResults } from '@shared/rules/groups';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { queueSaveAtom, type AppStore, type RetryOutcome } from '../../../lib/offline';

/** A member as the editor holds it: the node, and how the group uses it (kept as the server answered). */
export interface GroupMember {
  node: AudienceNode;
  type: 'AND' | 'SEARCH' | 'SHOULD_TARGET';
  kind: 'required' | 'not';
  event: Group['relationships'][number]['event'];
  caping: string | null;
}

const toMember = (relationship: Group['relationships'][number]): GroupMember => ({
  node: relationship.node,
  type: relationship.type,
  kind: relationship.kind,
  event: relationship.event,
  caping: relationship.caping,
});

/** The group as last loaded or saved (null while loading or when it could not be loaded). */
export const groupAtom = atom<Group | null>(null);
groupAtom.debugLabel = 'groups.editor.group';

export const groupLoadFailedAtom = atom(false);
groupLoadFailedAtom.debugLabel = 'groups.editor.loadFailed';

export const groupNameAtom = atom('');
groupNameAtom.debugLabel = 'groups.editor.name';

/** The message shown at the name field (an empty name, or the server's refusal of the name); null when none. */
export const groupNameErrorAtom = atom<string | null>(null);
groupNameErrorAtom.debugLabel = 'groups.editor.nameError';

export const groupMembersAtom = atom<GroupMember[]>([]);
groupMembersAtom.debugLabel = 'groups.editor.members';

/**
 * The group's version the form is based on (docs/architecture.md, "Versions and conflicts"): the loaded or saved
 * group's, or an older one when a local draft written before a later change is resumed (its save then meets 409).
 */
export const groupBasedOnAtom = atom<number | undefined>(undefined);
groupBasedOnAtom.debugLabel = 'groups.editor.basedOn';

/** A resumed stale draft's base (the group as it was typed on): what its save's 409 merges against. */
const groupResumedBaseAtom = atom<{ name: string; members: GroupMember[] } | null>(null);
groupResumedBaseAtom.debugLabel = 'groups.editor.resumedBase';

export const groupSavingAtom = atom(false);
groupSavingAtom.debugLabel = 'groups.editor.saving';

/** Whether the name or the members differ from the saved group. */
export const groupDirtyAtom = atom((get) => {
  const group = get(groupAtom);
  if (!group) return false;
  const members = get(groupMembersAtom);
  const key = (list: GroupMember[]) => list.map((m) => `${m.node.label}:${m.node.id}:${m.kind}:${m.event}:${m.caping}`).join('|');
  return get(groupNameAtom) !== group.name || key(members) !== key(group.relationships.map(toMember));
});
groupDirtyAtom.debugLabel = 'groups.editor.dirty';

const groupErrorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, withText(GROUP_NOTICES.failed, errorMsg)));
groupErrorAtom.debugLabel = 'groups.editor.error';

const showGroupAtom = atom(null, (_get, set, group: Group) => {
  set(groupAtom, group);
  set(groupNameAtom, group.name);
  set(groupNameErrorAtom, null);
  set(groupMembersAtom, group.relationships.map(toMember));
  set(groupBasedOnAtom, group.version);
  set(groupResumedBaseAtom, null);
});
showGroupAtom.debugLabel = 'groups.editor.show';

/** The form's fields as a local draft keeps them (lib/local-drafts.ts), with the version they are based on. */
export interface GroupDraftValues {
  name: string;
  members: GroupMember[];
  version: number | undefined;
}

/** The same fields as the server holds them: the form differs from these while changes are unsaved. */
export const groupPristineValuesAtom = atom((get): GroupDraftValues | null => {
  const group = get(groupAtom);
  return group ? { name: group.name, members: group.relationships.map(toMember), version: group.version } : null;
});
groupPristineValuesAtom.debugLabel = 'groups.editor.pristineValues';

export const groupDraftValuesAtom = atom((get): GroupDraftValues | null =>
  get(groupAtom) ? { name: get(groupNameAtom), members: get(groupMembersAtom), version: get(groupBasedOnAtom) } : null,
);
groupDraftValuesAtom.debugLabel = 'groups.editor.draftValues';

/**
 * A resumed local draft: its name and members in the form, based on the version they were typed on; a stale one
 * keeps the group as it was then, so its save's 409 merges only what the user changed with what others changed.
 */
export const resumeGroupDraftAtom = atom(null, (get, set, { values, base }: { values: GroupDraftValues; base: GroupDraftValues | null }) => {
  set(groupNameAtom, values.name);
  set(groupMembersAtom, values.members);
  set(groupBasedOnAtom, values.version);
  const stale = base !== null && base.version !== get(groupAtom)?.version;
  set(groupResumedBaseAtom, stale ? { name: base.name, members: base.members } : null);
});
resumeGroupDraftAtom.debugLabel = 'groups.editor.resumeDraft';

/** A save refused because someone else changed the group: who and when, and the fields both changed. */
export interface GroupConflict {
  message: string;
  conflicts: FieldConflict[];
  theirs: Group;
}

export const groupConflictAtom = atom<GroupConflict | null>(null);
groupConflictAtom.debugLabel = 'groups.editor.conflict';

/**
 * A 409 of the group's save (docs/architecture.md, "Versions and conflicts"): their group becomes the saved one,
 * the form keeps the user's name and members with theirs where only they changed one, and what both changed
 * waits for the user's choice. Answers false for another failure.
 */
function adoptGroupConflict(get: Getter, set: Setter, result: IpcResult<unknown>): boolean {
  const group = get(groupAtom);
  if (result.ok || result.status !== 409 || !result.conflict?.current || !group) return false;
  const theirs = result.conflict.current as Group;
  const { merged, conflicts } = mergeChanges(
    get(groupResumedBaseAtom) ?? { name: group.name, members: group.relationships.map(toMember) },
    { name: get(groupNameAtom), members: get(groupMembersAtom) },
    { name: theirs.name, members: theirs.relationships.map(toMember) },
  );
  set(groupAtom, theirs);
  set(groupBasedOnAtom, theirs.version);
  set(groupResumedBaseAtom, null);
  set(groupNameAtom, merged.name);
  set(groupMembersAtom, merged.members);
  set(groupConflictAtom, { message: result.errorMsg, conflicts, theirs });
  return true;
}

/** The user's choice for the name or the members, both changed. */
export const resolveGroupFieldAtom = atom(null, (get, set, choice: { field: string; take: 'mine' | 'theirs' }) => {
  const conflict = get(groupConflictAtom);
  if (!conflict) return;
  const decided = conflict.conflicts.find((item) => item.field === choice.field);
  if (decided && choice.take === 'theirs') {
    if (choice.field === 'name') set(groupNameAtom, decided.theirs as string);
    if (choice.field === 'members') set(groupMembersAtom, decided.theirs as GroupMember[]);
  }
  set(groupConflictAtom, { ...conflict, conflicts: conflict.conflicts.filter((item) => item.field !== choice.field) });
});
resolveGroupFieldAtom.debugLabel = 'groups.editor.resolveField';

/** Their group whole: the user chose to drop their unsaved values. */
export const reloadTheirGroupAtom = atom(null, (get, set) => {
  const conflict = get(groupConflictAtom);
  if (!conflict) return;
  set(showGroupAtom, conflict.theirs);
  set(groupConflictAtom, null);
});
reloadTheirGroupAtom.debugLabel = 'groups.editor.reloadTheirs';

export const loadGroupAtom = atom(null, async (get, set, { label, id }: { label: GroupLabel; id: number }) => {
  set(groupConflictAtom, null);
  set(groupAtom, null);
  set(groupLoadFailedAtom, false);
  set(searchResultsAtom, []);
  set(searchSelectionAtom, new Set());
  const result = await get(apiAtom)('groups.get', { params: { label, id } });
  if (!result.ok) {
    set(groupLoadFailedAtom, true);
    return set(groupErrorAtom, result.errorMsg);
  }
  set(showGroupAtom, result.data);
});
loadGroupAtom.debugLabel = 'groups.editor.load';

export const removeMemberAtom = atom(null, (get, set, member: GroupMember) => {
  set(
    groupMembersAtom,
    get(groupMembersAtom).filter((m) => !(m.node.id === member.node.id && m.node.label === member.node.label)),
  );
});
removeMemberAtom.debugLabel = 'groups.editor.removeMember';

/**
 * Save: PUT /v2/group/{id} with the name and every member (the server refuses a cycle). An empty or blank name is
 * refused here, at the field, and nothing is sent (it used to be left out of the body: 'Groupe enregistré' with
 * the old name kept).
 */
/** A retry of lib/offline.ts, told how it went (and never queued again). */
type RetryOptions = { onOutcome: (outcome: RetryOutcome) => void };

/**
 * No answer from the server (lib/offline.ts): the banner says so instead of an error, the form and its local draft
 * keep the values, and the save is sent again when it answers, with what is typed then, if this group is still open.
 */
function waitForServer(set: Setter, id: number) {
  const run = async (store: AppStore): Promise<RetryOutcome> => {
    if (store.get(groupAtom)?.id !== id) return 'saved';
    let outcome: RetryOutcome = 'refused';
    await store.set(saveGroupAtom, { onOutcome: (answer) => (outcome = answer) });
    return outcome;
  };
  set(queueSaveAtom, { key: `group:${id}`, run });
}

export const saveGroupAtom = atom(null, async (get, set, retry?: RetryOptions) => {
  const group = get(groupAtom);
  // A save already under way: a retry waits for the next round rather than counting as refused.
  if (!group || get(groupSavingAtom)) return retry?.onOutcome('unreachable');
  const typed = { name: get(groupNameAtom), members: get(groupMembersAtom) };
  const name = typed.name.trim();
  if (!name) return set(groupNameErrorAtom, GROUP_MESSAGES.groupNameBlank);
  set(groupNameErrorAtom, null);
  set(groupSavingAtom, true);
  const relationships = get(groupMembersAtom).map((m) => ({
    node: { label: m.node.label, id: m.node.id },
    type: m.type,
    kind: m.kind,
    event: m.event,
    caping: m.caping,
  }));
  const version = get(groupBasedOnAtom);
  const basedOn = version !== undefined ? { version } : {};
  const result = await get(apiAtom)('groups.update', { params: { id: group.id }, body: { name, relationships, ...basedOn } });
  set(groupSavingAtom, false);
  if (!result.ok) {
    retry?.onOutcome(result.status === 0 ? 'unreachable' : 'refused');
    if (result.status === 0) return retry ? undefined : waitForServer(set, group.id);
    if (adoptGroupConflict(get, set, result)) return;
    return result.field === 'name' ? set(groupNameErrorAtom, result.errorMsg) : set(groupErrorAtom, result.errorMsg);
  }
  retry?.onOutcome('saved');
  set(groupConflictAtom, null);
  // What was typed while the save was under way stays in the form (it is not saved yet).
  const now = { name: get(groupNameAtom), members: get(groupMembersAtom) };
  set(showGroupAtom, result.data);
  if (now.name !== typed.name) set(groupNameAtom, now.name);
  if (now.members !== typed.members) set(groupMembersAtom, now.members);
  set(raiseNoticeAtom, GROUP_NOTICES.saved);
});
saveGroupAtom.debugLabel = 'groups.editor.save';

// ---- the search bar that adds members ----------------------------------------------------------------------------

export const searchTermAtom = atom('');
searchTermAtom.debugLabel = 'groups.editor.searchTerm';

/** Only this label, or every label (undefined). */
export const searchLabelAtom = atom<NodeLabel | undefined>(undefined);
searchLabelAtom.debugLabel = 'groups.editor.searchLabel';

export const searchResultsAtom = atom<AudienceNode[]>([]);
searchResultsAtom.debugLabel = 'groups.editor.searchResults';

export const searchSelectionAtom = atom<Set<number>>(new Set<number>());
searchSelectionAtom.debugLabel = 'groups.editor.searchSelection';

export const searchingAtom = atom(false);
searchingAtom.debugLabel = 'groups.editor.searching';

/**
 * Node search of the group page (spec §4, §5, §9): non-empty terms only; every label (users of any domain); items
 * already in the group left out; Feed, Document, App first; documents 100 at a time and all pre-selected. Started
 * by the page's query (lib/use-query.ts), whose signal tells a search a newer one replaced: it then writes nothing.
 */
export const runSearchAtom = atom(null, async (get, set, signal: AbortSignal) => {
  const group = get(groupAtom);
  const term = get(searchTermAtom).trim();
  const label = get(searchLabelAtom);
  if (!group || !term) {
    set(searchingAtom, false);
    set(searchResultsAtom, []);
    set(searchSelectionAtom, new Set());
    return;
  }
  set(searchingAtom, true);
  const query = { term, limit: groupSearchLimit(label), isGroup: 'true', groupId: group.id, ...(label ? { label } : {}) } as const;
  const result = await get(apiAtom)('nodes.search', { query });
  if (signal.aborted) return;
  set(searchingAtom, false);
  if (!result.ok) return set(groupErrorAtom, result.errorMsg);
  // Members added since the last save are not known to the server's exclusion: left out here.
  const present = new Set(get(groupMembersAtom).map((m) => `${m.node.label}:${m.node.id}`));
  const results = orderForGroupPage(result.data.filter((node) => !present.has(`${node.label}:${node.id}`)));
  set(searchResultsAtom, results);
  set(searchSelectionAtom, preselectedResults(results));
});
runSearchAtom.debugLabel = 'groups.editor.runSearch';

export const toggleResultAtom = atom(null, (get, set, id: number) => {
  const next = new Set(get(searchSelectionAtom));
  if (next.has(id)) next.delete(id);
  else next.add(id);
  set(searchSelectionAtom, next);
});
toggleResultAtom.debugLabel = 'groups.editor.toggleResult';

/** Adds the selected results to the members (once each; saved with Save). */
export const addSelectedAtom = atom(null, (get, set) => {
  const selection = get(searchSelectionAtom);
  const picked = get(searchResultsAtom).filter((node) => selection.has(node.id));
  const added: GroupMember[] = picked.map((node) => ({ node, type: 'AND', kind: 'required', event: null, caping: null }));
  set(groupMembersAtom, addMembers(get(groupMembersAtom), added));
  set(
    searchResultsAtom,
    get(searchResultsAtom).filter((node) => !selection.has(node.id)),
  );
  set(searchSelectionAtom, new Set());
});
addSelectedAtom.debugLabel = 'groups.editor.addSelected';

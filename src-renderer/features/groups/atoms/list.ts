import { atom } from 'jotai';
import type { Group } from '@shared/contract/audiences/groups';
import type { GroupLabel } from '@shared/rules/audiences';
import { GROUP_NOTICES, withText } from '@shared/messages';
import { GROUP_EXPORT_COLUMNS, GROUP_EXPORT_LIMIT, GROUP_PAGE_SIZE } from '@shared/rules/groups';
import { apiAtom } from '../../../lib/bridge';
import { exportCsvAtom } from '../../../lib/file-jobs';
import { createListAtoms } from '../../../lib/list';
import { raiseNoticeAtom } from '../../../lib/notices';

/** The group list (spec §2 Group list): 25 a page (spec §9), searched by name. */
export const groupList = createListAtoms('groups.list', {
  debugLabel: 'groups.list',
  pageSize: GROUP_PAGE_SIZE,
  toInput: ({ skip, limit, term }) => ({ query: { limit, skip, ...(term ? { term } : {}) } }),
});
export const {
  itemsAtom: groupsAtom,
  totalAtom: groupsTotalAtom,
  loadingAtom: groupsLoadingAtom,
  termAtom: groupsTermAtom,
  loadAtom: loadGroupsAtom,
  searchAtom: searchGroupsAtom,
} = groupList;

/** The server's error as an error toast (spec §8: other server errors). */
const groupErrorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, withText(GROUP_NOTICES.failed, errorMsg)));
groupErrorAtom.debugLabel = 'groups.error';

/** Creates a group from the new-group modal; answers it (the screen opens its editor), or null on failure. */
export const createGroupAtom = atom(null, async (get, set, { name, label }: { name: string; label: GroupLabel }): Promise<Group | null> => {
  const result = await get(apiAtom)('groups.create', { body: { name: name.trim(), label } });
  if (!result.ok) {
    set(groupErrorAtom, result.errorMsg);
    return null;
  }
  set(raiseNoticeAtom, GROUP_NOTICES.created(result.data.name));
  return result.data;
});
createGroupAtom.debugLabel = 'groups.create';

export const duplicateGroupAtom = atom(null, async (get, set, group: Pick<Group, 'id' | 'name'>) => {
  const result = await get(apiAtom)('groups.duplicate', { params: { id: group.id } });
  if (!result.ok) return set(groupErrorAtom, result.errorMsg);
  set(raiseNoticeAtom, GROUP_NOTICES.duplicated(group.name));
  // The copy sorts by name among the others: the rows shown are fetched again.
  await set(groupList.reloadAtom);
});
duplicateGroupAtom.debugLabel = 'groups.duplicate';

/**
 * DELETE /v2/group/{id} repeats the group's name (spec §7) and the version the row was loaded with
 * (docs/architecture.md, "Versions and conflicts"): a group changed meanwhile stays, and the list is read again.
 */
export const deleteGroupAtom = atom(null, async (get, set, group: Pick<Group, 'id' | 'name' | 'version'>) => {
  const body = { name: group.name, ...(group.version ? { version: group.version } : {}) };
  const result = await get(apiAtom)('groups.delete', { params: { id: group.id }, body });
  if (!result.ok) {
    set(groupErrorAtom, result.errorMsg);
    return set(groupList.reloadAtom);
  }
  set(groupList.removeItemAtom, group.id);
  set(raiseNoticeAtom, GROUP_NOTICES.deleted(group.name));
});
deleteGroupAtom.debugLabel = 'groups.delete';

/**
 * CSV export of the groups the search shows, at most 10,000 (spec §7): main asks where with the native save
 * dialog, pages through GET /v2/groups and writes the file, with its progress in the file jobs panel.
 */
export const exportGroupsAtom = atom(null, async (get, set) => {
  const term = get(groupsTermAtom).trim();
  return set(exportCsvAtom, {
    operation: 'groups.list',
    input: { query: term ? { term } : {} },
    columns: GROUP_EXPORT_COLUMNS.map((column) => ({ ...column })),
    defaultName: 'groupes.csv',
    maxRows: GROUP_EXPORT_LIMIT,
    label: 'Export des groupes',
  });
});
exportGroupsAtom.debugLabel = 'groups.export';

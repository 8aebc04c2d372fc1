import { atom } from 'jotai';
import { ACCOUNT_PAGE_SIZE } from '@shared/limits';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import type { Role } from '@shared/roles';
import { apiAtom, bridgeAtom } from '../../lib/bridge';
import { createListAtoms } from '../../lib/list';
import { raiseNoticeAtom } from '../../lib/notices';
import { sessionAtom } from '../../lib/session';

/** The account list (spec §2 Admin page): 99 a page (spec §9), searched on name, nickname or e-mail. */
export const accountList = createListAtoms('admin.accounts.list', {
  debugLabel: 'admin.accounts',
  pageSize: ACCOUNT_PAGE_SIZE,
  toInput: ({ skip, limit, term }) => ({ query: { limit, skip, ...(term ? { term } : {}) } }),
});
export const {
  itemsAtom: accountsAtom,
  totalAtom: accountsTotalAtom,
  loadingAtom: accountsLoadingAtom,
  termAtom: accountsTermAtom,
  loadAtom: loadAccountsAtom,
  searchAtom: searchAccountsAtom,
} = accountList;

export const roleOptionsAtom = atom<Role[]>([]);
roleOptionsAtom.debugLabel = 'admin.roleOptions';

/** The store's error (spec §2, §8): the server's text as an error toast. */
const storeErrorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, withText(PLATFORM_NOTICES.storeError, errorMsg)));
storeErrorAtom.debugLabel = 'admin.storeError';

/**
 * After a refused write the row may not be what the table shows (deleted, or given ADMIN, elsewhere): the rows
 * shown are fetched again so the table matches the server. Validation failures change nothing on the server,
 * but reloading then is harmless and keeps one rule.
 */
const reloadAfterRefusalAtom = atom(null, (_get, set) => set(accountList.reloadAtom));
reloadAfterRefusalAtom.debugLabel = 'admin.reloadAfterRefusal';

export const loadRoleOptionsAtom = atom(null, async (get, set) => {
  const result = await get(apiAtom)('admin.roles');
  if (result.ok) set(roleOptionsAtom, result.data);
  else set(storeErrorAtom, result.errorMsg);
});
loadRoleOptionsAtom.debugLabel = 'admin.loadRoleOptions';

/** Create and update answer the failure (its `field` shows beside the form field), or null once saved. */
export const createAccountAtom = atom(null, async (get, set, fields: { name: string; nickname: string; username: string }) => {
  const result = await get(apiAtom)('admin.accounts.create', { body: { ...fields, roles: [] } });
  if (!result.ok) {
    set(storeErrorAtom, result.errorMsg);
    return result;
  }
  await set(accountList.loadAtom, 0);
  return null;
});
createAccountAtom.debugLabel = 'admin.createAccount';

/**
 * The update names the version the dialog was opened on (docs/architecture.md, "Versions and conflicts"): a 409
 * comes back to the dialog with the account as it is now, and the dialog shows theirs beside yours.
 */
export const updateAccountAtom = atom(
  null,
  async (get, set, { id, ...fields }: { id: number; name: string; nickname: string; username: string; version?: number }) => {
    const result = await get(apiAtom)('admin.accounts.update', { params: { accountId: id }, body: fields });
    if (!result.ok) {
      if (!result.conflict) set(storeErrorAtom, result.errorMsg);
      void set(reloadAfterRefusalAtom);
      return result;
    }
    set(accountList.replaceItemAtom, result.data);
    return null;
  },
);
updateAccountAtom.debugLabel = 'admin.updateAccount';

export const setRolesAtom = atom(null, async (get, set, { id, roles }: { id: number; roles: Role[] }) => {
  const before = get(accountsAtom).find((account) => account.id === id);
  // Optimistic: the box ticks at once; the server's answer (or the old roles on failure) settles it.
  if (before) set(accountList.replaceItemAtom, { ...before, roles });
  // Based on the version shown: a 409 (someone changed the account) reloads the row with its roles now.
  const result = await get(apiAtom)('admin.accounts.setRoles', { params: { accountId: id }, body: { roles, version: before?.version } });
  if (!result.ok) {
    if (before) set(accountList.replaceItemAtom, before);
    set(storeErrorAtom, result.errorMsg);
    return set(reloadAfterRefusalAtom);
  }
  set(accountList.replaceItemAtom, result.data);
  // Spec §4: when admins change their own roles, the session roles are refreshed.
  if (get(sessionAtom)?.userId === id) {
    const refreshed = await get(bridgeAtom).invoke('session:refresh');
    if (refreshed.ok && refreshed.data) set(sessionAtom, refreshed.data);
  }
});
setRolesAtom.debugLabel = 'admin.setRoles';

export const deleteAccountAtom = atom(null, async (get, set, id: number) => {
  const version = get(accountsAtom).find((account) => account.id === id)?.version;
  const result = await get(apiAtom)('admin.accounts.delete', { params: { accountId: id }, ...(version ? { query: { version } } : {}) });
  if (!result.ok) {
    set(storeErrorAtom, result.errorMsg);
    return set(reloadAfterRefusalAtom);
  }
  set(accountList.removeItemAtom, id);
});
deleteAccountAtom.debugLabel = 'admin.deleteAccount';

import { atom } from 'jotai';
import type { Account } from '@shared/contract';
import { ACCOUNT_PAGE_SIZE } from '@shared/limits';
import type { Role } from '@shared/roles';
import { getBridge } from '../../bridge';
import { callApi } from '../../bridge/api';
import { sessionAtom } from '../auth/atoms';
import { mergePage } from './list-state';

export const accountsAtom = atom<Account[]>([]);
accountsAtom.debugLabel = 'admin.accounts';

export const accountsTotalAtom = atom(0);
accountsTotalAtom.debugLabel = 'admin.accountsTotal';

export const accountsTermAtom = atom('');
accountsTermAtom.debugLabel = 'admin.term';

export const accountsLoadingAtom = atom(false);
accountsLoadingAtom.debugLabel = 'admin.loading';

/** The store's error (spec §2): shown as an error toast, then cleared. */
export const adminErrorAtom = atom<string | null>(null);
adminErrorAtom.debugLabel = 'admin.error';

export const roleOptionsAtom = atom<Role[]>([]);
roleOptionsAtom.debugLabel = 'admin.roleOptions';

export const loadRoleOptionsAtom = atom(null, async (_get, set) => {
  const result = await callApi('admin.roles');
  if (result.ok) set(roleOptionsAtom, result.data);
  else set(adminErrorAtom, result.errorMsg);
});
loadRoleOptionsAtom.debugLabel = 'admin.loadRoleOptions';

let latestRequest = 0;

export const loadAccountsAtom = atom(null, async (get, set, skip: number) => {
  const request = ++latestRequest;
  set(accountsLoadingAtom, true);
  const term = get(accountsTermAtom).trim();
  const result = await callApi('admin.accounts.list', { query: { limit: ACCOUNT_PAGE_SIZE, skip, ...(term ? { term } : {}) } });
  // A slower answer to an older search must not overwrite a newer one.
  if (request !== latestRequest) return;
  set(accountsLoadingAtom, false);
  if (!result.ok) return set(adminErrorAtom, result.errorMsg);
  set(accountsAtom, mergePage(get(accountsAtom), result.data.items, skip));
  set(accountsTotalAtom, result.data.total);
});
loadAccountsAtom.debugLabel = 'admin.loadAccounts';

function replaceAccount(list: Account[], account: Account): Account[] {
  return list.map((item) => (item.id === account.id ? account : item));
}

export const createAccountAtom = atom(null, async (get, set, fields: { name: string; nickname: string; username: string }) => {
  const result = await callApi('admin.accounts.create', { body: { ...fields, roles: [] } });
  if (!result.ok) {
    set(adminErrorAtom, result.errorMsg);
    return false;
  }
  await set(loadAccountsAtom, 0);
  return true;
});
createAccountAtom.debugLabel = 'admin.createAccount';

export const updateAccountAtom = atom(null, async (get, set, { id, ...fields }: { id: number; name: string; nickname: string; username: string }) => {
  const result = await callApi('admin.accounts.update', { params: { accountId: id }, body: fields });
  if (!result.ok) {
    set(adminErrorAtom, result.errorMsg);
    return false;
  }
  set(accountsAtom, replaceAccount(get(accountsAtom), result.data));
  return true;
});
updateAccountAtom.debugLabel = 'admin.updateAccount';

export const setRolesAtom = atom(null, async (get, set, { id, roles }: { id: number; roles: Role[] }) => {
  const before = get(accountsAtom).find((account) => account.id === id);
  // Optimistic: the box ticks at once; the server's answer (or the old roles on failure) settles it.
  if (before) set(accountsAtom, replaceAccount(get(accountsAtom), { ...before, roles }));
  const result = await callApi('admin.accounts.setRoles', { params: { accountId: id }, body: { roles } });
  if (!result.ok) {
    if (before) set(accountsAtom, replaceAccount(get(accountsAtom), before));
    return set(adminErrorAtom, result.errorMsg);
  }
  set(accountsAtom, replaceAccount(get(accountsAtom), result.data));
  // Spec §4: when admins change their own roles, the session roles are refreshed.
  if (get(sessionAtom)?.userId === id) {
    const refreshed = await getBridge().invoke('session:refresh');
    if (refreshed.ok && refreshed.data) set(sessionAtom, refreshed.data);
  }
});
setRolesAtom.debugLabel = 'admin.setRoles';

export const deleteAccountAtom = atom(null, async (get, set, id: number) => {
  const result = await callApi('admin.accounts.delete', { params: { accountId: id } });
  if (!result.ok) return set(adminErrorAtom, result.errorMsg);
  set(accountsAtom, get(accountsAtom).filter((account) => account.id !== id));
  set(accountsTotalAtom, Math.max(0, get(accountsTotalAtom) - 1));
});
deleteAccountAtom.debugLabel = 'admin.deleteAccount';

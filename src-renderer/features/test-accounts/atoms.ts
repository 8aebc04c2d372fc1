import { atom } from 'jotai';
import { AUDIENCE_NOTICES, GROUP_NOTICES, withText } from '@shared/messages';
import { shouldSearchAccounts } from '@shared/rules/groups';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';

/** A test account as the table shows it (spec §3 Test account: id, email, relsCount). */
export interface TestAccount {
  id: number;
  email: string;
  relsCount: number;
}

export const accountTermAtom = atom('');
accountTermAtom.debugLabel = 'audiences.testAccounts.term';

export const accountResultsAtom = atom<TestAccount[]>([]);
accountResultsAtom.debugLabel = 'audiences.testAccounts.results';

export const accountSearchingAtom = atom(false);
accountSearchingAtom.debugLabel = 'audiences.testAccounts.searching';

/** Whether a search answered for the current term (so the table can say 'Aucun compte' rather than nothing). */
export const accountSearchedAtom = atom(false);
accountSearchedAtom.debugLabel = 'audiences.testAccounts.searched';

/** Spec §8: a search or reset failure is an error toast of 3.5 s with the error. */
const accountErrorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, withText(GROUP_NOTICES.accountFailed, errorMsg)));
accountErrorAtom.debugLabel = 'audiences.testAccounts.error';

/**
 * POST /search/users for terms of 3 characters or more (spec §5); a shorter term clears the table. Started by the
 * page's query (lib/use-query.ts), whose signal tells a search a newer one replaced: it then writes nothing.
 */
export const searchAccountsAtom = atom(null, async (get, set, signal: AbortSignal) => {
  const term = get(accountTermAtom).trim();
  if (!shouldSearchAccounts(term)) {
    set(accountResultsAtom, []);
    set(accountSearchedAtom, false);
    set(accountSearchingAtom, false);
    return;
  }
  set(accountSearchingAtom, true);
  const result = await get(apiAtom)('appUsers.search', { body: { term } });
  if (signal.aborted) return;
  set(accountSearchingAtom, false);
  if (!result.ok) return set(accountErrorAtom, result.errorMsg);
  set(
    accountResultsAtom,
    result.data.map(({ id, email, relsCount }) => ({ id, email, relsCount })),
  );
  set(accountSearchedAtom, true);
});
searchAccountsAtom.debugLabel = 'audiences.testAccounts.search';

/** PUT /user/{id}/reset: the row shows the count answered; 'Réinitialisation des interactions effectuée' (3.5 s). */
export const resetAccountAtom = atom(null, async (get, set, id: number) => {
  const result = await get(apiAtom)('appUsers.reset', { params: { userId: id } });
  if (!result.ok) return set(accountErrorAtom, result.errorMsg);
  set(
    accountResultsAtom,
    get(accountResultsAtom).map((account) => (account.id === result.data.id ? { ...account, relsCount: result.data.relsCount } : account)),
  );
  set(raiseNoticeAtom, AUDIENCE_NOTICES.interactionsReset);
});
resetAccountAtom.debugLabel = 'audiences.testAccounts.reset';

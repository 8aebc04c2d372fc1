import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { GROUP_MESSAGES } from '@shared/messages';
import { ACCOUNT_SEARCH_DEBOUNCE_MS } from '@shared/rules/groups';
import { useQuery } from '../../lib/use-query';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable, type Column } from '../../ui/DataTable';
import {
  accountResultsAtom,
  accountSearchedAtom,
  accountSearchingAtom,
  accountTermAtom,
  resetAccountAtom,
  searchAccountsAtom,
  type TestAccount,
} from './atoms';

/** /test-accounts (spec §2 Test accounts): search an account by e-mail, reset its interactions. */
export default function TestAccountsPage() {
  const [term, setTerm] = useAtom(accountTermAtom);
  const results = useAtomValue(accountResultsAtom);
  const searching = useAtomValue(accountSearchingAtom);
  const searched = useAtomValue(accountSearchedAtom);
  const search = useSetAtom(searchAccountsAtom);
  const reset = useSetAtom(resetAccountAtom);

  // 200 ms after the last key (spec §9 "Account search debounce"); the kernel drops the answer of a search typed over.
  useQuery(['appUsers.search', term.trim()], (signal) => search(signal), { debounceMs: ACCOUNT_SEARCH_DEBOUNCE_MS });

  const columns: Column<TestAccount>[] = [
    { id: 'id', header: 'Id', cell: (account) => account.id },
    { id: 'email', header: 'E-mail', cell: (account) => account.email },
    { id: 'relsCount', header: 'Interactions', cell: (account) => <span data-testid={`test-account-count-${account.id}`}>{account.relsCount}</span> },
    {
      id: 'reset',
      header: <span className="visually-hidden">Reset</span>,
      cell: (account) => (
        <ConfirmButton
          className="secondary"
          message={GROUP_MESSAGES.confirmResetInteractions}
          onConfirm={() => void reset(account.id)}
          testId={`test-account-reset-${account.id}`}
        >
          Reset
        </ConfirmButton>
      ),
    },
  ];

  return (
    <section className="test-accounts-page" aria-label="Comptes de test">
      <div className="toolbar">
        <h1 className="screen-title">Comptes de test</h1>
        <input
          type="search"
          placeholder={GROUP_MESSAGES.searchAccountPlaceholder}
          aria-label={GROUP_MESSAGES.searchAccountPlaceholder}
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          autoFocus
          data-testid="test-accounts-search"
        />
      </div>
      <DataTable
        testId="test-accounts-table"
        columns={columns}
        rows={results}
        rowKey={(account) => account.id}
        rowAttributes={(account) => ({ 'data-testid': `test-account-row-${account.id}`, 'data-email': account.email })}
        loading={searching}
        emptyText={searched ? 'Aucun compte' : undefined}
      />
    </section>
  );
}

import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { LAB_MESSAGES as M } from '@shared/messages/laboratory';
import { LAB_ACCOUNT_SEARCH_DEBOUNCE_MS } from '@shared/rules/laboratory';
import { useQuery } from '../../lib/use-query';
import {
  accountResultsAtom,
  accountTermAtom,
  addLabAccountAtom,
  canWriteLabAtom,
  labProjectAtom,
  removeLabAccountAtom,
  searchLabAccountsAtom,
} from './atoms';

/** The Access tab: the accounts allowed on the project; a search from 3 characters (200 ms) and 'Add' once one is picked. */
export function AccessTab() {
  const project = useAtomValue(labProjectAtom);
  const canWrite = useAtomValue(canWriteLabAtom);
  const [term, setTerm] = useAtom(accountTermAtom);
  const results = useAtomValue(accountResultsAtom);
  const search = useSetAtom(searchLabAccountsAtom);
  const add = useSetAtom(addLabAccountAtom);
  const remove = useSetAtom(removeLabAccountAtom);
  const [selected, setSelected] = useState<number | null>(null);

  // The kernel waits for the pause in typing and drops the answer of a search typed over.
  useQuery(['laboratory.accountSearch', project?.id, term.trim()], (signal) => search(signal), { debounceMs: LAB_ACCOUNT_SEARCH_DEBOUNCE_MS });
  const picked = results.find((account) => account.id === selected) ?? null;

  return (
    <div className="lab-access">
      <h2>{M.accessTitle}</h2>
      {project?.userAccounts.length ? (
        <ul className="lab-accounts" data-testid="lab-accounts">
          {project.userAccounts.map((account) => (
            <li key={account.id} data-testid={`lab-account-${account.id}`}>
              <span>{account.username}</span>
              {canWrite && (
                <button type="button" className="link danger" onClick={() => void remove(account)} data-testid={`lab-account-remove-${account.id}`}>
                  {M.remove}
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="lab-empty">{M.noAccount}</p>
      )}
      {canWrite && (
        <div className="lab-account-search">
          <input
            type="search"
            value={term}
            placeholder={M.searchAccount}
            aria-label={M.searchAccount}
            onChange={(event) => {
              setTerm(event.target.value);
              setSelected(null);
            }}
            data-testid="lab-account-search"
          />
          <ul className="lab-account-results" role="listbox" aria-label={M.searchAccount} data-testid="lab-account-results">
            {results.map((account) => (
              <li
                key={account.id}
                role="option"
                aria-selected={account.id === selected}
                tabIndex={0}
                className={account.id === selected ? 'selected' : undefined}
                onClick={() => setSelected(account.id)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') setSelected(account.id);
                }}
                data-testid={`lab-account-result-${account.id}`}
              >
                {account.username}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="primary"
            disabled={!picked}
            onClick={() => {
              if (picked) void add(picked);
              setSelected(null);
            }}
            data-testid="lab-account-add"
          >
            {M.add}
          </button>
        </div>
      )}
    </div>
  );
}

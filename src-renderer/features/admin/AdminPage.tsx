import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import type { Account } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { modalAtom, useConfirm } from '../../app/modal';
import { notify } from '../../app/notify';
import { sessionAtom } from '../auth/atoms';
import { AccountDialog } from './AccountDialog';
import {
  accountsAtom,
  accountsLoadingAtom,
  accountsTermAtom,
  accountsTotalAtom,
  adminErrorAtom,
  createAccountAtom,
  deleteAccountAtom,
  loadAccountsAtom,
  loadRoleOptionsAtom,
  roleOptionsAtom,
  setRolesAtom,
  updateAccountAtom,
} from './atoms';
import { RolesSelect } from './RolesSelect';

const SEARCH_DEBOUNCE_MS = 300;

/** Account administration (spec §2 Admin page, §6). */
export default function AdminPage() {
  const accounts = useAtomValue(accountsAtom);
  const total = useAtomValue(accountsTotalAtom);
  const loading = useAtomValue(accountsLoadingAtom);
  const roleOptions = useAtomValue(roleOptionsAtom);
  const session = useAtomValue(sessionAtom);
  const [term, setTerm] = useAtom(accountsTermAtom);
  const [error, setError] = useAtom(adminErrorAtom);
  const load = useSetAtom(loadAccountsAtom);
  const loadRoles = useSetAtom(loadRoleOptionsAtom);
  const create = useSetAtom(createAccountAtom);
  const update = useSetAtom(updateAccountAtom);
  const setRoles = useSetAtom(setRolesAtom);
  const remove = useSetAtom(deleteAccountAtom);
  const setModal = useSetAtom(modalAtom);
  const confirm = useConfirm();
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void loadRoles();
  }, [loadRoles]);

  useEffect(() => {
    const timer = setTimeout(() => void load(0), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [term, load]);

  useEffect(() => {
    if (error) {
      notify.error(error);
      setError(null);
    }
  }, [error, setError]);

  // Infinite scroll: the next page when the bottom of the table comes into view.
  useEffect(() => {
    const node = sentinel.current;
    if (!node) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !loading && accounts.length < total) void load(accounts.length);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [accounts.length, total, loading, load]);

  const openCreate = () => setModal(<AccountDialog onSubmit={(fields) => create(fields)} onClose={() => setModal(null)} />);
  const openEdit = (account: Account) =>
    setModal(<AccountDialog account={account} onSubmit={(fields) => update({ id: account.id, ...fields })} onClose={() => setModal(null)} />);

  async function askDelete(account: Account) {
    if (await confirm(MESSAGES.confirmDelete)) await remove(account.id);
  }

  return (
    <section className="admin-page">
      <div className="toolbar">
        <button type="button" className="primary" onClick={openCreate} data-testid="admin-create">
          Create
        </button>
        <input type="search" placeholder="Rechercher..." value={term} onChange={(event) => setTerm(event.target.value)} data-testid="admin-search" aria-label="Rechercher" />
        <span className="count" data-testid="admin-total">
          {total} compte{total > 1 ? 's' : ''}
        </span>
      </div>
      <table className="table" data-testid="admin-table">
        <thead>
          <tr>
            <th>Nom</th>
            <th>Surnom</th>
            <th>Nom d'utilisateur</th>
            <th>Rôles</th>
            <th>UUID</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.id} data-testid={`account-row-${account.id}`} data-email={account.username}>
              <td>{account.name}</td>
              <td>{account.nickname}</td>
              <td>
                <button type="button" className="link" onClick={() => openEdit(account)} data-testid={`account-edit-${account.id}`}>
                  {account.username}
                </button>
              </td>
              <td>
                <RolesSelect
                  value={account.roles}
                  options={roleOptions}
                  isSelf={account.id === session?.userId}
                  onChange={(roles) => void setRoles({ id: account.id, roles })}
                  testId={`account-roles-${account.id}`}
                />
              </td>
              <td className="mono">{account.uuid}</td>
              <td>
                {!account.roles.includes('ADMIN') && (
                  <button type="button" className="link danger" onClick={() => void askDelete(account)} data-testid={`account-delete-${account.id}`}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div ref={sentinel} className="sentinel">
        {loading ? 'Chargement…' : null}
      </div>
    </section>
  );
}

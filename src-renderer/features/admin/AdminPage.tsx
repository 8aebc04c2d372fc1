import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect } from 'react';
import type { Account } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { modalAtom } from '../../lib/modal';
import { sessionAtom } from '../../lib/session';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable, type Column } from '../../ui/DataTable';
import { AccountDialog } from './AccountDialog';
import {
  accountsAtom,
  accountsLoadingAtom,
  accountsTermAtom,
  accountsTotalAtom,
  createAccountAtom,
  deleteAccountAtom,
  loadAccountsAtom,
  loadRoleOptionsAtom,
  roleOptionsAtom,
  searchAccountsAtom,
  setRolesAtom,
  updateAccountAtom,
} from './atoms';
import { RolesSelect } from './RolesSelect';

/** Account administration (spec §2 Admin page, §6). */
export default function AdminPage() {
  const accounts = useAtomValue(accountsAtom);
  const total = useAtomValue(accountsTotalAtom);
  const loading = useAtomValue(accountsLoadingAtom);
  const roleOptions = useAtomValue(roleOptionsAtom);
  const session = useAtomValue(sessionAtom);
  const term = useAtomValue(accountsTermAtom);
  const search = useSetAtom(searchAccountsAtom);
  const load = useSetAtom(loadAccountsAtom);
  const loadRoles = useSetAtom(loadRoleOptionsAtom);
  const create = useSetAtom(createAccountAtom);
  const update = useSetAtom(updateAccountAtom);
  const setRoles = useSetAtom(setRolesAtom);
  const remove = useSetAtom(deleteAccountAtom);
  const setModal = useSetAtom(modalAtom);

  useEffect(() => {
    void loadRoles();
  }, [loadRoles]);

  // The first page loads on arrival; typing in the search box waits for a pause (searchAccountsAtom).
  useEffect(() => {
    void load(0);
  }, [load]);

  const loadMore = useCallback(() => void load(accounts.length), [load, accounts.length]);
  const closeModal = useCallback(() => setModal(null), [setModal]);

  const openCreate = () => setModal(<AccountDialog onSubmit={(fields) => create(fields)} onClose={closeModal} />);
  const openEdit = (account: Account) =>
    setModal(<AccountDialog account={account} onSubmit={(fields, version) => update({ id: account.id, ...fields, version })} onClose={closeModal} />);

  const columns: Column<Account>[] = [
    { id: 'name', header: 'Nom', cell: (account) => account.name },
    { id: 'nickname', header: 'Surnom', cell: (account) => account.nickname },
    {
      id: 'username',
      header: "Nom d'utilisateur",
      cell: (account) => (
        <button type="button" className="link" onClick={() => openEdit(account)} data-testid={`account-edit-${account.id}`}>
          {account.username}
        </button>
      ),
    },
    {
      id: 'roles',
      header: 'Rôles',
      cell: (account) => (
        <RolesSelect
          value={account.roles}
          options={roleOptions}
          isSelf={account.id === session?.userId}
          onChange={(roles) => void setRoles({ id: account.id, roles })}
          testId={`account-roles-${account.id}`}
        />
      ),
    },
    { id: 'uuid', header: 'UUID', className: 'mono', cell: (account) => account.uuid },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      // Accounts holding ADMIN cannot be deleted from the list (spec §6).
      cell: (account) =>
        account.roles.includes('ADMIN') ? null : (
          <ConfirmButton
            className="link danger"
            message={MESSAGES.confirmDelete}
            onConfirm={() => void remove(account.id)}
            testId={`account-delete-${account.id}`}
          >
            Delete
          </ConfirmButton>
        ),
    },
  ];

  return (
    <section className="admin-page" aria-label="Administration des comptes">
      <div className="toolbar">
        <h1 className="screen-title">Administration des comptes</h1>
        <button type="button" className="primary" onClick={openCreate} data-testid="admin-create">
          Create
        </button>
        <input
          type="search"
          placeholder="Rechercher..."
          value={term}
          onChange={(event) => search(event.target.value)}
          data-testid="admin-search"
          aria-label="Rechercher"
        />
        <span className="count" data-testid="admin-total">
          {/* Until the first page answers, a loader: '0 compte' would be a false statement. */}
          {total === null ? 'Chargement…' : `${total} compte${total > 1 ? 's' : ''}`}
        </span>
      </div>
      <DataTable
        testId="admin-table"
        columns={columns}
        rows={accounts}
        rowKey={(account) => account.id}
        rowAttributes={(account) => ({ 'data-testid': `account-row-${account.id}`, 'data-email': account.username })}
        hasMore={total !== null && accounts.length < total}
        loading={loading || total === null}
        onLoadMore={loadMore}
        emptyText={term ? 'Aucun compte ne correspond à la recherche' : 'Aucun compte'}
      />
    </section>
  );
}

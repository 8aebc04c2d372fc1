import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { Group } from '@shared/contract/audiences/groups';
import { GROUP_MESSAGES } from '@shared/messages';
import { groupEditorPath } from '@shared/rules/groups';
import { modalAtom } from '../../lib/modal';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable, type Column } from '../../ui/DataTable';
import {
  createGroupAtom,
  deleteGroupAtom,
  duplicateGroupAtom,
  exportGroupsAtom,
  groupsAtom,
  groupsLoadingAtom,
  groupsTermAtom,
  searchGroupsAtom,
  groupsTotalAtom,
  loadGroupsAtom,
} from './atoms/list';
import { NewGroupDialog } from './NewGroupDialog';
import { RowMenu } from './RowMenu';
import './groups.css';

/** /groupes (spec §2 Group list; ADMIN): name, labels, audience count, row menu; search, export, new group. */
export default function GroupsListPage() {
  const groups = useAtomValue(groupsAtom);
  const total = useAtomValue(groupsTotalAtom);
  const loading = useAtomValue(groupsLoadingAtom);
  const term = useAtomValue(groupsTermAtom);
  const search = useSetAtom(searchGroupsAtom);
  const load = useSetAtom(loadGroupsAtom);
  const create = useSetAtom(createGroupAtom);
  const duplicate = useSetAtom(duplicateGroupAtom);
  const remove = useSetAtom(deleteGroupAtom);
  const exportCsv = useSetAtom(exportGroupsAtom);
  const setModal = useSetAtom(modalAtom);
  const navigate = useNavigate();

  // The first page on arrival; typing waits for a pause (searchGroupsAtom).
  useEffect(() => {
    void load(0);
  }, [load]);

  const loadMore = useCallback(() => void load(groups.length), [load, groups.length]);
  const closeModal = useCallback(() => setModal(null), [setModal]);

  const openNew = () =>
    setModal(
      <NewGroupDialog
        onClose={closeModal}
        onCreate={async (fields) => {
          const group = await create(fields);
          if (group) navigate(groupEditorPath(group));
          return group !== null;
        }}
      />,
    );

  const columns: Column<Group>[] = [
    {
      id: 'name',
      header: 'Nom',
      cell: (group) => (
        <Link to={groupEditorPath(group)} data-testid={`group-link-${group.id}`}>
          {group.name}
        </Link>
      ),
    },
    { id: 'labels', header: 'Labels', cell: (group) => group.labels.join(', ') },
    { id: 'audiencesCount', header: 'Audiences', cell: (group) => group.audiencesCount },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      cell: (group) => (
        <RowMenu label={`Actions du groupe ${group.name}`} testId={`group-menu-${group.id}`}>
          {(close) => (
            <>
              <button
                type="button"
                className="link"
                role="menuitem"
                onClick={() => {
                  close();
                  void duplicate(group);
                }}
                data-testid={`group-duplicate-${group.id}`}
              >
                Dupliquer
              </button>
              <ConfirmButton
                className="link danger"
                message={GROUP_MESSAGES.confirmDeleteGroup.replace('{name}', group.name)}
                onConfirm={() => {
                  close();
                  void remove(group);
                }}
                testId={`group-delete-${group.id}`}
              >
                Supprimer
              </ConfirmButton>
            </>
          )}
        </RowMenu>
      ),
    },
  ];

  return (
    <section className="groups-page" aria-label="Groupes">
      <div className="toolbar">
        <h1 className="screen-title">Groupes</h1>
        <button type="button" className="primary" onClick={openNew} data-testid="groups-new">
          Nouveau groupe
        </button>
        <input
          type="search"
          placeholder="Rechercher..."
          aria-label="Rechercher un groupe"
          value={term}
          onChange={(event) => search(event.target.value)}
          data-testid="groups-search"
        />
        <button type="button" className="secondary" onClick={() => void exportCsv()} data-testid="groups-export">
          Export CSV
        </button>
        <span className="count" data-testid="groups-total">
          {total === null ? 'Chargement…' : `${total} groupe${total > 1 ? 's' : ''}`}
        </span>
      </div>
      <DataTable
        testId="groups-table"
        columns={columns}
        rows={groups}
        rowKey={(group) => group.id}
        rowAttributes={(group) => ({ 'data-testid': `group-row-${group.id}`, 'data-name': group.name })}
        hasMore={total !== null && groups.length < total}
        loading={loading || total === null}
        onLoadMore={loadMore}
        emptyText={term ? 'Aucun groupe ne correspond à la recherche' : 'Aucun groupe'}
      />
    </section>
  );
}

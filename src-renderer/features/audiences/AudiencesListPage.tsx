import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import type { audienceRowSchema } from '@shared/contract/audiences/audiences';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { LIST_LOAD_MARGIN_PX } from '@shared/rules/audience-editor';
import { AREAS, AUDIENCE_TYPES, type Area, type AudienceType } from '@shared/rules/audiences';
import { audienceRestorers, audienceWriters } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import { useConfirm } from '../../lib/modal';
import { rolesAtom } from '../../lib/session';
import { DataTable, type Column } from '../../ui/DataTable';
import { pendingNewAudienceAtom } from './atoms/open';
import DeletedAudiencesPanel from './history/DeletedAudiencesPanel';
import {
  audienceList,
  bulkDeleteAtom,
  deleteAudienceAtom,
  duplicateAudienceAtom,
  selectedAudiencesAtom,
  toggleOrderAtom,
  toggleSelectedAtom,
  type AudienceFilters,
} from './atoms/list';
import { AreaFlag } from './AreaFlag';
import { formatDate } from '@shared/rules/dates';
import { TYPE_LABELS } from './labels';

type AudienceRow = z.infer<typeof audienceRowSchema>;

/** A row's menu (writers): edit, duplicate (then open the copy), delete after confirming. */
function AudienceRowMenu({ row }: { row: AudienceRow }) {
  const remove = useSetAtom(deleteAudienceAtom);
  const duplicate = useSetAtom(duplicateAudienceAtom);
  const confirm = useConfirm();
  const navigate = useNavigate();
  const askDelete = async () => {
    if (await confirm(AUDIENCE_MESSAGES.confirmDeleteAudience(row.name))) await remove(row);
  };
  return (
    <details className="row-menu" data-testid={`audience-menu-${row.id}`}>
      <summary aria-label={`Actions de ${row.name}`}>⋯</summary>
      <div className="row-menu-items">
        <button type="button" className="link" onClick={() => navigate(`/audiences/${row.id}`)} data-testid={`audience-edit-${row.id}`}>
          Modifier
        </button>
        <button
          type="button"
          className="link"
          onClick={async () => {
            const copy = await duplicate(row.id);
            if (copy !== null) navigate(`/audiences/${copy}`);
          }}
          data-testid={`audience-duplicate-${row.id}`}
        >
          Dupliquer
        </button>
        <button type="button" className="link danger" onClick={() => void askDelete()} data-testid={`audience-delete-${row.id}`}>
          Supprimer
        </button>
      </div>
    </details>
  );
}

/** The list's filters (spec §2): catalogue or custom, channel, area. */
function AudienceFilterSelects({ filters, onChange }: { filters: AudienceFilters; onChange: (change: Partial<AudienceFilters>) => void }) {
  return (
    <>
      <select
        aria-label="Catalogue"
        value={filters.catalog}
        onChange={(event) => onChange({ catalog: event.target.value as AudienceFilters['catalog'] })}
        data-testid="audiences-filter-catalog"
      >
        <option value="">Catalogue et personnalisées</option>
        <option value="true">Catalogue</option>
        <option value="false">Personnalisées</option>
      </select>
      <select
        aria-label="Canal"
        value={filters.type}
        onChange={(event) => onChange({ type: event.target.value as AudienceType | '' })}
        data-testid="audiences-filter-type"
      >
        <option value="">Tous les canaux</option>
        {AUDIENCE_TYPES.map((type) => (
          <option key={type} value={type}>
            {TYPE_LABELS[type]}
          </option>
        ))}
      </select>
      <select
        aria-label="Area"
        value={filters.area}
        onChange={(event) => onChange({ area: event.target.value as Area | '' })}
        data-testid="audiences-filter-area"
      >
        <option value="">Toutes les areas</option>
        {AREAS.map((area) => (
          <option key={area} value={area}>
            {area}
          </option>
        ))}
      </select>
    </>
  );
}

/** The table's columns (spec §2); the selection and action columns are for writers only. */
function audienceColumns({
  canWrite,
  selected,
  onToggleSelected,
  order,
  onToggleOrder,
}: {
  canWrite: boolean;
  selected: ReadonlySet<number>;
  onToggleSelected: (id: number) => void;
  order: AudienceFilters['order'];
  onToggleOrder: () => void;
}): Column<AudienceRow>[] {
  return [
    ...(canWrite
      ? [
          {
            id: 'select',
            header: <span className="visually-hidden">Sélection</span>,
            cell: (row: AudienceRow) => (
              <input
                type="checkbox"
                aria-label={`Sélectionner ${row.name}`}
                checked={selected.has(row.id)}
                onChange={() => onToggleSelected(row.id)}
                data-testid={`audience-select-${row.id}`}
              />
            ),
          },
        ]
      : []),
    {
      id: 'name',
      header: 'Nom',
      cell: (row) =>
        canWrite ? (
          <Link to={`/audiences/${row.id}`} data-testid={`audience-link-${row.id}`}>
            {row.name}
          </Link>
        ) : (
          <span>{row.name}</span>
        ),
    },
    { id: 'type', header: 'Canal', cell: (row) => (row.type ? TYPE_LABELS[row.type] : '—') },
    {
      id: 'area',
      header: 'Area',
      cell: (row) => (
        <span title={row.area} data-area={row.area}>
          <AreaFlag area={row.area} />
        </span>
      ),
    },
    {
      id: 'createdAt',
      header: (
        <button
          type="button"
          className="link"
          onClick={onToggleOrder}
          data-testid="audiences-sort-created"
          aria-label={`Trier par date de création (${order === 'DESC' ? 'décroissant' : 'croissant'})`}
        >
          Création {order === 'DESC' ? '▼' : '▲'}
        </button>
      ),
      cell: (row) => formatDate(row.createdAt / 1000),
    },
    { id: 'used', header: 'Utilisée', cell: (row) => (row.isUsed ? 'Oui' : 'Non') },
    { id: 'catalog', header: 'Catalogue', cell: (row) => (row.isInCatalog ? 'Oui' : 'Non') },
    { id: 'author', header: 'Auteur', cell: (row) => row.author },
    ...(canWrite
      ? [
          {
            id: 'actions',
            header: <span className="visually-hidden">Actions</span>,
            cell: (row: AudienceRow) => <AudienceRowMenu row={row} />,
          },
        ]
      : []),
  ];
}

/** The audience list, /audiences (spec §2). */
export default function AudiencesListPage() {
  const rows = useAtomValue(audienceList.itemsAtom);
  const total = useAtomValue(audienceList.totalAtom);
  const loading = useAtomValue(audienceList.loadingAtom);
  const term = useAtomValue(audienceList.termAtom);
  const search = useSetAtom(audienceList.searchAtom);
  const [filters, setFilters] = useAtom(audienceList.filtersAtom);
  const selected = useAtomValue(selectedAudiencesAtom);
  const load = useSetAtom(audienceList.loadAtom);
  const toggleSelected = useSetAtom(toggleSelectedAtom);
  const toggleOrder = useSetAtom(toggleOrderAtom);
  const bulkDelete = useSetAtom(bulkDeleteAtom);
  const setPendingNew = useSetAtom(pendingNewAudienceAtom);
  const roles = useAtomValue(rolesAtom);
  // Spec §6: names are links and row actions are shown to the audience writers (CSM_LEAD and ADMIN) only.
  const canWrite = isAllowed(audienceWriters, roles);
  const confirm = useConfirm();
  const navigate = useNavigate();

  // Back on the list, a new audience started earlier and never opened is forgotten.
  useEffect(() => setPendingNew(null), [setPendingNew]);

  // The first page loads on arrival; typing waits for a pause (searchAtom); a filter reloads at once.
  useEffect(() => {
    void load(0);
  }, [load]);

  const setFilter = (change: Partial<AudienceFilters>) => {
    setFilters({ ...filters, ...change });
    void load(0);
  };

  const loadMore = useCallback(() => void load(rows.length), [load, rows.length]);

  const createOfType = (type: AudienceType) => {
    setPendingNew({ type });
    navigate('/audiences/new');
  };

  const askBulkDelete = async () => {
    if (await confirm(AUDIENCE_MESSAGES.confirmBulkDelete(selected.size))) await bulkDelete();
  };

  const columns = audienceColumns({
    canWrite,
    selected,
    onToggleSelected: toggleSelected,
    order: filters.order,
    onToggleOrder: () => void toggleOrder(),
  });

  return (
    <section className="audiences-page" aria-label="Audiences">
      <div className="toolbar">
        <h1 className="screen-title">Audiences</h1>
        {canWrite && (
          <select
            aria-label="Nouvelle audience"
            value=""
            onChange={(event) => event.target.value && createOfType(event.target.value as AudienceType)}
            data-testid="audiences-create"
          >
            <option value="">Nouvelle audience…</option>
            {AUDIENCE_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        )}
        <input
          type="search"
          placeholder="Rechercher..."
          aria-label="Rechercher"
          value={term}
          onChange={(event) => search(event.target.value)}
          data-testid="audiences-search"
        />
        <AudienceFilterSelects filters={filters} onChange={setFilter} />
        {canWrite && (
          <button
            type="button"
            className="danger"
            disabled={selected.size === 0}
            onClick={() => void askBulkDelete()}
            data-testid="audiences-bulk-delete"
          >
            Supprimer la sélection
          </button>
        )}
        <span className="count" data-testid="audiences-total">
          {total === null ? 'Chargement…' : `${total} audience${total > 1 ? 's' : ''}`}
        </span>
      </div>
      <DataTable
        testId="audiences-table"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `audience-row-${row.id}`, 'data-name': row.name })}
        hasMore={total !== null && rows.length < total}
        loading={loading || total === null}
        onLoadMore={loadMore}
        loadMarginPx={LIST_LOAD_MARGIN_PX}
        emptyText={term ? 'Aucune audience ne correspond à la recherche' : 'Aucune audience'}
      />
      {/* (docs/audience-history.md) ADMIN restores a deleted audience from its history (the server refuses the others). */}
      {isAllowed(audienceRestorers, roles) && <DeletedAudiencesPanel onRestored={() => void load(0)} />}
    </section>
  );
}

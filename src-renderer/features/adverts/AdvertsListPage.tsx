import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ContentRow } from '@shared/contract/content';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { ADVERT_TYPES, canOpenAudience, formatDate, isAdvertReadOnly } from '@shared/rules/advert-screens';
import { modalAtom } from '../../lib/modal';
import { rolesAtom } from '../../lib/session';
import { AdBlockerAlert, SortHeader, StatusIconView, type SortOrder } from '../../lib/content/widgets';
import { HoverPreview } from '../../lib/content/preview/HoverPreview';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable, type Column } from '../../ui/DataTable';
import { FilterBar, type FilterDef } from '../../ui/FilterBar';
import {
  advertList,
  advertMetaAudiencesAtom,
  archiveAdvertAtom,
  deleteAdvertAtom,
  duplicateAdvertAtom,
  exportAdvertsAtom,
  loadAdvertMetaAtom,
  type AdvertListFilters,
} from './atoms';
import { AdvertImportDialog } from './AdvertImportDialog';
import { advertApi } from './api';

const SEARCH_DEBOUNCE_MS = 300;
const yesNo = (yes: string, no: string) => [
  { label: yes, value: true },
  { label: no, value: false },
];

/** The advert list (adverts-articles.md §2.1), also the home screen. SALES reads it only (§6). */
export default function AdvertsListPage() {
  const rows = useAtomValue(advertList.itemsAtom);
  const total = useAtomValue(advertList.totalAtom);
  const loading = useAtomValue(advertList.loadingAtom);
  const [term, setTerm] = useAtom(advertList.termAtom);
  const [filters, setFilters] = useAtom(advertList.filtersAtom);
  const load = useSetAtom(advertList.loadAtom);
  const roles = useAtomValue(rolesAtom);
  const audiences = useAtomValue(advertMetaAudiencesAtom);
  const loadMeta = useSetAtom(loadAdvertMetaAtom);
  const archive = useSetAtom(archiveAdvertAtom);
  const duplicate = useSetAtom(duplicateAdvertAtom);
  const remove = useSetAtom(deleteAdvertAtom);
  const exportCsv = useSetAtom(exportAdvertsAtom);
  const setModal = useSetAtom(modalAtom);
  const navigate = useNavigate();
  const readOnly = isAdvertReadOnly(roles);
  const audienceLinks = canOpenAudience(roles);

  useEffect(() => {
    void loadMeta();
  }, [loadMeta]);

  // The first page loads at once; a new term waits for a pause in typing; filters and sorting reload at once.
  const firstLoad = useRef(true);
  useEffect(() => {
    const delay = firstLoad.current ? 0 : SEARCH_DEBOUNCE_MS;
    firstLoad.current = false;
    const timer = setTimeout(() => void load(0), delay);
    return () => clearTimeout(timer);
  }, [term, load]);
  const changeFilters = (next: AdvertListFilters) => {
    setFilters(next);
    void load(0);
  };
  const sort = (field: string, order: SortOrder) => changeFilters({ ...filters, orderBy: field as AdvertListFilters['orderBy'], order });
  const loadMore = useCallback(() => void load(rows.length), [load, rows.length]);

  const filterDefs = useMemo<FilterDef<AdvertListFilters>[]>(
    () => [
      { kind: 'choice', key: 'published', label: 'Publication', options: yesNo('Publiées', 'Non publiées') },
      { kind: 'choice', key: 'archived', label: 'Archivées', options: yesNo('Archivées', 'Non archivées') },
      { kind: 'choice', key: 'isFree', label: 'Gratuité', options: yesNo('Gratuites', 'Payantes') },
      {
        kind: 'choice',
        key: 'isExpert',
        label: 'Expert',
        options: [
          { label: 'ROLE_EXPERT', value: 'ROLE_EXPERT' },
          { label: 'NOT:ROLE_EXPERT', value: 'NOT:ROLE_EXPERT' },
        ],
      },
      { kind: 'choice', key: 'isInCatalog', label: 'Audience', options: yesNo('Catalogue', 'Sur mesure') },
      { kind: 'choice', key: 'type', label: 'Type', options: ADVERT_TYPES.map((type) => ({ label: type, value: type })) },
      { kind: 'multi', key: 'role', label: 'Rôles', options: ['ROLE_EXPERT', 'ROLE_USER', 'ROLE_PROSPECT'].map((role) => ({ label: role, value: role })) },
      { kind: 'multi', key: 'professions', label: 'Professions', options: PROFESSIONS.map((item) => ({ label: item.name, value: item.id })) },
      { kind: 'multi', key: 'specialties', label: 'Spécialités', options: SPECIALTIES.map((item) => ({ label: item.name, value: item.id })) },
      { kind: 'multi', key: 'audiences', label: 'Audiences', options: audiences.map((item) => ({ label: item.name, value: item.id })) },
      {
        kind: 'multi',
        key: 'countries',
        label: 'Pays',
        options: [
          { label: 'France', value: 72 },
          { label: 'Espagne', value: 722 },
        ],
      },
    ],
    [audiences],
  );

  const header = (field: string, label: string) => <SortHeader field={field} label={label} orderBy={filters.orderBy} order={filters.order} onSort={sort} />;

  const columns: Column<ContentRow>[] = [
    {
      id: 'id',
      header: header('id', 'Id'),
      // Hovering the id shows the magnified preview (§2.1).
      cell: (row) => <HoverPreview id={row.id} kind="advert" makeApi={advertApi}><span title={`Publicité ${row.id}`}>{row.id}</span></HoverPreview>,
    },
    { id: 'type', header: header('type', 'Type'), cell: (row) => row.type ?? '—' },
    {
      id: 'name',
      header: header('name', 'Titre'),
      cell: (row) => (
        <Link to={`/adverts/edit/${row.id}`} data-testid={`advert-name-${row.id}`}>
          {row.name || '(sans nom)'}
        </Link>
      ),
    },
    {
      id: 'infos',
      header: 'Infos',
      cell: (row) => (
        <div className="row-infos">
          <span>{row.title}</span>
          {row.source ? (
            <a href={row.source} target="_blank" rel="noreferrer noopener" className="source-link">
              {row.source}
            </a>
          ) : null}
        </div>
      ),
    },
    {
      id: 'audience',
      header: 'Audience',
      cell: (row) => (
        <span className="audience-tags">
          {row._$audiences.map((audience) =>
            audienceLinks ? (
              <a key={audience.id} className="tag" href={`/audiences/${audience.id}`} target="_blank" rel="noreferrer noopener" data-testid={`audience-link-${audience.id}`}>
                {audience.name}
              </a>
            ) : (
              <span key={audience.id} className="tag" data-testid={`audience-text-${audience.id}`}>
                {audience.name}
              </span>
            ),
          )}
        </span>
      ),
    },
    { id: 'published', header: header('published', 'Publié'), cell: (row) => (row.published ? 'Oui' : 'Non') },
    { id: 'weight', header: header('weight', 'Prios'), cell: (row) => row.weight },
    { id: 'updatedAt', header: header('updatedAt', 'Modifié le'), cell: (row) => (row.updatedAt ? formatDate(row.updatedAt) : '—') },
    { id: 'status', header: 'Statut', cell: (row) => <StatusIconView item={row} testId={`status-${row.id}`} /> },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      cell: (row) => (
        <span className="row-actions">
          <button type="button" className="link" onClick={() => navigate(`/adverts/edit/${row.id}`)} data-testid={`advert-edit-${row.id}`}>
            {readOnly ? 'Voir' : 'Éditer'}
          </button>
          {!readOnly && (
            <>
              {!row.archived && (
                <button type="button" className="link" onClick={() => void archive(row)} data-testid={`advert-archive-${row.id}`}>
                  Archiver
                </button>
              )}
              <button type="button" className="link" onClick={() => void duplicate(row.id)} data-testid={`advert-duplicate-${row.id}`}>
                Dupliquer
              </button>
              <ConfirmButton className="link danger" message={M.confirmDelete} onConfirm={() => void remove(row.id)} testId={`advert-delete-${row.id}`}>
                Supprimer
              </ConfirmButton>
            </>
          )}
        </span>
      ),
    },
  ];

  return (
    <section className="content-list" aria-label="Publicités" data-testid="adverts-page">
      <AdBlockerAlert />
      <div className="toolbar">
        {!readOnly && (
          <Link to="/adverts/edit/new" className="button primary" data-testid="advert-new">
            {M.newPost}
          </Link>
        )}
        <input type="search" placeholder="Rechercher..." aria-label="Rechercher" value={term} onChange={(event) => setTerm(event.target.value)} data-testid="adverts-search" />
        <span className="count" data-testid="adverts-total">
          {total === null ? 'Chargement…' : `${total} publicité${total > 1 ? 's' : ''}`}
        </span>
        <span className="toolbar-spacer" />
        <button type="button" className="secondary" onClick={() => void exportCsv()} data-testid="adverts-export">
          Export CSV
        </button>
        {!readOnly && (
          <button type="button" className="secondary" onClick={() => setModal(<AdvertImportDialog onClose={() => setModal(null)} />)} data-testid="adverts-import">
            Import CSV
          </button>
        )}
        <Link to="/adverts/migration" className="button secondary" data-testid="adverts-migration">
          Migrations
        </Link>
      </div>
      <FilterBar defs={filterDefs} filters={filters} onChange={changeFilters} testId="advert-filters" />
      <DataTable
        testId="adverts-table"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `advert-row-${row.id}`, 'data-name': row.name })}
        hasMore={total !== null && rows.length < total}
        loading={loading || total === null}
        onLoadMore={loadMore}
        emptyText={term ? 'Aucune publicité ne correspond à la recherche' : 'Aucune publicité'}
      />
    </section>
  );
}

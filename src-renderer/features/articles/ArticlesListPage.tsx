import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ContentRow } from '@shared/contract/content';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { AREAS } from '@shared/rules/audiences';
import { ARTICLE_SCROLL_DEBOUNCE_MS, ARTICLE_SCROLL_THRESHOLD_PX, ARTICLE_TYPES, formatDate, isAdvertReadOnly } from '@shared/rules/advert-screens';
import { rolesAtom } from '../../lib/session';
import { SortHeader, StatusIconView, useNearBottom, type SortOrder } from '../../lib/content/widgets';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable, type Column } from '../../ui/DataTable';
import { FilterBar, type FilterDef } from '../../ui/FilterBar';
import { archiveArticleAtom, articleList, deleteArticleAtom, duplicateArticleAtom, type ArticleListFilters } from './atoms';

const SEARCH_DEBOUNCE_MS = 300;
const yesNo = (yes: string, no: string) => [
  { label: yes, value: true },
  { label: no, value: false },
];

/** The article list (adverts-articles.md §2.4): its filters and sorting, the row menu, scroll loading at 1000 px. */
export default function ArticlesListPage() {
  const rows = useAtomValue(articleList.itemsAtom);
  const total = useAtomValue(articleList.totalAtom);
  const loading = useAtomValue(articleList.loadingAtom);
  const [term, setTerm] = useAtom(articleList.termAtom);
  const [filters, setFilters] = useAtom(articleList.filtersAtom);
  const load = useSetAtom(articleList.loadAtom);
  const roles = useAtomValue(rolesAtom);
  const archive = useSetAtom(archiveArticleAtom);
  const duplicate = useSetAtom(duplicateArticleAtom);
  const remove = useSetAtom(deleteArticleAtom);
  const navigate = useNavigate();
  const readOnly = isAdvertReadOnly(roles);

  const firstLoad = useRef(true);
  useEffect(() => {
    const delay = firstLoad.current ? 0 : SEARCH_DEBOUNCE_MS;
    firstLoad.current = false;
    const timer = setTimeout(() => void load(0), delay);
    return () => clearTimeout(timer);
  }, [term, load]);
  const changeFilters = (next: ArticleListFilters) => {
    setFilters(next);
    void load(0);
  };
  const sort = (field: string, order: SortOrder) => changeFilters({ ...filters, orderBy: field as ArticleListFilters['orderBy'], order });

  // §2.4: the next page loads once the bottom is within 1000 px, debounced 250 ms.
  const hasMore = total !== null && rows.length < total;
  useNearBottom(() => void load(rows.length), hasMore && !loading, ARTICLE_SCROLL_THRESHOLD_PX, ARTICLE_SCROLL_DEBOUNCE_MS);

  const filterDefs = useMemo<FilterDef<ArticleListFilters>[]>(
    () => [
      { kind: 'choice', key: 'published', label: 'Publication', options: yesNo('Publiés', 'Non publiés') },
      { kind: 'choice', key: 'isPinned', label: 'Épinglés', options: yesNo('Épinglés', 'Non épinglés') },
      { kind: 'choice', key: 'archived', label: 'Archivés', options: yesNo('Archivés', 'Non archivés') },
      { kind: 'choice', key: 'type', label: 'Type', options: ARTICLE_TYPES.map((type) => ({ label: type, value: type })) },
      { kind: 'multi', key: 'professions', label: 'Professions', options: PROFESSIONS.map((item) => ({ label: item.name, value: item.id })) },
      { kind: 'multi', key: 'specialties', label: 'Spécialités', options: SPECIALTIES.map((item) => ({ label: item.name, value: item.id })) },
      { kind: 'multi', key: 'areas', label: 'Areas', options: AREAS.map((area) => ({ label: area, value: area })) },
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
    [],
  );

  const header = (field: string, label: string) => <SortHeader field={field} label={label} orderBy={filters.orderBy} order={filters.order} onSort={sort} />;
  const columns: Column<ContentRow>[] = [
    { id: 'id', header: header('id', 'Id'), cell: (row) => <span title={`Contenu ${row.id}`}>{row.id}</span> },
    { id: 'type', header: header('type', 'Type'), cell: (row) => row.type ?? '—' },
    {
      id: 'name',
      header: header('name', 'Titre'),
      cell: (row) => (
        <Link to={`/articles/edit/${row.id}`} data-testid={`article-name-${row.id}`}>
          {row.name || '(sans nom)'}
        </Link>
      ),
    },
    { id: 'published', header: header('published', 'Publié'), cell: (row) => (row.published ? 'Oui' : 'Non') },
    { id: 'isPinned', header: header('isPinned', 'Épinglé'), cell: (row) => (row.isPinned ? 'Oui' : 'Non') },
    { id: 'updatedAt', header: header('updatedAt', 'Modifié le'), cell: (row) => (row.updatedAt ? formatDate(row.updatedAt) : '—') },
    { id: 'status', header: 'Statut', cell: (row) => <StatusIconView item={row} testId={`status-${row.id}`} /> },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      cell: (row) => (
        <span className="row-actions">
          <button type="button" className="link" onClick={() => navigate(`/articles/edit/${row.id}`)} data-testid={`article-edit-${row.id}`}>
            {readOnly ? 'Voir' : 'Éditer'}
          </button>
          {!readOnly && (
            <>
              {!row.archived && (
                <button type="button" className="link" onClick={() => void archive(row)} data-testid={`article-archive-${row.id}`}>
                  Archiver
                </button>
              )}
              <button type="button" className="link" onClick={() => void duplicate(row.id)} data-testid={`article-duplicate-${row.id}`}>
                Dupliquer
              </button>
              <ConfirmButton className="link danger" message={M.confirmDelete} onConfirm={() => void remove(row.id)} testId={`article-delete-${row.id}`}>
                Supprimer
              </ConfirmButton>
            </>
          )}
        </span>
      ),
    },
  ];

  return (
    <section className="content-list" aria-label="Contenus" data-testid="articles-page">
      <div className="toolbar">
        {!readOnly && (
          <Link to="/articles/edit/new" className="button primary" data-testid="article-new">
            Nouveau contenu
          </Link>
        )}
        <input type="search" placeholder="Rechercher..." aria-label="Rechercher" value={term} onChange={(event) => setTerm(event.target.value)} data-testid="articles-search" />
        <span className="count" data-testid="articles-total">
          {total === null ? 'Chargement…' : `${total} contenu${total > 1 ? 's' : ''}`}
        </span>
      </div>
      <FilterBar defs={filterDefs} filters={filters} onChange={changeFilters} testId="article-filters" />
      <DataTable
        testId="articles-table"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `article-row-${row.id}`, 'data-name': row.name })}
        loading={loading || total === null}
        emptyText={term ? 'Aucun contenu ne correspond à la recherche' : 'Aucun contenu'}
      />
    </section>
  );
}

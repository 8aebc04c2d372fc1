import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { ContentRow } from '@shared/contract/content';
import { AREAS } from '@shared/rules/audiences';
import { ARTICLE_TYPES } from '@shared/rules/advert-screens/content-types';
import { isAdvertReadOnly } from '@shared/rules/advert-screens/editor-sections';
import { ARTICLE_SCROLL_DEBOUNCE_MS, ARTICLE_SCROLL_THRESHOLD_PX } from '@shared/rules/advert-screens/list';
import { rolesAtom } from '../../lib/session';
import { HoverPreview, contentColumns, COUNTRY_OPTIONS, ListSearch, listSorting, PROFESSION_OPTIONS, SPECIALTY_OPTIONS, yesNo } from '../content';
import { DataTable, type Column } from '../../ui/DataTable';
import { FilterBar, type FilterDef } from '../../ui/FilterBar';
import { articleApi } from './api';
import { articleList, articleRowActions, type ArticleListFilters } from './atoms';

/** The article list (adverts-articles.md §2.4): its filters and sorting, the row menu, scroll loading at 1000 px. */
export default function ArticlesListPage() {
  const rows = useAtomValue(articleList.itemsAtom);
  const total = useAtomValue(articleList.totalAtom);
  const loading = useAtomValue(articleList.loadingAtom);
  const term = useAtomValue(articleList.termAtom);
  const search = useSetAtom(articleList.searchAtom);
  const [filters, setFilters] = useAtom(articleList.filtersAtom);
  const load = useSetAtom(articleList.loadAtom);
  const roles = useAtomValue(rolesAtom);
  const readOnly = isAdvertReadOnly(roles);

  // The first page loads on arrival; a new term waits for a pause in typing (searchAtom).
  useEffect(() => {
    void load(0);
  }, [load]);
  const { changeFilters, header, sortedBy } = listSorting(filters, setFilters, load);

  // §2.4: the next page loads once the bottom is within 1000 px, debounced 250 ms.
  const hasMore = total !== null && rows.length < total;

  const filterDefs = useMemo<FilterDef<ArticleListFilters>[]>(
    () => [
      { kind: 'choice', key: 'published', label: 'Publication', options: yesNo('Publiés', 'Non publiés') },
      { kind: 'choice', key: 'isPinned', label: 'Épinglés', options: yesNo('Épinglés', 'Non épinglés') },
      { kind: 'choice', key: 'archived', label: 'Archivés', options: yesNo('Archivés', 'Non archivés') },
      { kind: 'choice', key: 'type', label: 'Type', options: ARTICLE_TYPES.map((type) => ({ label: type, value: type })) },
      { kind: 'multi', key: 'professions', label: 'Professions', options: PROFESSION_OPTIONS },
      { kind: 'multi', key: 'specialties', label: 'Spécialités', options: SPECIALTY_OPTIONS },
      { kind: 'multi', key: 'areas', label: 'Areas', options: AREAS.map((area) => ({ label: area, value: area })) },
      { kind: 'multi', key: 'countries', label: 'Pays', options: COUNTRY_OPTIONS },
    ],
    [],
  );

  const shared = contentColumns({
    prefix: 'article',
    editPath: (id) => `/articles/edit/${id}`,
    idTitle: (id) => `Contenu ${id}`,
    header,
    readOnly,
    actions: articleRowActions,
    // Hovering the id shows the magnified preview (§2.4), as on the advert list.
    previewSlot: (row, id) => (
      <HoverPreview id={row.id} kind="article" makeApi={articleApi}>
        {id}
      </HoverPreview>
    ),
  });
  const columns: Column<ContentRow>[] = [
    shared.id,
    shared.type,
    shared.name,
    shared.published,
    { id: 'isPinned', header: header('isPinned', 'Épinglé'), cell: (row) => (row.isPinned ? 'Oui' : 'Non') },
    shared.updatedAt,
    shared.status,
    shared.actions,
  ];

  return (
    <section className="content-list" aria-label="Contenus" data-testid="articles-page">
      <div className="toolbar">
        <h1 className="screen-title">Contenus</h1>
        {!readOnly && (
          <Link to="/articles/edit/new" className="button primary" data-testid="article-new">
            Nouveau contenu
          </Link>
        )}
        <ListSearch term={term} onTerm={search} total={total} noun="contenu" testIdPrefix="articles" />
      </div>
      <FilterBar defs={filterDefs} filters={filters} onChange={changeFilters} testId="article-filters" />
      <DataTable
        testId="articles-table"
        columns={columns}
        sortedBy={sortedBy}
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `article-row-${row.id}`, 'data-name': row.name })}
        loading={loading || total === null}
        hasMore={hasMore}
        onLoadMore={() => void load(rows.length)}
        loadMarginPx={ARTICLE_SCROLL_THRESHOLD_PX}
        loadDebounceMs={ARTICLE_SCROLL_DEBOUNCE_MS}
        emptyText={term ? 'Aucun contenu ne correspond à la recherche' : 'Aucun contenu'}
      />
    </section>
  );
}

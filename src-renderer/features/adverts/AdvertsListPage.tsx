import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { ContentRow } from '@shared/contract/content';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { ADVERT_TYPES } from '@shared/rules/advert-screens/content-types';
import { canOpenAudience, isAdvertReadOnly } from '@shared/rules/advert-screens/editor-sections';
import { loadMetaAtom } from '../../lib/meta';
import { modalAtom } from '../../lib/modal';
import { rolesAtom } from '../../lib/session';
import {
  AdBlockerAlert,
  HoverPreview,
  contentColumns,
  COUNTRY_OPTIONS,
  ListSearch,
  listSorting,
  PROFESSION_OPTIONS,
  SPECIALTY_OPTIONS,
  yesNo,
} from '../content';
import { DataTable, type Column } from '../../ui/DataTable';
import { FilterBar, type FilterDef } from '../../ui/FilterBar';
import { advertList, advertMetaAudiencesAtom, advertRowActions, exportAdvertsAtom, type AdvertListFilters } from './atoms';
import { AdvertImportDialog } from './AdvertImportDialog';
import { advertApi } from './api';

/** An advert's audiences as tags: links that open the audience in a new window for those who may open it, plain text otherwise. */
function AudienceTags(props: { audiences: ContentRow['_$audiences']; links: boolean }) {
  return (
    <span className="audience-tags">
      {props.audiences.map((audience) =>
        props.links ? (
          <a
            key={audience.id}
            className="tag"
            href={`/audiences/${audience.id}`}
            target="_blank"
            rel="noreferrer noopener"
            data-testid={`audience-link-${audience.id}`}
          >
            {audience.name}
          </a>
        ) : (
          <span key={audience.id} className="tag" data-testid={`audience-text-${audience.id}`}>
            {audience.name}
          </span>
        ),
      )}
    </span>
  );
}

/** The advert list (adverts-articles.md §2.1), also the home screen. SALES reads it only (§6). */
/** The advert list's filters (spec §3 List filters); the audiences are the list's meta. */
function advertFilterDefs(audiences: readonly { id: number; name: string }[]): FilterDef<AdvertListFilters>[] {
  return [
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
    {
      kind: 'multi',
      key: 'role',
      label: 'Rôles',
      options: ['ROLE_EXPERT', 'ROLE_USER', 'ROLE_PROSPECT'].map((role) => ({ label: role, value: role })),
    },
    { kind: 'multi', key: 'professions', label: 'Professions', options: PROFESSION_OPTIONS },
    { kind: 'multi', key: 'specialties', label: 'Spécialités', options: SPECIALTY_OPTIONS },
    { kind: 'multi', key: 'audiences', label: 'Audiences', options: audiences.map((item) => ({ label: item.name, value: item.id })) },
    { kind: 'multi', key: 'countries', label: 'Pays', options: COUNTRY_OPTIONS },
  ];
}

export default function AdvertsListPage() {
  const rows = useAtomValue(advertList.itemsAtom);
  const total = useAtomValue(advertList.totalAtom);
  const loading = useAtomValue(advertList.loadingAtom);
  const term = useAtomValue(advertList.termAtom);
  const search = useSetAtom(advertList.searchAtom);
  const [filters, setFilters] = useAtom(advertList.filtersAtom);
  const load = useSetAtom(advertList.loadAtom);
  const roles = useAtomValue(rolesAtom);
  const audiences = useAtomValue(advertMetaAudiencesAtom);
  const loadMeta = useSetAtom(loadMetaAtom);
  const exportCsv = useSetAtom(exportAdvertsAtom);
  const setModal = useSetAtom(modalAtom);
  const readOnly = isAdvertReadOnly(roles);
  const audienceLinks = canOpenAudience(roles);

  useEffect(() => {
    void loadMeta();
  }, [loadMeta]);

  // The first page loads on arrival; a new term waits for a pause in typing (searchAtom); filters and sorting reload at once.
  useEffect(() => {
    void load(0);
  }, [load]);
  const { changeFilters, header, sortedBy } = listSorting(filters, setFilters, load);
  const loadMore = useCallback(() => void load(rows.length), [load, rows.length]);

  const filterDefs = useMemo(() => advertFilterDefs(audiences), [audiences]);

  const shared = contentColumns({
    prefix: 'advert',
    editPath: (id) => `/adverts/edit/${id}`,
    idTitle: (id) => `Publicité ${id}`,
    header,
    readOnly,
    actions: advertRowActions,
    // Hovering the id shows the magnified preview (§2.1).
    previewSlot: (row, id) => (
      <HoverPreview id={row.id} kind="advert" makeApi={advertApi}>
        {id}
      </HoverPreview>
    ),
  });

  const columns: Column<ContentRow>[] = [
    shared.id,
    shared.type,
    shared.name,
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
      cell: (row) => <AudienceTags audiences={row._$audiences} links={audienceLinks} />,
    },
    shared.published,
    { id: 'weight', header: header('weight', 'Prios'), cell: (row) => row.weight },
    shared.updatedAt,
    shared.status,
    shared.actions,
  ];

  return (
    <section className="content-list" aria-label="Publicités" data-testid="adverts-page">
      <AdBlockerAlert />
      <div className="toolbar">
        <h1 className="screen-title">Publicités</h1>
        {!readOnly && (
          <Link to="/adverts/edit/new" className="button primary" data-testid="advert-new">
            {M.newPost}
          </Link>
        )}
        <ListSearch term={term} onTerm={search} total={total} noun="publicité" testIdPrefix="adverts" />
        <span className="toolbar-spacer" />
        <button type="button" className="secondary" onClick={() => void exportCsv()} data-testid="adverts-export">
          Export CSV
        </button>
        {!readOnly && (
          <button
            type="button"
            className="secondary"
            onClick={() => setModal(<AdvertImportDialog onClose={() => setModal(null)} />)}
            data-testid="adverts-import"
          >
            Import CSV
          </button>
        )}
        {/* Only for those who may run a migration (POST /adverts/migration: not SALES); the screen's guard agrees. */}
        {!readOnly && (
          <Link to="/adverts/migration" className="button secondary" data-testid="adverts-migration">
            Migrations
          </Link>
        )}
      </div>
      <FilterBar defs={filterDefs} filters={filters} onChange={changeFilters} testId="advert-filters" />
      <DataTable
        testId="adverts-table"
        columns={columns}
        sortedBy={sortedBy}
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

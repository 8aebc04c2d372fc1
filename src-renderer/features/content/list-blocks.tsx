import { useSetAtom } from 'jotai';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ContentRow } from '@shared/contract/content';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { formatDate } from '@shared/rules/dates';
import { ConfirmButton } from '../../ui/ConfirmButton';
import type { Column } from '../../ui/DataTable';
import type { FilterOption } from '../../ui/FilterBar';
import type { ContentRowActions } from './row-actions';
import { SortHeader, StatusIconView, type SortOrder } from './widgets';

/**
 * Building blocks of the advert and article lists (adverts-articles.md §2.1, §2.4): the same term search, sorting,
 * filter options and columns, each list adding its own. `prefix` keeps each list's test ids ('advert-edit-3').
 */

export const yesNo = (yes: string, no: string): FilterOption<boolean>[] => [
  { label: yes, value: true },
  { label: no, value: false },
];

export const PROFESSION_OPTIONS: FilterOption<number>[] = PROFESSIONS.map((item) => ({ label: item.name, value: item.id }));
export const SPECIALTY_OPTIONS: FilterOption<number>[] = SPECIALTIES.map((item) => ({ label: item.name, value: item.id }));
export const COUNTRY_OPTIONS: FilterOption<number>[] = [
  { label: 'France', value: 72 },
  { label: 'Espagne', value: 722 },
];

/** Filters and sorting reload the first page at once; `header` makes a sortable column title. */
export function listSorting<F extends { orderBy?: string; order?: SortOrder }>(
  filters: F,
  setFilters: (next: F) => void,
  load: (skip: number) => unknown,
) {
  const changeFilters = (next: F) => {
    setFilters(next);
    void load(0);
  };
  const sort = (field: string, order: SortOrder) => changeFilters({ ...filters, orderBy: field, order });
  const header = (field: string, label: string) => (
    <SortHeader field={field} label={label} orderBy={filters.orderBy} order={filters.order} onSort={sort} />
  );
  // The table's header cell of the sorted column carries aria-sort (DataTable's sortedBy).
  return { changeFilters, header, sortedBy: { column: filters.orderBy, order: filters.order } };
}

export interface ContentColumnOptions {
  prefix: 'advert' | 'article';
  editPath: (id: number) => string;
  /** The id cell's hover title ('Publicité 3'). */
  idTitle: (id: number) => string;
  header: (field: string, label: string) => ReactNode;
  readOnly: boolean;
  /** The list's row actions (row-actions.ts), the same atoms for both lists. */
  actions: ContentRowActions;
  /** Wraps the id cell (the magnified preview on hover, §2.1, §2.4); the id alone without it. */
  previewSlot?: (row: ContentRow, id: ReactNode) => ReactNode;
}

/** The row menu (§2.1, §2.4): edit (view for read-only roles), archive, duplicate, delete with confirmation. */
function RowActions(props: { row: ContentRow; options: ContentColumnOptions }) {
  const { row, options } = props;
  const { prefix } = options;
  const navigate = useNavigate();
  const archive = useSetAtom(options.actions.archiveAtom);
  const duplicate = useSetAtom(options.actions.duplicateAtom);
  const remove = useSetAtom(options.actions.deleteAtom);
  return (
    <span className="row-actions">
      <button type="button" className="link" onClick={() => navigate(options.editPath(row.id))} data-testid={`${prefix}-edit-${row.id}`}>
        {options.readOnly ? 'Voir' : 'Éditer'}
      </button>
      {!options.readOnly && (
        <>
          {!row.archived && (
            <button type="button" className="link" onClick={() => void archive(row)} data-testid={`${prefix}-archive-${row.id}`}>
              Archiver
            </button>
          )}
          <button type="button" className="link" onClick={() => void duplicate(row.id)} data-testid={`${prefix}-duplicate-${row.id}`}>
            Dupliquer
          </button>
          <ConfirmButton className="link danger" message={M.confirmDelete} onConfirm={() => void remove(row)} testId={`${prefix}-delete-${row.id}`}>
            Supprimer
          </ConfirmButton>
        </>
      )}
    </span>
  );
}

/** The columns both lists show, by id; each list puts them in its order beside its own. */
export function contentColumns(
  options: ContentColumnOptions,
): Record<'id' | 'type' | 'name' | 'published' | 'updatedAt' | 'status' | 'actions', Column<ContentRow>> {
  const { header, prefix } = options;
  return {
    id: {
      id: 'id',
      header: header('id', 'Id'),
      cell: (row) => {
        const id = <span title={options.idTitle(row.id)}>{row.id}</span>;
        return options.previewSlot ? options.previewSlot(row, id) : id;
      },
    },
    type: { id: 'type', header: header('type', 'Type'), className: 'cell-nowrap', cell: (row) => row.type ?? '—' },
    name: {
      id: 'name',
      header: header('name', 'Titre'),
      cell: (row) => (
        <Link to={options.editPath(row.id)} data-testid={`${prefix}-name-${row.id}`}>
          {row.name || '(sans nom)'}
        </Link>
      ),
    },
    published: { id: 'published', header: header('published', 'Publié'), cell: (row) => (row.published ? 'Oui' : 'Non') },
    updatedAt: { id: 'updatedAt', header: header('updatedAt', 'Modifié le'), cell: (row) => (row.updatedAt ? formatDate(row.updatedAt) : '—') },
    status: { id: 'status', header: 'Statut', cell: (row) => <StatusIconView item={row} testId={`status-${row.id}`} /> },
    actions: { id: 'actions', header: <span className="visually-hidden">Actions</span>, cell: (row) => <RowActions row={row} options={options} /> },
  };
}

/** The list's term search and its count ('3 publicités', 'Chargement…' before the first answer). */
export function ListSearch(props: { term: string; onTerm: (term: string) => void; total: number | null; noun: string; testIdPrefix: string }) {
  const { total } = props;
  return (
    <>
      <input
        type="search"
        placeholder="Rechercher..."
        aria-label="Rechercher"
        value={props.term}
        onChange={(event) => props.onTerm(event.target.value)}
        data-testid={`${props.testIdPrefix}-search`}
      />
      <span className="count" data-testid={`${props.testIdPrefix}-total`}>
        {total === null ? 'Chargement…' : `${total} ${props.noun}${total > 1 ? 's' : ''}`}
      </span>
    </>
  );
}

import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { TARGET_LIST_HEADERS } from '@shared/messages/targets';
import { CANCELLED_LABEL, CANCELLED_STATUS, DEFAULT_TARGET_LIST_STATUSES, statusClass, statusRank } from '@shared/rules/projects';
import { loadMetaAtom } from '../../lib/meta';
import { useAdjustOnChange } from '../../lib/render-state';
import { useQuery } from '../../lib/use-query';
import { DataTable, type Column } from '../../ui/DataTable';
import './targets.css';
import {
  cellText,
  columnValuesAtom,
  csmOptionsAtom,
  exportTargetsAtom,
  isFilterable,
  loadTargetsAtom,
  searchTargetsAtom,
  TARGET_COLUMNS,
  targetsColumnFiltersAtom,
  targetsCsmAtom,
  targetsHasMoreAtom,
  targetsItemsAtom,
  targetsLoadingAtom,
  targetsOrderAtom,
  targetsSelectionAtom,
  targetsTermAtom,
  toggleSelectionAtom,
  type FilterableColumn,
  type TargetColumn,
  type TargetRow,
} from './atoms';
import { MessageSquare } from 'lucide-react';

/** Spec §9: scroll debounce 150 ms; filter search debounce 280 ms; option names cut at 30 characters. */
const SCROLL_DEBOUNCE_MS = 150;
const FILTER_SEARCH_DEBOUNCE_MS = 280;
const NO_WRAP_COLUMNS = new Set<TargetColumn>([
  'advertId',
  'actionCode',
  'status',
  'type',
  'populationSize',
  'startDate',
  'endDate',
  'goal',
  'checkDate',
]);
const truncate = (text: string) => (text.length > 30 ? `${text.slice(0, 30)}…` : text);

/** The flat list of every action (spec §2 Targets list). */
export default function TargetsPage() {
  const rows = useAtomValue(targetsItemsAtom);
  const loading = useAtomValue(targetsLoadingAtom);
  const hasMore = useAtomValue(targetsHasMoreAtom);
  const term = useAtomValue(targetsTermAtom);
  const search = useSetAtom(searchTargetsAtom);
  const [csm, setCsm] = useAtom(targetsCsmAtom);
  const csmOptions = useAtomValue(csmOptionsAtom);
  const columnFilters = useAtomValue(targetsColumnFiltersAtom);
  const order = useAtomValue(targetsOrderAtom);
  const selection = useAtomValue(targetsSelectionAtom);
  const load = useSetAtom(loadTargetsAtom);
  const loadCsm = useSetAtom(loadMetaAtom);
  const toggle = useSetAtom(toggleSelectionAtom);
  const exportAll = useSetAtom(exportTargetsAtom);
  const navigate = useNavigate();

  useEffect(() => void loadCsm(), [loadCsm]);

  // The first page loads on arrival, and at once on a change of filters, CSM or order; typing waits for a pause
  // (searchTargetsAtom, lib/list.ts). The list clears the selection whenever a first page replaces the rows.
  useEffect(() => {
    void load(0);
  }, [csm, columnFilters, order, load]);

  const loadMore = useCallback(() => void load(rows.length), [load, rows.length]);

  const writeText = (text: string) => navigator.clipboard.writeText(text);

  const columns: Column<TargetRow>[] = [
    {
      id: 'select',
      header: <span className="visually-hidden">Sélection</span>,
      cell: (row) => (
        <input
          type="checkbox"
          aria-label={`Sélectionner ${row.actionCode ?? row.id}`}
          checked={selection.includes(row.id)}
          onChange={(event) => void toggle({ id: row.id, checked: event.target.checked, writeText })}
          data-testid={`target-select-${row.id}`}
        />
      ),
    },
    ...TARGET_COLUMNS.map((column): Column<TargetRow> => ({
      id: column,
      header: <ColumnHeader column={column} />,
      // Dates, codes and numbers never break inside (docs/projects.md, Targets list).
      className: `targets-cell-${column}${NO_WRAP_COLUMNS.has(column) ? ' targets-nowrap' : ''}`,
      cell: (row) => <Cell row={row} column={column} onOpenComments={() => navigate(`/project/edit/${row.projectId}#comment`)} />,
    })),
  ];

  return (
    <section className="targets-page" aria-label="Actions">
      <div className="toolbar">
        <h1 className="screen-title">Actions</h1>
        <label>
          CSM{' '}
          <select value={csm ?? ''} onChange={(event) => setCsm(event.target.value ? Number(event.target.value) : null)} data-testid="targets-csm">
            <option value="">{PROJECT_MESSAGES.allCsm}</option>
            {csmOptions.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        <input
          type="search"
          placeholder="Rechercher un projet, une pub, un code action, un ciblage..."
          aria-label="Rechercher"
          value={term}
          onChange={(event) => search(event.target.value)}
          data-testid="targets-search"
        />
        <button type="button" onClick={() => void exportAll()} data-testid="targets-export">
          Export CSV
        </button>
      </div>
      {/* The grid scrolls sideways inside its own box: the page stays as wide as the window, the toolbar in view. */}
      <div className="targets-scroll" data-testid="targets-scroll">
        <DataTable
          testId="targets-table"
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          rowAttributes={(row) => ({ 'data-testid': `target-row-${row.id}`, 'data-action-code': row.actionCode ?? '' })}
          hasMore={hasMore}
          loading={loading}
          onLoadMore={loadMore}
          loadDebounceMs={SCROLL_DEBOUNCE_MS}
          emptyText="Aucune action"
        />
      </div>
    </section>
  );
}

function Cell({ row, column, onOpenComments }: { row: TargetRow; column: TargetColumn; onOpenComments: () => void }) {
  if (column === 'status') return <span className={`status ${statusClass(row.status)}`}>{row.status}</span>;
  if (column === 'advertId' && row.status === CANCELLED_STATUS) return <small>{CANCELLED_LABEL}</small>;
  if (column === 'projectName') {
    return (
      <span>
        {row.projectName}
        {row.isProjectCommented && (
          <button
            type="button"
            className="link"
            title="Commentaires"
            aria-label="Commentaires du projet"
            onClick={onOpenComments}
            data-testid={`target-comments-${row.id}`}
          >
            <MessageSquare size={14} aria-hidden />
          </button>
        )}
      </span>
    );
  }
  return <span className="targets-text">{cellText(row, column)}</span>;
}

/** The key of a closed menu for useAdjustOnChange: unlike any value. */
const CLOSED = Symbol('closed');

/** A column's header and its dropdown: order, and for value columns a filter search with checkboxes (Enter filters). */
function ColumnHeader({ column }: { column: TargetColumn }) {
  const [open, setOpen] = useState(false);
  const [order, setOrder] = useAtom(targetsOrderAtom);
  const [filters, setFilters] = useAtom(targetsColumnFiltersAtom);
  const fetchValues = useSetAtom(columnValuesAtom);
  const [search, setSearch] = useState('');
  // The search Enter found nothing for: no values and 'Aucun résultat' while it is the one typed.
  const [enterFoundNone, setEnterFoundNone] = useState<string | null>(null);
  const [checked, setChecked] = useState<string[]>([]);

  const filterable = isFilterable(column);
  const query = useQuery(
    ['targets.values', column, search],
    async () => ({ search, found: await fetchValues({ column: column as FilterableColumn, term: search }) }),
    { enabled: open && filterable, debounceMs: search ? FILTER_SEARCH_DEBOUNCE_MS : 0 },
  );
  const found = enterFoundNone === search ? [] : (query.data?.found ?? []);
  // Statuses in the spec's order (1. … 7.), not the text's: the others as the server answers them.
  const values = column === 'status' ? [...found].sort((a, b) => statusRank(a) - statusRank(b)) : found;
  // The search the values answer: 'Aucun résultat' shows once the answer to what is typed is in, not while it loads.
  const answered = enterFoundNone === search ? search : (query.data?.search ?? null);
  // The menu opens on the column's ticked values with an empty search: Enter then applies the ticks as they are.
  // No status filter chosen is the default four (spec §2): ticked as such.
  const chosen = filters[column as FilterableColumn] ?? (column === 'status' ? DEFAULT_TARGET_LIST_STATUSES : undefined);
  const applied = open && filterable ? chosen : CLOSED;
  useAdjustOnChange(applied, () => {
    if (applied !== CLOSED) setChecked(applied ?? []);
  });
  useAdjustOnChange(open, () => {
    if (open) setSearch('');
  });

  /**
   * Enter filters (spec §2): on the ticked values, else on the values matching the search typed (docs/projects.md, Targets list:
   * Enter used to clear the filter then); an empty search with nothing ticked clears the column's filter.
   */
  const apply = async () => {
    if (!filterable) return;
    let chosen = checked;
    const typed = search.trim();
    if (!chosen.length && typed) {
      chosen = await fetchValues({ column: column as FilterableColumn, term: typed });
      if (!chosen.length) return setEnterFoundNone(search);
    }
    const next = { ...filters };
    if (chosen.length) next[column as FilterableColumn] = chosen;
    else delete next[column as FilterableColumn];
    setFilters(next);
    setOpen(false);
  };
  const active = filterable && Boolean(filters[column as FilterableColumn]?.length);
  const sorted = order.orderBy === column ? (order.order === 'ASC' ? ' ▲' : ' ▼') : '';

  return (
    <div className="column-header">
      <button
        type="button"
        className={`link${active ? ' active' : ''}`}
        onClick={() => setOpen(!open)}
        data-testid={`targets-column-${column}`}
        aria-expanded={open}
      >
        {TARGET_LIST_HEADERS[column]}
        {sorted} ▾
      </button>
      {open && (
        <div className="column-menu" role="dialog" aria-label={`Colonne ${TARGET_LIST_HEADERS[column]}`} data-testid={`targets-menu-${column}`}>
          <button type="button" onClick={() => (setOrder({ orderBy: column, order: 'ASC' }), setOpen(false))}>
            {PROJECT_MESSAGES.ascending}
          </button>
          <button type="button" onClick={() => (setOrder({ orderBy: column, order: 'DESC' }), setOpen(false))}>
            {PROJECT_MESSAGES.descending}
          </button>
          {filterable && (
            <>
              <input
                type="search"
                placeholder={PROJECT_MESSAGES.filterPlaceholder}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') void apply();
                }}
                data-testid={`targets-filter-${column}`}
                autoFocus
              />
              <label>
                <input
                  type="checkbox"
                  checked={values.length > 0 && values.every((value) => checked.includes(value))}
                  onChange={(event) =>
                    setChecked(event.target.checked ? [...new Set([...checked, ...values])] : checked.filter((value) => !values.includes(value)))
                  }
                />{' '}
                {PROJECT_MESSAGES.selectAll}
              </label>
              {values.map((value) => (
                <label key={value} title={value}>
                  <input
                    type="checkbox"
                    checked={checked.includes(value)}
                    onChange={(event) => setChecked(event.target.checked ? [...checked, value] : checked.filter((item) => item !== value))}
                  />{' '}
                  {truncate(value)}
                </label>
              ))}
              {values.length === 0 && answered === search && (
                <p className="column-menu-empty" role="status" data-testid={`targets-filter-empty-${column}`}>
                  {PROJECT_MESSAGES.noResult}
                </p>
              )}
              <small>{PROJECT_MESSAGES.resultsLimited}</small>
            </>
          )}
        </div>
      )}
    </div>
  );
}

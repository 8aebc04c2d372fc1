import { atom } from 'jotai';
import type { TargetListColumn } from '@shared/contract/projects/targets';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { formatDay } from '@shared/rules/dates';
import { formatGoal, formatNumber, TARGET_PAGE_SIZE, TARGET_EXPORT_MAX_ROWS } from '@shared/rules/projects';
import type { ApiInput, ApiOutput } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { exportCsvAtom } from '../../lib/file-jobs';
import { createListAtoms } from '../../lib/list';
import { metaAtom } from '../../lib/meta';
import { raiseNoticeAtom } from '../../lib/notices';

export type TargetRow = ApiOutput<'targets.list'>['items'][number];

/** The columns of the flat table (spec §2 /targets), in order. */
export const TARGET_COLUMNS = [
  'projectName',
  'advertId',
  'actionCode',
  'status',
  'type',
  'populationCategory',
  'populationSample',
  'populationSize',
  'startDate',
  'endDate',
  'goal',
  'checkDate',
] as const satisfies readonly TargetListColumn[];
export type TargetColumn = (typeof TARGET_COLUMNS)[number];

/** Columns whose dropdown offers a value filter (the autocomplete knows their values). */
export const FILTERABLE_COLUMNS = ['projectName', 'advertId', 'actionCode', 'status', 'type', 'populationCategory', 'populationSample'] as const;
export type FilterableColumn = (typeof FILTERABLE_COLUMNS)[number];
export const isFilterable = (column: string): column is FilterableColumn => (FILTERABLE_COLUMNS as readonly string[]).includes(column);

/** The rows ticked (copied as text); a first page replacing the rows empties it. */
export const targetsSelectionAtom = atom<number[]>([]);
targetsSelectionAtom.debugLabel = 'targets.list.selection';

/** The flat list (spec §2 /targets): its answer has no total, so another page exists while pages come full (§9). */
export const targetList = createListAtoms('targets.list', {
  debugLabel: 'targets.list',
  pageSize: TARGET_PAGE_SIZE,
  /** Values chosen per column in its dropdown; absent: no filter on the column (status: the default four). */
  initialFilters: {} as Partial<Record<FilterableColumn, string[]>>,
  toInput: ({ skip, limit }, get) => ({ body: { ...get(targetsQueryAtom), skip, limit } }),
  // A new search, filter or order shows other rows: the ticks on the old ones go (a search's own reload included).
  onFirstPage: (set) => set(targetsSelectionAtom, []),
});
export const targetsItemsAtom = targetList.itemsAtom;
export const targetsLoadingAtom = targetList.loadingAtom;
export const targetsHasMoreAtom = targetList.hasMoreAtom;
export const targetsTermAtom = targetList.termAtom;
/** Values chosen per column in its dropdown; absent: no filter on the column (status: the default four). */
export const targetsColumnFiltersAtom = targetList.filtersAtom;
/** Default order: status DESC (spec §2). */
export const targetsOrderAtom = atom<{ orderBy: TargetListColumn; order: 'ASC' | 'DESC' }>({ orderBy: 'status', order: 'DESC' });
targetsOrderAtom.debugLabel = 'targets.list.order';
/** The CSM filter: null is "Tous". */
export const targetsCsmAtom = atom<number | null>(null);
targetsCsmAtom.debugLabel = 'targets.list.csm';
/** The CSM filter's options: meta's CSMs (lib/meta.ts). */
export const csmOptionsAtom = atom((get) => get(metaAtom)?.csm ?? []);
csmOptionsAtom.debugLabel = 'targets.csmOptions';

type ListBody = NonNullable<ApiInput<'targets.list'>['body']>;

/** The request body for the current term, column filters, CSM and order (paging added by the caller). */
export const targetsQueryAtom = atom((get): Omit<ListBody, 'skip' | 'limit'> => {
  const columnFilters = get(targetsColumnFiltersAtom);
  const csm = get(targetsCsmAtom);
  const filters: NonNullable<ListBody['filters']> = {};
  for (const [column, values] of Object.entries(columnFilters) as [FilterableColumn, string[]][]) {
    if (column === 'advertId') filters.advertId = values.map(Number).filter((value) => Number.isInteger(value) && value > 0);
    else (filters as Record<string, string[]>)[column] = values;
  }
  if (csm !== null) filters.keyAccount = [csm];
  const term = get(targetsTermAtom).trim();
  return { ...get(targetsOrderAtom), filters, ...(term ? { term } : {}) };
});
targetsQueryAtom.debugLabel = 'targets.list.query';

/** Loads a page: skip 0 replaces the rows (and the selection), more appends; an older answer never wins. */
export const loadTargetsAtom = targetList.loadAtom;
/** Sets the search term; the first page reloads once typing pauses (lib/list.ts). */
export const searchTargetsAtom = targetList.searchAtom;

/** Values of a column for its dropdown (spec: 15 at most); failures are silently ignored (spec §8). */
export const columnValuesAtom = atom(null, async (get, _set, input: { column: FilterableColumn; term: string }): Promise<string[]> => {
  const result = await get(apiAtom)('projects.search', { params: { label: 'Target' }, query: { field: input.column, term: input.term, limit: 15 } });
  return result.ok ? result.data : [];
});
columnValuesAtom.debugLabel = 'targets.columnValues';

/** A cell as text, as the table shows it. */
export function cellText(row: TargetRow, column: TargetColumn): string {
  switch (column) {
    case 'startDate':
    case 'endDate':
    case 'checkDate':
      return formatDay(row[column]);
    case 'goal':
      return formatGoal(row.goal);
    // Thousands separators, as the goals and the project grid (spec §5; docs/projects.md, Targets list).
    case 'populationSize':
      return row.populationSize == null ? '' : formatNumber(row.populationSize);
    default: {
      const value = row[column];
      return value == null ? '' : String(value);
    }
  }
}

/** The selected rows as tab-separated text, one line each, in the table's order and columns. */
export function selectionAsTsv(rows: TargetRow[], selected: number[]): string {
  const wanted = new Set(selected);
  return rows
    .filter((row) => wanted.has(row.id))
    .map((row) => TARGET_COLUMNS.map((column) => cellText(row, column).replace(/[\t\r\n]+/g, ' ')).join('\t'))
    .join('\n');
}

/** A row checkbox: the selection changes and is copied at once ('Actions copied' / 'Failed to copy actions'). */
export const toggleSelectionAtom = atom(
  null,
  async (get, set, input: { id: number; checked: boolean; writeText: (text: string) => Promise<void> }) => {
    const current = get(targetsSelectionAtom).filter((id) => id !== input.id);
    const selection = input.checked ? [...current, input.id] : current;
    set(targetsSelectionAtom, selection);
    if (!selection.length) return;
    try {
      await input.writeText(selectionAsTsv(get(targetsItemsAtom), selection));
      set(raiseNoticeAtom, PROJECT_NOTICES.actionsCopied);
    } catch {
      set(raiseNoticeAtom, PROJECT_NOTICES.actionsCopyFailed);
    }
  },
);
toggleSelectionAtom.debugLabel = 'targets.toggleSelection';

/** Everything matching (up to 1,000,000 rows), streamed by the server (its own export columns) through main to the file chosen. */
export const exportTargetsAtom = atom(null, async (get, set) => {
  return set(exportCsvAtom, {
    operation: 'targets.export',
    input: { body: { ...get(targetsQueryAtom), skip: 0, limit: TARGET_EXPORT_MAX_ROWS } },
    defaultName: 'actions.csv',
    maxRows: TARGET_EXPORT_MAX_ROWS,
    label: 'Export des actions',
  });
});
exportTargetsAtom.debugLabel = 'targets.export';

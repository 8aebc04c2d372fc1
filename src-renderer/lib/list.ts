import { atom, type Getter, type Setter } from 'jotai';
import type { RendererOperationId } from '@shared/ipc';
import { PLATFORM_NOTICES, withText, type Notice } from '@shared/messages';
import type { ApiInput, ApiOutput } from '../bridge/api';
import { apiAtom } from './bridge';
import { createLatestCall } from './latest-call';
import { raiseNoticeAtom } from './notices';
import { SEARCH_DEBOUNCE_MS } from './query';

type RowId = number | string;

/** The operations that answer a page of rows: `{ items, total }`, or `{ items }` alone (more while a page is full). */
export type ListOperationId = {
  [Id in RendererOperationId]: ApiOutput<Id> extends { items: { id: RowId }[] } ? Id : never;
}[RendererOperationId];

export type ListRow<Id extends ListOperationId> = ApiOutput<Id>['items'][number];

/** What a list asks the server for: the page wanted, the search term and the filters. */
export interface ListRequest<Filters> {
  skip: number;
  limit: number;
  term: string;
  filters: Filters;
}

export interface ListOptions<Id extends ListOperationId, Filters> {
  /** `feature.list`: the atoms are labelled `feature.list.items`, `feature.list.total`, ... */
  debugLabel: string;
  /** Rows per page (spec §9). */
  pageSize: number;
  /** Rows the very first load of the list asks for, when it differs (projects: 8, then 25). */
  firstPageSize?: number;
  /** The operation's input for a request (query or body, as the contract declares it); `get` reads other atoms (order, CSM). */
  toInput: (request: ListRequest<Filters>, get: Getter) => ApiInput<Id>;
  initialFilters?: Filters;
  /** Most rows one call may ask for, when a reload fetches every row shown at once (the contract's limit). */
  maxLimit?: number;
  /** How a failed load is shown; the server's text in it. Default: the store error, an error toast (spec §8). */
  errorNotice?: Notice;
  /** The pause in typing `searchAtom` waits for before it reloads the first page. Default: SEARCH_DEBOUNCE_MS. */
  searchDebounceMs?: number;
  /**
   * Told each time a first page (`loadAtom` at skip 0, a search included) replaced the rows: state kept per row set
   * is reset there (the targets' selection), whoever asked for the page.
   */
  onFirstPage?: (set: Setter) => void;
}

/** Spec §4: a skip of 0 replaces the list; a skip above 0 appends to it, leaving out rows already shown. */
export function mergePage<T extends { id: RowId }>(current: readonly T[], page: readonly T[], skip: number): T[] {
  if (skip === 0) return [...page];
  const seen = new Set(current.map((item) => item.id));
  return [...current, ...page.filter((item) => !seen.has(item.id))];
}

/**
 * The state of one paged list, the same for every feature: rows, total (null until the first answer, so a
 * screen shows its loader rather than '0'; it stays null for operations that answer no total), whether more rows
 * exist, loading, term and filters, and the actions that load, reload and patch rows. A failure raises the error
 * notice with the server's text.
 *
 * An older answer never overwrites a newer one (typing fast in the search box): each request goes through a
 * jotai async atom (lib/latest-call.ts) whose AbortSignal jotai aborts when a newer request replaces it, so the
 * stale answer is dropped by its own signal rather than by comparing request counters. Plain jotai async atoms
 * were chosen over jotai-tanstack-query: the lists need no cache, retries or refetch on focus (spec §4 reloads
 * on each search), only "latest answer wins", which jotai already gives through the signal without another
 * dependency and its second store.
 */
export function createListAtoms<Id extends ListOperationId, Filters = Record<string, never>>(operation: Id, options: ListOptions<Id, Filters>) {
  type Row = ListRow<Id>;
  type Page = { rows: Row[]; total: number | null; lastPageFull: boolean };
  const label = (name: string) => `${options.debugLabel}.${name}`;
  const errorNotice = options.errorNotice ?? PLATFORM_NOTICES.storeError;

  const itemsAtom = atom<Row[]>([]);
  itemsAtom.debugLabel = label('items');
  const totalAtom = atom<number | null>(null);
  totalAtom.debugLabel = label('total');
  const lastPageFullAtom = atom(false);
  lastPageFullAtom.debugLabel = label('lastPageFull');
  /** Whether another page exists: rows shown below the total, or (no total) the last page was full (spec §9). */
  const hasMoreAtom = atom((get) => {
    const total = get(totalAtom);
    return total === null ? get(lastPageFullAtom) : get(itemsAtom).length < total;
  });
  hasMoreAtom.debugLabel = label('hasMore');
  /** Set once the first answer arrived: until then a screen shows 'Loading...' rather than its empty text. */
  const loadedOnceAtom = atom(false);
  loadedOnceAtom.debugLabel = label('loadedOnce');
  const loadingAtom = atom(false);
  loadingAtom.debugLabel = label('loading');
  const termAtom = atom('');
  termAtom.debugLabel = label('term');
  const filtersAtom = atom<Filters>((options.initialFilters ?? {}) as Filters);
  filtersAtom.debugLabel = label('filters');
  const firstLoadDoneAtom = atom(false);
  firstLoadDoneAtom.debugLabel = label('firstLoadDone');
  const searchTimerAtom = atom<ReturnType<typeof setTimeout> | undefined>(undefined);
  searchTimerAtom.debugLabel = label('searchTimer');

  const request = createLatestCall(label('request'), (get, input: ApiInput<Id>) => get(apiAtom)(operation, input));

  /** The rows from `skip` on, or null when a newer request overtook this one or it failed (notice raised). */
  async function fetchRows(get: Getter, set: Setter, skip: number, limit: number): Promise<Page | null> {
    set(loadingAtom, true);
    set(firstLoadDoneAtom, true);
    const input = options.toInput({ skip, limit, term: get(termAtom).trim(), filters: get(filtersAtom) }, get);
    const result = await set(request.runAtom, input);
    if (!result) return null;
    set(loadingAtom, false);
    set(loadedOnceAtom, true);
    if (!result.ok) {
      set(raiseNoticeAtom, withText(errorNotice, result.errorMsg));
      return null;
    }
    const page = result.data as { items: Row[]; total?: number };
    return { rows: page.items, total: page.total ?? null, lastPageFull: page.items.length >= limit };
  }

  function apply(set: Setter, rows: Row[], page: Page): void {
    set(itemsAtom, rows);
    set(totalAtom, page.total);
    set(lastPageFullAtom, page.lastPageFull);
  }

  /**
   * Loads the page at `skip`: 0 replaces the rows (new search, filters), more appends (infinite scroll).
   * Resolves to whether its answer was applied.
   */
  const loadAtom = atom(null, async (get, set, skip: number): Promise<boolean> => {
    // A first page asked for now (filters, sorting) makes a pending search reload needless.
    if (skip === 0) clearTimeout(get(searchTimerAtom));
    const limit = !get(firstLoadDoneAtom) && options.firstPageSize ? options.firstPageSize : options.pageSize;
    const page = await fetchRows(get, set, skip, limit);
    if (!page) return false;
    apply(set, mergePage(get(itemsAtom), page.rows, skip), page);
    if (skip === 0) options.onFirstPage?.(set);
    return true;
  });
  loadAtom.debugLabel = label('load');

  /** Sets the search term; the first page reloads once typing pauses (`searchDebounceMs`), one call for a word typed fast. */
  const searchAtom = atom(null, (get, set, term: string) => {
    set(termAtom, term);
    clearTimeout(get(searchTimerAtom));
    set(
      searchTimerAtom,
      setTimeout(() => void set(loadAtom, 0), options.searchDebounceMs ?? SEARCH_DEBOUNCE_MS),
    );
  });
  searchAtom.debugLabel = label('search');

  /** Fetches again every row shown (at least a page), so the table matches the server after a refused write. */
  const reloadAtom = atom(null, async (get, set): Promise<boolean> => {
    const limit = Math.min(Math.max(get(itemsAtom).length, options.pageSize), options.maxLimit ?? 500);
    const page = await fetchRows(get, set, 0, limit);
    if (!page) return false;
    apply(set, page.rows, page);
    return true;
  });
  reloadAtom.debugLabel = label('reload');

  /** Puts the server's version of a row in place. */
  const replaceItemAtom = atom(null, (get, set, row: Row) => {
    set(
      itemsAtom,
      get(itemsAtom).map((item) => (item.id === row.id ? row : item)),
    );
  });
  replaceItemAtom.debugLabel = label('replaceItem');

  /** Takes a deleted row out, and one off the total. */
  const removeItemAtom = atom(null, (get, set, id: Row['id']) => {
    const before = get(itemsAtom);
    const after = before.filter((item) => item.id !== id);
    set(itemsAtom, after);
    const total = get(totalAtom);
    if (total !== null && after.length < before.length) set(totalAtom, Math.max(0, total - 1));
  });
  removeItemAtom.debugLabel = label('removeItem');

  return {
    itemsAtom,
    totalAtom,
    hasMoreAtom,
    loadedOnceAtom,
    loadingAtom,
    termAtom,
    filtersAtom,
    loadAtom,
    searchAtom,
    reloadAtom,
    replaceItemAtom,
    removeItemAtom,
  };
}

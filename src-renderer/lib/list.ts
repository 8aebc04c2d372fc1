import { atom, type Getter, type Setter } from 'jotai';
import type { RendererOperationId } from '@shared/ipc';
import { PLATFORM_NOTICES, withText, type Notice } from '@shared/messages';
import type { ApiInput, ApiOutput } from '../bridge/api';
import { apiAtom } from './bridge';
import { raiseNoticeAtom } from './notices';

type RowId = number | string;

/** The operations that answer a page of rows: `{ items, total }`. */
export type ListOperationId = {
  [Id in RendererOperationId]: ApiOutput<Id> extends { items: { id: RowId }[]; total: number } ? Id : never;
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
  /** The operation's input for a request (query or body, as the contract declares it). */
  toInput: (request: ListRequest<Filters>) => ApiInput<Id>;
  initialFilters?: Filters;
  /** Most rows one call may ask for, when a reload fetches every row shown at once (the contract's limit). */
  maxLimit?: number;
  /** How a failed load is shown; the server's text in it. Default: the store error, an error toast (spec §8). */
  errorNotice?: Notice;
}

/** Spec §4: a skip of 0 replaces the list; a skip above 0 appends to it, leaving out rows already shown. */
export function mergePage<T extends { id: RowId }>(current: readonly T[], page: readonly T[], skip: number): T[] {
  if (skip === 0) return [...page];
  const seen = new Set(current.map((item) => item.id));
  return [...current, ...page.filter((item) => !seen.has(item.id))];
}

/**
 * The state of one paged list, the same for every feature: rows, total (null until the first answer, so a
 * screen shows its loader rather than '0'), loading, term and filters, and the actions that load, reload and
 * patch rows. An older answer never overwrites a newer one (typing fast in the search box); a failure raises
 * the error notice with the server's text.
 */
export function createListAtoms<Id extends ListOperationId, Filters = Record<string, never>>(operation: Id, options: ListOptions<Id, Filters>) {
  type Row = ListRow<Id>;
  const label = (name: string) => `${options.debugLabel}.${name}`;
  const errorNotice = options.errorNotice ?? PLATFORM_NOTICES.storeError;

  const itemsAtom = atom<Row[]>([]);
  itemsAtom.debugLabel = label('items');
  const totalAtom = atom<number | null>(null);
  totalAtom.debugLabel = label('total');
  const loadingAtom = atom(false);
  loadingAtom.debugLabel = label('loading');
  const termAtom = atom('');
  termAtom.debugLabel = label('term');
  const filtersAtom = atom<Filters>((options.initialFilters ?? {}) as Filters);
  filtersAtom.debugLabel = label('filters');
  /** Number of the latest request: only its answer is applied. */
  const latestRequestAtom = atom(0);
  latestRequestAtom.debugLabel = label('latestRequest');

  async function fetchRows(get: Getter, set: Setter, skip: number, limit: number): Promise<{ rows: Row[]; total: number } | null> {
    const request = get(latestRequestAtom) + 1;
    set(latestRequestAtom, request);
    set(loadingAtom, true);
    const input = options.toInput({ skip, limit, term: get(termAtom).trim(), filters: get(filtersAtom) });
    const result = await get(apiAtom)(operation, input);
    // A slower answer to an older request must not overwrite a newer one.
    if (request !== get(latestRequestAtom)) return null;
    set(loadingAtom, false);
    if (!result.ok) {
      set(raiseNoticeAtom, withText(errorNotice, result.errorMsg));
      return null;
    }
    const page = result.data as { items: Row[]; total: number };
    return { rows: page.items, total: page.total };
  }

  /** Loads the page at `skip`: 0 replaces the rows (new search, filters), more appends (infinite scroll). */
  const loadAtom = atom(null, async (get, set, skip: number) => {
    const page = await fetchRows(get, set, skip, options.pageSize);
    if (!page) return;
    set(itemsAtom, mergePage(get(itemsAtom), page.rows, skip));
    set(totalAtom, page.total);
  });
  loadAtom.debugLabel = label('load');

  /** Fetches again every row shown (at least a page), so the table matches the server after a refused write. */
  const reloadAtom = atom(null, async (get, set) => {
    const limit = Math.min(Math.max(get(itemsAtom).length, options.pageSize), options.maxLimit ?? 500);
    const page = await fetchRows(get, set, 0, limit);
    if (!page) return;
    set(itemsAtom, page.rows);
    set(totalAtom, page.total);
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

  return { itemsAtom, totalAtom, loadingAtom, termAtom, filtersAtom, loadAtom, reloadAtom, replaceItemAtom, removeItemAtom };
}

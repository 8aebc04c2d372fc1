import { atom } from 'jotai';
import type { AdvertFilters } from '@shared/contract/adverts';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { CSV_EXPORT_LIMIT, LIST_PAGE_SIZE } from '@shared/rules/advert-screens/list';
import { apiAtom } from '../../lib/bridge';
import { createEditorAtoms, createRowActionAtoms } from '../content';
import { exportCsvAtom } from '../../lib/file-jobs';
import { createListAtoms } from '../../lib/list';
import { metaAtom } from '../../lib/meta';
import { raiseNoticeAtom } from '../../lib/notices';
import { advertApi } from './api';

/** What the filter bar and the column headers set; paging and the term are the list's own. */
export type AdvertListFilters = Omit<AdvertFilters, 'skip' | 'limit' | 'term'>;

/** The store's default filter (spec §3, platform.md §4): not archived, latest model, updatedAt descending. */
export const DEFAULT_ADVERT_FILTERS: AdvertListFilters = { archived: false, model: 'latest', orderBy: 'updatedAt', order: 'DESC' };

export const advertList = createListAtoms('adverts.list', {
  debugLabel: 'adverts.list',
  pageSize: LIST_PAGE_SIZE,
  maxLimit: 1000,
  initialFilters: DEFAULT_ADVERT_FILTERS,
  toInput: ({ skip, limit, term, filters }) => ({ body: { ...filters, skip, limit, ...(term ? { term } : {}) } }),
});

export const advertEditor = createEditorAtoms('adverts.editor', advertApi);

/** Audiences for the filter (meta, loaded once: lib/meta.ts). */
export const advertMetaAudiencesAtom = atom((get) => get(metaAtom)?.audiences ?? []);
advertMetaAudiencesAtom.debugLabel = 'adverts.metaAudiences';

/** Row actions of the list (§2.1): archive, duplicate, delete. */
export const advertRowActions = createRowActionAtoms('advert', advertApi, advertList);

/** Columns of the CSV export. */
export const ADVERT_CSV_COLUMNS = [
  { key: 'id', header: 'id' },
  { key: 'type', header: 'type' },
  { key: 'name', header: 'name' },
  { key: 'title', header: 'title' },
  { key: 'author', header: 'author' },
  { key: 'source', header: 'source' },
  { key: 'published', header: 'published' },
  { key: 'archived', header: 'archived' },
  { key: 'isFree', header: 'isFree' },
  { key: 'weight', header: 'weight' },
  { key: 'autoStartAt', header: 'autoStartAt' },
  { key: 'autoStopAt', header: 'autoStopAt' },
  { key: 'createdAt', header: 'createdAt' },
  { key: 'updatedAt', header: 'updatedAt' },
];

/**
 * CSV export (§2.1, §7): the published adverts of the current filters, skip 0, limit 1000, through main's save
 * dialog. Nothing to export: 'No data to export' for 2 s, and no dialog.
 */
export const exportAdvertsAtom = atom(null, async (get, set) => {
  const filters = { ...get(advertList.filtersAtom), published: true };
  const term = get(advertList.termAtom).trim();
  const body = { ...filters, ...(term ? { term } : {}) };
  const probe = await get(apiAtom)('adverts.list', { body: { ...body, skip: 0, limit: 1 } });
  if (!probe.ok) return set(raiseNoticeAtom, N.serverError(probe.errorMsg));
  if (probe.data.total === 0) return set(raiseNoticeAtom, N.noDataToExport);
  await set(exportCsvAtom, {
    operation: 'adverts.list',
    input: { body },
    columns: ADVERT_CSV_COLUMNS,
    defaultName: 'adverts.csv',
    maxRows: CSV_EXPORT_LIMIT,
  });
});
exportAdvertsAtom.debugLabel = 'adverts.export';

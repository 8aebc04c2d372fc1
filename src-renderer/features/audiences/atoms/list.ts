import { atom } from 'jotai';
import { AUDIENCE_NOTICES } from '@shared/messages';
import { withText } from '@shared/messages';
import { notice } from '@shared/messages/notice';
import { AUDIENCE_PAGE_SIZE, type Area, type AudienceType } from '@shared/rules/audiences';
import { apiAtom } from '../../../lib/bridge';
import { createListAtoms } from '../../../lib/list';
import { raiseNoticeAtom } from '../../../lib/notices';

export interface AudienceFilters {
  /** Catalogue or custom audiences; '' for both. */
  catalog: '' | 'true' | 'false';
  /** The channel: the audience type. */
  type: AudienceType | '';
  area: Area | '';
  /** Spec §4: the created column toggles ASC/DESC on createdAt. */
  order: 'ASC' | 'DESC';
}

export const INITIAL_AUDIENCE_FILTERS: AudienceFilters = { catalog: '', type: '', area: '', order: 'DESC' };

/** The audience list (spec §2): 25 a page (§9), newest first, with its search and filters. */
export const audienceList = createListAtoms('audiences.list', {
  debugLabel: 'audiences.list',
  pageSize: AUDIENCE_PAGE_SIZE,
  initialFilters: INITIAL_AUDIENCE_FILTERS,
  toInput: ({ skip, limit, term, filters }) => ({
    query: {
      limit,
      skip,
      orderBy: 'createdAt' as const,
      order: filters.order,
      ...(term ? { term } : {}),
      ...(filters.catalog ? { isInCatalog: filters.catalog } : {}),
      ...(filters.type ? { type: filters.type } : {}),
      ...(filters.area ? { area: filters.area } : {}),
    },
  }),
});

/** The rows ticked for the bulk delete. */
export const selectedAudiencesAtom = atom<ReadonlySet<number>>(new Set<number>());
selectedAudiencesAtom.debugLabel = 'audiences.list.selected';

export const toggleSelectedAtom = atom(null, (get, set, id: number) => {
  const next = new Set(get(selectedAudiencesAtom));
  if (next.has(id)) next.delete(id);
  else next.add(id);
  set(selectedAudiencesAtom, next);
});
toggleSelectedAtom.debugLabel = 'audiences.list.toggleSelected';

export const toggleOrderAtom = atom(null, async (get, set) => {
  const filters = get(audienceList.filtersAtom);
  set(audienceList.filtersAtom, { ...filters, order: filters.order === 'DESC' ? 'ASC' : 'DESC' });
  await set(audienceList.loadAtom, 0);
});
toggleOrderAtom.debugLabel = 'audiences.list.toggleOrder';

/** Spec §4: after a delete the list reloads, 25 rows, newest first. */
const reloadAfterDeleteAtom = atom(null, async (get, set) => {
  set(audienceList.filtersAtom, { ...get(audienceList.filtersAtom), order: 'DESC' });
  set(selectedAudiencesAtom, new Set<number>());
  await set(audienceList.loadAtom, 0);
});
reloadAfterDeleteAtom.debugLabel = 'audiences.list.reloadAfterDelete';

const serverErrorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, errorMsg)));
serverErrorAtom.debugLabel = 'audiences.list.serverError';

/**
 * Sends the version the row was loaded with (docs/architecture.md, "Versions and conflicts"): an audience changed
 * meanwhile is not deleted; the 409 says who changed it and the list is read again.
 */
export const deleteAudienceAtom = atom(null, async (get, set, audience: { id: number; name: string; version?: number }) => {
  const result = await get(apiAtom)('audiences.delete', {
    params: { id: audience.id },
    query: audience.version ? { version: audience.version } : {},
  });
  if (!result.ok && result.status === 409) {
    set(raiseNoticeAtom, notice(result.errorMsg, 'warning'));
    return set(audienceList.reloadAtom);
  }
  if (!result.ok) return set(serverErrorAtom, result.errorMsg);
  set(raiseNoticeAtom, AUDIENCE_NOTICES.audienceDeleted(audience.name));
  await set(reloadAfterDeleteAtom);
});
deleteAudienceAtom.debugLabel = 'audiences.list.delete';

export const bulkDeleteAtom = atom(null, async (get, set) => {
  const ids = [...get(selectedAudiencesAtom)];
  if (!ids.length) return;
  const result = await get(apiAtom)('audiences.bulkDelete', { body: { ids } });
  if (!result.ok) return set(serverErrorAtom, result.errorMsg);
  set(raiseNoticeAtom, AUDIENCE_NOTICES.audiencesDeleted(result.data.deleted));
  await set(reloadAfterDeleteAtom);
});
bulkDeleteAtom.debugLabel = 'audiences.list.bulkDelete';

/** Duplicates an audience; answers the copy's id so the screen can open it. */
export const duplicateAudienceAtom = atom(null, async (get, set, id: number): Promise<number | null> => {
  const result = await get(apiAtom)('audiences.duplicate', { params: { id } });
  if (!result.ok) {
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  await set(audienceList.loadAtom, 0);
  return result.data.id;
});
duplicateAudienceAtom.debugLabel = 'audiences.list.duplicate';

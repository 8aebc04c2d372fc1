import { atom } from 'jotai';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { defaultCsmFilter, hasMoreProjects, projectPageSize } from '@shared/rules/project-list';
import type { TargetStatus, TargetType } from '@shared/rules/projects';
import type { ApiInput, ApiOutput } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { sessionAtom } from '../../lib/session';

export type ProjectItem = ApiOutput<'projects.list'>['items'][number];
type ListBody = NonNullable<ApiInput<'projects.list'>['body']>;
export type DateRange = { from: number; to: number };

/** The filter bar's values (spec §2): absent means no filter on that field. */
export interface ProjectListFilters {
  name?: string[];
  clientName?: string[];
  keyAccount?: number[];
  targetStatus?: TargetStatus[];
  type?: TargetType[];
  /** Spé. */
  populationCategory?: string[];
  /** Ciblage. */
  populationSample?: string[];
  startDate?: DateRange;
  /** deadline sortie KPIs. */
  checkDate?: DateRange;
  endDate?: DateRange;
}
export type ProjectSortField = 'name' | 'clientName' | 'id';

export const projectsItemsAtom = atom<ProjectItem[]>([]);
projectsItemsAtom.debugLabel = 'projects.list.items';
export const projectsLoadingAtom = atom(false);
projectsLoadingAtom.debugLabel = 'projects.list.loading';
/** Spec §9: another page only when the last one was full. */
export const projectsHasMoreAtom = atom(false);
projectsHasMoreAtom.debugLabel = 'projects.list.hasMore';
/** Set once the first answer arrived: until then the list shows 'Loading...' rather than the empty text. */
export const projectsLoadedOnceAtom = atom(false);
projectsLoadedOnceAtom.debugLabel = 'projects.list.loadedOnce';
export const projectsTermAtom = atom('');
projectsTermAtom.debugLabel = 'projects.list.term';
export const projectsFiltersAtom = atom<ProjectListFilters>({});
projectsFiltersAtom.debugLabel = 'projects.list.filters';
/** Default order: id DESC (spec §3 "order (default DESC)"). */
export const projectsOrderAtom = atom<{ orderBy: ProjectSortField; order: 'ASC' | 'DESC' }>({ orderBy: 'id', order: 'DESC' });
projectsOrderAtom.debugLabel = 'projects.list.order';
export const projectsCsmOptionsAtom = atom<{ id: number; name: string }[]>([]);
projectsCsmOptionsAtom.debugLabel = 'projects.csmOptions';
/** The default CSM filter is applied once per session of the screen: a user's Clear All stays cleared. */
const csmDefaultAppliedAtom = atom(false);
csmDefaultAppliedAtom.debugLabel = 'projects.list.csmDefaultApplied';
/** The screen's very first load asks for 8 projects, every later one for 25 (spec §9). */
const firstLoadDoneAtom = atom(false);
firstLoadDoneAtom.debugLabel = 'projects.list.firstLoadDone';
const latestRequestAtom = atom(0);
latestRequestAtom.debugLabel = 'projects.list.latestRequest';

/** The request body for the current term, filters and order (paging added by the loader). */
export const projectsQueryAtom = atom((get): Omit<ListBody, 'skip' | 'limit'> => {
  const filters = get(projectsFiltersAtom);
  const body: Omit<ListBody, 'skip' | 'limit'> = { ...get(projectsOrderAtom) };
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    (body as Record<string, unknown>)[key] = value;
  }
  const term = get(projectsTermAtom).trim();
  if (term) body.term = term;
  return body;
});
projectsQueryAtom.debugLabel = 'projects.list.query';

/** Loads a page: 'reset' replaces the list, 'more' appends the next one; an older answer never wins. */
export const loadProjectsAtom = atom(null, async (get, set, mode: 'reset' | 'more') => {
  if (mode === 'more' && (get(projectsLoadingAtom) || !get(projectsHasMoreAtom))) return;
  const request = get(latestRequestAtom) + 1;
  set(latestRequestAtom, request);
  set(projectsLoadingAtom, true);
  const limit = projectPageSize(!get(firstLoadDoneAtom));
  set(firstLoadDoneAtom, true);
  const skip = mode === 'reset' ? 0 : get(projectsItemsAtom).length;
  const result = await get(apiAtom)('projects.list', { body: { ...get(projectsQueryAtom), skip, limit } });
  if (request !== get(latestRequestAtom)) return;
  set(projectsLoadingAtom, false);
  set(projectsLoadedOnceAtom, true);
  if (!result.ok) {
    set(raiseNoticeAtom, withText(PLATFORM_NOTICES.storeError, result.errorMsg));
    return;
  }
  const page = result.data.items;
  if (mode === 'reset') set(projectsItemsAtom, page);
  else {
    const seen = new Set(get(projectsItemsAtom).map((item) => item.id));
    set(projectsItemsAtom, [...get(projectsItemsAtom), ...page.filter((item) => !seen.has(item.id))]);
  }
  set(projectsHasMoreAtom, hasMoreProjects(page.length, limit));
});
loadProjectsAtom.debugLabel = 'projects.list.load';

/** The CSM list (meta), then the default CSM filter: the current user when among the CSMs (spec §6). */
export const loadProjectsCsmAtom = atom(null, async (get, set) => {
  const result = await get(apiAtom)('meta.get');
  const csms = result.ok ? result.data.csm : [];
  set(projectsCsmOptionsAtom, csms);
  if (get(csmDefaultAppliedAtom)) return;
  set(csmDefaultAppliedAtom, true);
  const keyAccount = defaultCsmFilter(get(sessionAtom)?.userId, csms);
  if (keyAccount) set(projectsFiltersAtom, { ...get(projectsFiltersAtom), keyAccount });
});
loadProjectsCsmAtom.debugLabel = 'projects.list.loadCsm';

/** Whether the CSM default was settled (the first load waits for it, so it does not run twice). */
export const projectsCsmSettledAtom = atom((get) => get(csmDefaultAppliedAtom));
projectsCsmSettledAtom.debugLabel = 'projects.list.csmSettled';

/** Values of a text filter or the search box's suggestions; failures are silently ignored (spec §8). */
export const projectValuesAtom = atom(
  null,
  async (get, _set, input: { label: 'Project' | 'Target'; field: 'name' | 'clientName' | 'populationCategory' | 'populationSample'; term: string; limit: 5 | 10 | 15 }) => {
    const result = await get(apiAtom)('projects.search', { params: { label: input.label }, query: { field: input.field, term: input.term, limit: input.limit } });
    return result.ok ? result.data : [];
  },
);
projectValuesAtom.debugLabel = 'projects.list.values';

/** Clear All: every filter and the search term. */
export const clearProjectFiltersAtom = atom(null, (_get, set) => {
  set(projectsFiltersAtom, {});
  set(projectsTermAtom, '');
});
clearProjectFiltersAtom.debugLabel = 'projects.list.clearAll';

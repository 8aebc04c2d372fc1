import { atom } from 'jotai';
import { defaultCsmFilter, projectPageSize } from '@shared/rules/project-list';
import type { ProjectStatus, TargetStatus, TargetType } from '@shared/rules/projects';
import type { ApiInput, ApiOutput } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { createListAtoms } from '../../lib/list';
import { loadMetaAtom, metaAtom } from '../../lib/meta';
import { sessionAtom } from '../../lib/session';

export type ProjectItem = ApiOutput<'projects.list'>['items'][number];
type ListBody = NonNullable<ApiInput<'projects.list'>['body']>;
export type DateRange = { from: number; to: number };

/** The filter bar's values (spec §2): absent means no filter on that field. */
export interface ProjectListFilters {
  name?: string[];
  clientName?: string[];
  keyAccount?: number[];
  /** Statut projet; absent: the server's default (drafts and active projects). */
  projectStatus?: ProjectStatus[];
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

/**
 * The list (spec §2): the screen's very first load asks for 8 projects, every later one for 25; the answer has no
 * total, so another page exists only when the last one was full (spec §9).
 */
export const projectList = createListAtoms('projects.list', {
  debugLabel: 'projects.list',
  pageSize: projectPageSize(false),
  firstPageSize: projectPageSize(true),
  initialFilters: {} as ProjectListFilters,
  toInput: ({ skip, limit }, get) => ({ body: { ...get(projectsQueryAtom), skip, limit } }),
});
export const projectsItemsAtom = projectList.itemsAtom;
export const projectsLoadingAtom = projectList.loadingAtom;
export const projectsHasMoreAtom = projectList.hasMoreAtom;
/** Set once the first answer arrived: until then the list shows 'Loading...' rather than the empty text. */
export const projectsLoadedOnceAtom = projectList.loadedOnceAtom;
export const projectsTermAtom = projectList.termAtom;
/** Sets the search term; the first page reloads once typing pauses (lib/list.ts). */
export const searchProjectsAtom = projectList.searchAtom;
export const projectsFiltersAtom = projectList.filtersAtom;
/** Default order: id DESC (spec §3 "order (default DESC)"). */
export const projectsOrderAtom = atom<{ orderBy: ProjectSortField; order: 'ASC' | 'DESC' }>({ orderBy: 'id', order: 'DESC' });
projectsOrderAtom.debugLabel = 'projects.list.order';
/** The CSM default was applied once per session of the screen: a user's Clear All stays cleared. */
const csmDefaultAppliedAtom = atom(false);
csmDefaultAppliedAtom.debugLabel = 'projects.list.csmDefaultApplied';

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
  await set(projectList.loadAtom, mode === 'reset' ? 0 : get(projectsItemsAtom).length);
});
loadProjectsAtom.debugLabel = 'projects.list.load';

/** The CSM list (meta), then the default CSM filter: the current user when among the CSMs (spec §6). */
export const loadProjectsCsmAtom = atom(null, async (get, set) => {
  const csms = (await set(loadMetaAtom))?.csm ?? [];
  if (get(csmDefaultAppliedAtom)) return;
  set(csmDefaultAppliedAtom, true);
  const keyAccount = defaultCsmFilter(get(sessionAtom)?.userId, csms);
  if (keyAccount) set(projectsFiltersAtom, { ...get(projectsFiltersAtom), keyAccount });
});
loadProjectsCsmAtom.debugLabel = 'projects.list.loadCsm';

/** The CSM options: meta's CSMs, empty until meta is loaded. */
export const projectsCsmOptionsAtom = atom((get) => get(metaAtom)?.csm ?? []);
projectsCsmOptionsAtom.debugLabel = 'projects.csmOptions';

/** Whether the CSM default was settled (the first load waits for it, so it does not run twice). */
export const projectsCsmSettledAtom = atom((get) => get(csmDefaultAppliedAtom));
projectsCsmSettledAtom.debugLabel = 'projects.list.csmSettled';

/** Values of a text filter or the search box's suggestions; failures are silently ignored (spec §8). */
export const projectValuesAtom = atom(
  null,
  async (
    get,
    _set,
    input: {
      label: 'Project' | 'Target';
      field: 'name' | 'clientName' | 'populationCategory' | 'populationSample';
      term: string;
      limit: 5 | 10 | 15;
    },
  ) => {
    const result = await get(apiAtom)('projects.search', {
      params: { label: input.label },
      query: { field: input.field, term: input.term, limit: input.limit },
    });
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

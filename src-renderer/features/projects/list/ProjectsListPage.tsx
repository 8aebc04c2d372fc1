import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { canImportEstimates, canWriteProjects, PROJECT_LIST_LOAD_MARGIN_PX, PROJECT_LIST_SCROLL_DEBOUNCE_MS } from '@shared/rules/project-list';
import { useInfiniteScroll } from '../../../lib/infinite-scroll';
import { rolesAtom } from '../../../lib/session';
import { CreateProjectDialog } from '../CreateProjectDialog';
import { EstimateFileDialog } from '../EstimateFileDialog';
import {
  loadProjectsAtom,
  loadProjectsCsmAtom,
  projectsCsmOptionsAtom,
  projectsCsmSettledAtom,
  projectsFiltersAtom,
  projectsHasMoreAtom,
  projectsItemsAtom,
  projectsLoadedOnceAtom,
  projectsLoadingAtom,
  projectsOrderAtom,
} from '../list-atoms';
import '../projects-list.css';
import { Chips } from './Chips';
import { FilterControls } from './FilterControls';
import { ProjectCard } from './ProjectCard';
import { SearchBox } from './SearchBox';
import { SortHeader } from './SortHeader';

/** The projects list (spec §2 Projects list): filters and their chips, search, sortable header, infinite list. */
export default function ProjectsListPage() {
  const items = useAtomValue(projectsItemsAtom);
  const loading = useAtomValue(projectsLoadingAtom);
  const loadedOnce = useAtomValue(projectsLoadedOnceAtom);
  const hasMore = useAtomValue(projectsHasMoreAtom);
  const filters = useAtomValue(projectsFiltersAtom);
  const order = useAtomValue(projectsOrderAtom);
  const csmSettled = useAtomValue(projectsCsmSettledAtom);
  const csms = useAtomValue(projectsCsmOptionsAtom);
  const roles = useAtomValue(rolesAtom);
  const load = useSetAtom(loadProjectsAtom);
  const loadCsm = useSetAtom(loadProjectsCsmAtom);
  // /project/edit/new lands here with ?create=1: the create modal opens for those who may create.
  const [searchParams, setSearchParams] = useSearchParams();
  const [creating, setCreating] = useState(() => searchParams.get('create') === '1' && canWriteProjects(roles));
  // The quote export (docs/projects.md, Quotes): an administrator's import, offered where the quotes are used.
  const [importingQuotes, setImportingQuotes] = useState(false);
  const closeCreate = useCallback(() => {
    setCreating(false);
    if (searchParams.has('create')) setSearchParams({}, { replace: true });
  }, [searchParams, setSearchParams]);

  useEffect(() => void loadCsm(), [loadCsm]);

  // Any change of filters or order reloads from the first page at once; a typed term waits for a pause in the
  // list's own search (searchProjectsAtom, lib/list.ts). The first load waits for the default CSM filter, so the
  // list does not load twice.
  useEffect(() => {
    if (csmSettled) void load('reset');
  }, [csmSettled, filters, order, load]);

  // Spec §9: the next page within 800 px of the bottom, scroll debounced 180 ms, only when the last page was full.
  const sentinel = useInfiniteScroll({
    enabled: hasMore,
    loading,
    onLoadMore: () => void load('more'),
    marginPx: PROJECT_LIST_LOAD_MARGIN_PX,
    debounceMs: PROJECT_LIST_SCROLL_DEBOUNCE_MS,
    itemCount: items.length,
  });

  return (
    <section className="projects-page" aria-label="Projets" data-testid="projects-page">
      <div className="toolbar">
        <h1 className="screen-title">Projets</h1>
        {canWriteProjects(roles) && (
          <button type="button" className="primary" onClick={() => setCreating(true)} data-testid="projects-new">
            {PROJECT_MESSAGES.newProject}
          </button>
        )}
        {canImportEstimates(roles) && (
          <button type="button" onClick={() => setImportingQuotes(true)} data-testid="projects-import-estimates">
            {PROJECT_MESSAGES.estimateFileButton}
          </button>
        )}
        <SearchBox />
      </div>
      <FilterControls csms={csms} />
      <Chips csms={csms} />
      <SortHeader />
      <div className="project-items" data-testid="project-items">
        {items.map((item) => (
          <ProjectCard key={item.id} item={item} />
        ))}
      </div>
      {loadedOnce && !loading && items.length === 0 && (
        <p className="table-empty" data-testid="projects-empty">
          {PROJECT_MESSAGES.noProjectFound}
        </p>
      )}
      <div ref={sentinel} className="sentinel" aria-live="polite" data-testid="projects-sentinel">
        {loading ? PROJECT_MESSAGES.loading : null}
      </div>
      {creating && <CreateProjectDialog csms={csms} onClose={closeCreate} />}
      {importingQuotes && <EstimateFileDialog onClose={() => setImportingQuotes(false)} />}
    </section>
  );
}

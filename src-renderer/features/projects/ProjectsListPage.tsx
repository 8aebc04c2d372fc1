import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import {
  canImportEstimates,
  canWriteProjects,
  checkDateRange,
  epochSecondsToDay,
  PROJECT_LIST_LOAD_MARGIN_PX,
  PROJECT_LIST_SCROLL_DEBOUNCE_MS,
  PROJECT_SEARCH_MIN_CHARACTERS,
} from '@shared/rules/project-list';
import { formatDay } from '@shared/rules/dates';
import {
  CANCELLED_LABEL,
  CANCELLED_STATUS,
  formatGoal,
  PROJECT_STATUS_LABELS,
  PROJECT_STATUSES,
  type ProjectStatus,
  statusClass,
  TARGET_STATUSES,
  TARGET_TYPES,
} from '@shared/rules/projects';
import { useAdjustOnChange } from '../../lib/render-state';
import { rolesAtom } from '../../lib/session';
import { FilterChips, type FilterChip } from '../../ui/FilterBar';
import { CreateProjectDialog } from './CreateProjectDialog';
import { EstimateFileDialog } from './EstimateFileDialog';
import {
  clearProjectFiltersAtom,
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
  projectsTermAtom,
  projectValuesAtom,
  type DateRange,
  type ProjectItem,
  type ProjectListFilters,
  type ProjectSortField,
} from './list-atoms';
import './projects-list.css';
import { MessageSquare } from 'lucide-react';

/** Spec §9: filter search debounce 280 ms, option names cut at 30 characters. */
const FILTER_SEARCH_DEBOUNCE_MS = 280;
const SEARCH_DEBOUNCE_MS = 300;
const truncate = (text: string) => (text.length > 30 ? `${text.slice(0, 30)}…` : text);

type TextFilterKey = 'name' | 'clientName' | 'populationCategory' | 'populationSample';
type ListFilterKey = 'keyAccount' | 'projectStatus' | 'targetStatus' | 'type';
type DateFilterKey = 'startDate' | 'checkDate' | 'endDate';

const TEXT_FILTERS: { key: TextFilterKey; label: string; source: 'Project' | 'Target' }[] = [
  { key: 'name', label: 'Projet', source: 'Project' },
  { key: 'clientName', label: 'Client', source: 'Project' },
  { key: 'populationCategory', label: 'Spé', source: 'Target' },
  { key: 'populationSample', label: 'Ciblage', source: 'Target' },
];
const DATE_FILTERS: { key: DateFilterKey; label: string }[] = [
  { key: 'startDate', label: 'Date de début' },
  { key: 'checkDate', label: 'Deadline sortie KPIs' },
  { key: 'endDate', label: 'Date de fin' },
];
const LIST_LABELS: Record<ListFilterKey, string> = { keyAccount: 'CSM', projectStatus: 'Statut projet', targetStatus: 'Status', type: 'Type' };
const TEXT_LABELS = Object.fromEntries(TEXT_FILTERS.map((filter) => [filter.key, filter.label])) as Record<TextFilterKey, string>;
const DATE_LABELS = Object.fromEntries(DATE_FILTERS.map((filter) => [filter.key, filter.label])) as Record<DateFilterKey, string>;

/** The projects list (spec §2 Projects list): filters and their chips, search, sortable header, infinite list. */
export default function ProjectsListPage() {
  const items = useAtomValue(projectsItemsAtom);
  const loading = useAtomValue(projectsLoadingAtom);
  const loadedOnce = useAtomValue(projectsLoadedOnceAtom);
  const hasMore = useAtomValue(projectsHasMoreAtom);
  const filters = useAtomValue(projectsFiltersAtom);
  const term = useAtomValue(projectsTermAtom);
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

  // Any change of filters or order reloads from the first page; a typed term waits for a pause. The first load
  // waits for the default CSM filter, so the list does not load twice.
  const lastTerm = useRef(term);
  useEffect(() => {
    if (!csmSettled) return;
    const typed = lastTerm.current !== term;
    lastTerm.current = term;
    const timer = setTimeout(() => void load('reset'), typed ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [csmSettled, filters, term, order, load]);

  // Spec §9: the next page within 800 px of the bottom, scroll debounced 180 ms, only when the last page was full.
  const sentinel = useRef<HTMLDivElement>(null);
  const scrollTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const loadMore = useCallback(() => {
    clearTimeout(scrollTimer.current);
    scrollTimer.current = setTimeout(() => void load('more'), PROJECT_LIST_SCROLL_DEBOUNCE_MS);
  }, [load]);
  useEffect(() => () => clearTimeout(scrollTimer.current), []);
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasMore || loading) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && loadMore(), {
      rootMargin: `0px 0px ${PROJECT_LIST_LOAD_MARGIN_PX}px 0px`,
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, loading, loadMore, items.length]);

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

/** The search box (project and client), with suggestions from 2 characters (spec §5). */
function SearchBox() {
  const [term, setTerm] = useAtom(projectsTermAtom);
  const fetchValues = useSetAtom(projectValuesAtom);
  const [draft, setDraft] = useState(term);
  const [found, setFound] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  // The box shows the list's term again whenever that changes (a reset, a chosen suggestion).
  useAdjustOnChange(term, () => setDraft(term));
  const suggesting = open && draft.trim().length >= PROJECT_SEARCH_MIN_CHARACTERS;
  // The last answer while suggestions apply; none otherwise (derived, not cleared by an effect).
  const suggestions = suggesting ? found : [];
  useEffect(() => {
    const text = draft.trim();
    if (!suggesting) return;
    let current = true;
    const timer = setTimeout(async () => {
      const [names, clients] = await Promise.all([
        fetchValues({ label: 'Project', field: 'name', term: text, limit: 5 }),
        fetchValues({ label: 'Project', field: 'clientName', term: text, limit: 5 }),
      ]);
      if (current) setFound([...new Set([...names, ...clients])]);
    }, FILTER_SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [draft, suggesting, fetchValues]);

  const choose = (value: string) => {
    setDraft(value);
    setTerm(value);
    setOpen(false);
  };
  return (
    <div className="autocomplete projects-search">
      <input
        type="search"
        placeholder="Rechercher un projet ou un client..."
        aria-label="Rechercher un projet ou un client"
        value={draft}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(event) => {
          setDraft(event.target.value);
          setTerm(event.target.value);
          setOpen(true);
        }}
        data-testid="projects-search"
      />
      {open && suggestions.length > 0 && (
        <ul className="suggestions" role="listbox" data-testid="projects-search-suggestions">
          {suggestions.map((value) => (
            <li key={value} role="option" aria-selected={false} onMouseDown={(event) => (event.preventDefault(), choose(value))} title={value}>
              {truncate(value)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The filter bar: text filters with autocomplete, CSM / Status / Type lists, three date ranges (spec §2). */
function FilterControls({ csms }: { csms: { id: number; name: string }[] }) {
  const [filters, setFilters] = useAtom(projectsFiltersAtom);
  const addValues = <K extends TextFilterKey | ListFilterKey>(key: K, chosen: NonNullable<ProjectListFilters[K]>[number][]) => {
    const current = (filters[key] ?? []) as (typeof chosen)[number][];
    const added = chosen.filter((value) => !current.includes(value));
    if (added.length) setFilters({ ...filters, [key]: [...current, ...added] });
  };
  const addValue = <K extends TextFilterKey | ListFilterKey>(key: K, value: NonNullable<ProjectListFilters[K]>[number]) => addValues(key, [value]);
  const listSelect = <K extends ListFilterKey>(key: K, options: { label: string; value: NonNullable<ProjectListFilters[K]>[number] }[]) => {
    const chosen = (filters[key] ?? []) as unknown[];
    return (
      <label className="filter">
        <span className="field-label">{LIST_LABELS[key]}</span>
        <select
          value=""
          onChange={(event) => {
            const option = options[Number(event.target.value)];
            if (option) addValue(key, option.value);
          }}
          data-testid={`projects-filter-${key}`}
        >
          <option value="">Ajouter…</option>
          {options.map((option, index) =>
            chosen.includes(option.value) ? null : (
              <option key={String(option.value)} value={index}>
                {option.label}
              </option>
            ),
          )}
        </select>
      </label>
    );
  };
  return (
    <div className="filter-bar projects-filters" data-testid="projects-filters">
      <div className="filter-controls">
        {TEXT_FILTERS.slice(0, 2).map((filter) => (
          <TextFilter
            key={filter.key}
            field={filter.key}
            label={filter.label}
            source={filter.source}
            onAdd={(chosen) => addValues(filter.key, chosen)}
          />
        ))}
        {listSelect(
          'keyAccount',
          csms.map((csm) => ({ label: csm.name, value: csm.id })),
        )}
        {listSelect(
          'projectStatus',
          PROJECT_STATUSES.map((status) => ({ label: PROJECT_STATUS_LABELS[status], value: status })),
        )}
        {listSelect(
          'targetStatus',
          TARGET_STATUSES.map((status) => ({ label: status, value: status })),
        )}
        {listSelect(
          'type',
          TARGET_TYPES.map((type) => ({ label: type, value: type })),
        )}
        {TEXT_FILTERS.slice(2).map((filter) => (
          <TextFilter
            key={filter.key}
            field={filter.key}
            label={filter.label}
            source={filter.source}
            onAdd={(chosen) => addValues(filter.key, chosen)}
          />
        ))}
        {DATE_FILTERS.map((filter) => (
          <DateFilter
            key={filter.key}
            label={filter.label}
            testId={`projects-filter-${filter.key}`}
            value={filters[filter.key]}
            onApply={(range) => setFilters({ ...filters, [filter.key]: range })}
          />
        ))}
      </div>
    </div>
  );
}

/**
 * A text filter: type 2 characters for suggestions (10), pick one, or press Enter to filter on every value that
 * contains what is typed, as the /targets column filters do (docs/projects.md); none: 'Aucun résultat', no filter.
 */
function TextFilter(props: { field: TextFilterKey; label: string; source: 'Project' | 'Target'; onAdd: (values: string[]) => void }) {
  const fetchValues = useSetAtom(projectValuesAtom);
  const [text, setText] = useState('');
  const [found, setFound] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  // The term whose search came back empty (the suggestions' or Enter's): 'Aucun résultat' while it is the one typed.
  const [emptyFor, setEmptyFor] = useState<string | null>(null);
  const suggesting = open && text.trim().length >= PROJECT_SEARCH_MIN_CHARACTERS;
  // The last answer while suggestions apply; none otherwise (derived, not cleared by an effect).
  const values = suggesting ? found : [];
  useEffect(() => {
    const term = text.trim();
    if (!suggesting) return;
    let current = true;
    const timer = setTimeout(async () => {
      const answer = await fetchValues({ label: props.source, field: props.field, term, limit: 10 });
      if (!current) return;
      setFound(answer);
      if (!answer.length) setEmptyFor(term);
    }, FILTER_SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, suggesting, props.field, props.source, fetchValues]);
  const add = (chosen: string[]) => {
    props.onAdd(chosen);
    setText('');
    setOpen(false);
  };
  const addMatching = async () => {
    const term = text.trim();
    if (!term) return;
    const matching = await fetchValues({ label: props.source, field: props.field, term, limit: 15 });
    if (matching.length) add(matching);
    else setEmptyFor(term);
  };
  // Not tied to the suggestions being open: Enter's answer is said even once the list has closed.
  const noResult = text.trim() !== '' && emptyFor === text.trim() && values.length === 0;
  return (
    <label className="filter autocomplete">
      <span className="field-label">{props.label}</span>
      <input
        value={text}
        placeholder={PROJECT_MESSAGES.filterPlaceholder}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(event) => (setText(event.target.value), setOpen(true))}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void addMatching();
          }
        }}
        data-testid={`projects-filter-${props.field}`}
      />
      {open && values.length > 0 && (
        <ul className="suggestions" role="listbox" data-testid={`projects-filter-${props.field}-suggestions`}>
          {values.map((value) => (
            <li key={value} role="option" aria-selected={false} title={value} onMouseDown={(event) => (event.preventDefault(), add([value]))}>
              {truncate(value)}
            </li>
          ))}
        </ul>
      )}
      {noResult && (
        <span className="muted" role="status" data-testid={`projects-filter-${props.field}-empty`}>
          {PROJECT_MESSAGES.noResult}
        </span>
      )}
    </label>
  );
}

/** The key of a closed menu for useAdjustOnChange: unlike any value. */
const CLOSED = Symbol('closed');

/** A date-range filter: "from" cannot exceed "to", and Valider needs both (spec §5). */
function DateFilter(props: { label: string; testId: string; value: DateRange | undefined; onApply: (range: DateRange) => void }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // Opening shows the range applied (and so does a new one while open).
  useAdjustOnChange(open ? props.value : CLOSED, () => {
    if (!open) return;
    setFrom(props.value ? epochSecondsToDay(props.value.from) : '');
    setTo(props.value ? epochSecondsToDay(props.value.to) : '');
  });
  const check = checkDateRange(from, to);
  return (
    <div className="filter date-filter">
      <button
        type="button"
        className={`link${props.value ? ' active' : ''}`}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid={props.testId}
      >
        {props.label} ▾
      </button>
      {open && (
        <div className="date-filter-menu" role="dialog" aria-label={props.label} data-testid={`${props.testId}-menu`}>
          <label>
            Du{' '}
            <input
              type="date"
              value={from}
              max={to || undefined}
              onChange={(event) => setFrom(event.target.value)}
              data-testid={`${props.testId}-from`}
            />
          </label>
          <label>
            au{' '}
            <input
              type="date"
              value={to}
              min={from || undefined}
              onChange={(event) => setTo(event.target.value)}
              data-testid={`${props.testId}-to`}
            />
          </label>
          {!check.ok && (from || to) && <span className="field-error">{check.error}</span>}
          <button
            type="button"
            className="primary"
            disabled={!check.ok}
            onClick={() => {
              if (!check.ok) return;
              props.onApply(check.range);
              setOpen(false);
            }}
            data-testid={`${props.testId}-apply`}
          >
            Valider
          </button>
        </div>
      )}
    </div>
  );
}

/** The active filters as chips, each removable, and 'Clear All'. */
function Chips({ csms }: { csms: { id: number; name: string }[] }) {
  const [filters, setFilters] = useAtom(projectsFiltersAtom);
  const [term, setTerm] = useAtom(projectsTermAtom);
  const clearAll = useSetAtom(clearProjectFiltersAtom);
  const chips: FilterChip<ProjectListFilters>[] = [];
  const without = (key: keyof ProjectListFilters, item: unknown) => (current: ProjectListFilters) => {
    const rest = ((current[key] as unknown[] | undefined) ?? []).filter((entry) => entry !== item);
    return { ...current, [key]: rest.length ? rest : undefined };
  };
  for (const key of [
    'name',
    'clientName',
    'keyAccount',
    'projectStatus',
    'targetStatus',
    'type',
    'populationCategory',
    'populationSample',
  ] as const) {
    const label = key in LIST_LABELS ? LIST_LABELS[key as ListFilterKey] : TEXT_LABELS[key as TextFilterKey];
    for (const value of (filters[key] ?? []) as (string | number)[]) {
      const shown =
        key === 'keyAccount'
          ? (csms.find((csm) => csm.id === value)?.name ?? String(value))
          : key === 'projectStatus'
            ? PROJECT_STATUS_LABELS[value as ProjectStatus]
            : String(value);
      chips.push({ id: `${key}-${value}`, label: `${label} : ${shown}`, remove: without(key, value) });
    }
  }
  for (const key of ['startDate', 'checkDate', 'endDate'] as const) {
    const range = filters[key];
    if (range)
      chips.push({
        id: key,
        label: `${DATE_LABELS[key]} : ${formatDay(range.from)} → ${formatDay(range.to)}`,
        remove: (current) => ({ ...current, [key]: undefined }),
      });
  }
  if (!chips.length && !term.trim()) return null;
  return (
    <FilterChips
      chips={chips}
      filters={filters}
      onChange={setFilters}
      testId="projects-chips"
      leading={
        term.trim() && (
          <li className="chip" data-testid="chip-term">
            <span>Recherche : {term.trim()}</span>
            <button type="button" className="chip-remove" aria-label="Retirer la recherche" onClick={() => setTerm('')}>
              ×
            </button>
          </li>
        )
      }
    >
      <li>
        <button type="button" className="link" onClick={() => clearAll()} data-testid="projects-clear-all">
          {PROJECT_MESSAGES.clearAll}
        </button>
      </li>
    </FilterChips>
  );
}

/** The sortable header: Projet, Client, Id; a second click turns the order round. */
function SortHeader() {
  const [order, setOrder] = useAtom(projectsOrderAtom);
  const button = (field: ProjectSortField, label: string) => {
    const active = order.orderBy === field;
    return (
      <button
        type="button"
        className={`link sort${active ? ' active' : ''}`}
        // Buttons of a toolbar, not header cells: aria-sort is not theirs (WAI-ARIA 1.2); pressed says which one sorts.
        aria-pressed={active}
        onClick={() => setOrder({ orderBy: field, order: active && order.order === 'DESC' ? 'ASC' : active ? 'DESC' : 'ASC' })}
        data-testid={`projects-sort-${field}`}
      >
        {label}
        {active ? (order.order === 'ASC' ? ' ▲' : ' ▼') : ''}
      </button>
    );
  };
  return (
    <div className="projects-sort" role="toolbar" aria-label="Trier">
      {button('name', 'Projet')}
      {button('clientName', 'Client')}
      {button('id', 'Id')}
    </div>
  );
}

/** One project and the table of its targets: codes, types, goals and dates on one line, texts wrapped between words. */
function ProjectCard({ item }: { item: ProjectItem }) {
  return (
    <article className="project-item" data-testid={`project-item-${item.id}`} data-project-name={item.name}>
      <header>
        <Link to={`/project/edit/${item.id}`} className="project-name" data-testid={`project-link-${item.id}`}>
          {item.name}
        </Link>
        <span className="project-client">{item.clientName}</span>
        <span className="project-meta">
          #{item.id}
          {item.keyAccount ? ` · ${item.keyAccount.name}` : ''}
          {item.isProjectCommented && (
            <>
              {' · '}
              <MessageSquare size={12} aria-label="Commenté" className="inline-icon" />
            </>
          )}
        </span>
      </header>
      {item.targets.length > 0 && (
        <table className="table project-targets">
          <thead>
            <tr>
              <th>Code action</th>
              <th>Status</th>
              <th>Type</th>
              <th>Pub</th>
              <th>Spé</th>
              <th>Ciblage</th>
              <th>Objectif</th>
              <th>Début</th>
              <th>Deadline sortie KPIs</th>
              <th>Fin</th>
            </tr>
          </thead>
          <tbody>
            {item.targets.map((target) => (
              <tr key={target.id} data-testid={`project-target-${target.id}`}>
                <td className="nowrap">{target.actionCode}</td>
                <td className="words status-cell">
                  <span className={`status ${statusClass(target.status)}`}>{target.status}</span>
                </td>
                <td className="nowrap">{target.type}</td>
                <td className="nowrap">{target.status === CANCELLED_STATUS ? CANCELLED_LABEL : (target.advertId ?? '')}</td>
                <td className="words">{target.populationCategory}</td>
                <td className="words">{target.populationSample}</td>
                <td className="nowrap">{formatGoal(target.goal)}</td>
                <td className="nowrap">{formatDay(target.startDate)}</td>
                <td className="nowrap">{formatDay(target.checkDate)}</td>
                <td className="nowrap">{formatDay(target.endDate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}

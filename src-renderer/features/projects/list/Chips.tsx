import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { formatDay } from '@shared/rules/dates';
import { PROJECT_STATUS_LABELS, type ProjectStatus } from '@shared/rules/projects';
import { FilterChips, type FilterChip } from '../../../ui/FilterBar';
import { clearProjectFiltersAtom, projectsFiltersAtom, projectsTermAtom, searchProjectsAtom, type ProjectListFilters } from '../list-atoms';
import { DATE_LABELS, LIST_LABELS, TEXT_LABELS, type ListFilterKey, type TextFilterKey } from './filters';

/** The active filters as chips, each removable, and 'Clear All'. */
export function Chips({ csms }: { csms: { id: number; name: string }[] }) {
  const [filters, setFilters] = useAtom(projectsFiltersAtom);
  const term = useAtomValue(projectsTermAtom);
  // Removing the term's chip is a search like typing: the list reloads after the same pause.
  const search = useSetAtom(searchProjectsAtom);
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
            <button type="button" className="chip-remove" aria-label="Retirer la recherche" onClick={() => search('')}>
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

import { useAtom } from 'jotai';
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES, TARGET_STATUSES, TARGET_TYPES } from '@shared/rules/projects';
import { projectsFiltersAtom, type ProjectListFilters } from '../list-atoms';
import { DateFilter } from './DateFilter';
import { DATE_FILTERS, LIST_LABELS, TEXT_FILTERS, type ListFilterKey, type TextFilterKey } from './filters';
import { TextFilter } from './TextFilter';

/** The filter bar: text filters with autocomplete, CSM / Status / Type lists, three date ranges (spec §2). */
export function FilterControls({ csms }: { csms: { id: number; name: string }[] }) {
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

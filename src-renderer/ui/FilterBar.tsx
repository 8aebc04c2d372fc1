/**
 * A row of list filters with their active values as chips, each with a remove button (adverts-articles.md §2.1).
 * A "choice" filter holds one value (undefined: all); a "multi" filter a list, one chip per value.
 */

import type { ReactNode } from 'react';

export interface FilterOption<V> {
  label: string;
  value: V;
}

export type FilterDef<F> =
  | { kind: 'choice'; key: keyof F & string; label: string; options: FilterOption<string | number | boolean>[] }
  | { kind: 'multi'; key: keyof F & string; label: string; options: FilterOption<string | number>[] };

export interface FilterChip<F> {
  id: string;
  label: string;
  remove: (filters: F) => F;
}

/** The chips of the active filters, in the bar's order. */
export function chipsOf<F extends object>(defs: readonly FilterDef<F>[], filters: F): FilterChip<F>[] {
  const values = filters as Record<string, unknown>;
  return defs.flatMap((def): FilterChip<F>[] => {
    const value = values[def.key];
    if (def.kind === 'choice') {
      if (value === undefined) return [];
      const option = def.options.find((candidate) => candidate.value === value);
      return [
        { id: `${def.key}`, label: `${def.label} : ${option?.label ?? String(value)}`, remove: (current) => ({ ...current, [def.key]: undefined }) },
      ];
    }
    const list = Array.isArray(value) ? (value as (string | number)[]) : [];
    return list.map((item) => ({
      id: `${def.key}-${item}`,
      label: `${def.label} : ${def.options.find((candidate) => candidate.value === item)?.label ?? String(item)}`,
      remove: (current) => {
        const rest = ((current as Record<string, unknown>)[def.key] as (string | number)[] | undefined)?.filter((entry) => entry !== item) ?? [];
        return { ...current, [def.key]: rest.length ? rest : undefined };
      },
    }));
  });
}

/**
 * The active filters as chips, each with its remove button: the one chip list of every filtered screen (the
 * FilterBar's, and a screen with its own filter controls). `leading` and `children` add entries before and after
 * the chips (a search-term chip, 'Clear All').
 */
export function FilterChips<F>(props: {
  chips: readonly FilterChip<F>[];
  filters: F;
  onChange: (filters: F) => void;
  testId: string;
  leading?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <ul className="chips" aria-label="Filtres actifs" data-testid={props.testId}>
      {props.leading}
      {props.chips.map((chip) => (
        <li key={chip.id} className="chip" data-testid={`chip-${chip.id}`}>
          <span>{chip.label}</span>
          <button
            type="button"
            className="chip-remove"
            aria-label={`Retirer le filtre ${chip.label}`}
            onClick={() => props.onChange(chip.remove(props.filters))}
            data-testid={`chip-remove-${chip.id}`}
          >
            ×
          </button>
        </li>
      ))}
      {props.children}
    </ul>
  );
}

const ALL = '__all__';

export function FilterBar<F extends object>(props: { defs: readonly FilterDef<F>[]; filters: F; onChange: (filters: F) => void; testId?: string }) {
  const values = props.filters as Record<string, unknown>;
  const chips = chipsOf(props.defs, props.filters);
  const testId = props.testId ?? 'filters';
  return (
    <div className="filter-bar" data-testid={testId}>
      <div className="filter-controls">
        {props.defs.map((def) => {
          if (def.kind === 'choice') {
            const index = def.options.findIndex((option) => option.value === values[def.key]);
            return (
              <label key={def.key} className="filter">
                <span className="field-label">{def.label}</span>
                <select
                  value={index < 0 ? ALL : String(index)}
                  data-testid={`${testId}-${def.key}`}
                  onChange={(event) => {
                    const chosen = event.target.value === ALL ? undefined : def.options[Number(event.target.value)]?.value;
                    props.onChange({ ...props.filters, [def.key]: chosen });
                  }}
                >
                  <option value={ALL}>Tous</option>
                  {def.options.map((option, position) => (
                    <option key={String(option.value)} value={String(position)}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </label>
            );
          }
          const chosen = Array.isArray(values[def.key]) ? (values[def.key] as (string | number)[]) : [];
          return (
            <label key={def.key} className="filter">
              <span className="field-label">{def.label}</span>
              <select
                value=""
                data-testid={`${testId}-${def.key}`}
                onChange={(event) => {
                  const option = def.options[Number(event.target.value)];
                  if (option && !chosen.includes(option.value)) props.onChange({ ...props.filters, [def.key]: [...chosen, option.value] });
                }}
              >
                <option value="">Ajouter…</option>
                {def.options.map((option, position) =>
                  chosen.includes(option.value) ? null : (
                    <option key={String(option.value)} value={String(position)}>
                      {option.label}
                    </option>
                  ),
                )}
              </select>
            </label>
          );
        })}
      </div>
      {chips.length > 0 && <FilterChips chips={chips} filters={props.filters} onChange={props.onChange} testId={`${testId}-chips`} />}
    </div>
  );
}

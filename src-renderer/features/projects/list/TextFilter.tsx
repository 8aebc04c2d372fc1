import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { PROJECT_SEARCH_MIN_CHARACTERS } from '@shared/rules/project-list';
import { useQuery } from '../../../lib/use-query';
import { projectValuesAtom } from '../list-atoms';
import { FILTER_SEARCH_DEBOUNCE_MS, truncate, type TextFilterKey } from './filters';

/**
 * A text filter: type 2 characters for suggestions (10), pick one, or press Enter to filter on every value that
 * contains what is typed, as the /targets column filters do (docs/projects.md); none: 'Aucun résultat', no filter.
 */
export function TextFilter(props: { field: TextFilterKey; label: string; source: 'Project' | 'Target'; onAdd: (values: string[]) => void }) {
  const fetchValues = useSetAtom(projectValuesAtom);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  // The term whose search came back empty (the suggestions' or Enter's): 'Aucun résultat' while it is the one typed.
  const [emptyFor, setEmptyFor] = useState<string | null>(null);
  const suggesting = open && text.trim().length >= PROJECT_SEARCH_MIN_CHARACTERS;
  const term = text.trim();
  const { data: found } = useQuery(
    ['projects.values', props.source, props.field, term],
    async (signal) => {
      const answer = await fetchValues({ label: props.source, field: props.field, term, limit: 10 });
      if (!answer.length && !signal.aborted) setEmptyFor(term);
      return answer;
    },
    { enabled: suggesting, debounceMs: FILTER_SEARCH_DEBOUNCE_MS },
  );
  // The last answer while suggestions apply; none otherwise (derived, not cleared by an effect).
  const values = suggesting ? (found ?? []) : [];
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

import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { PROJECT_SEARCH_MIN_CHARACTERS } from '@shared/rules/project-list';
import { useAdjustOnChange } from '../../../lib/render-state';
import { useQuery } from '../../../lib/use-query';
import { projectsTermAtom, projectValuesAtom, searchProjectsAtom } from '../list-atoms';
import { FILTER_SEARCH_DEBOUNCE_MS, truncate } from './filters';

/** The search box (project and client), with suggestions from 2 characters (spec §5). */
export function SearchBox() {
  const term = useAtomValue(projectsTermAtom);
  const search = useSetAtom(searchProjectsAtom);
  const fetchValues = useSetAtom(projectValuesAtom);
  const [draft, setDraft] = useState(term);
  const [open, setOpen] = useState(false);
  // The box shows the list's term again whenever that changes (a reset, a chosen suggestion).
  useAdjustOnChange(term, () => setDraft(term));
  const suggesting = open && draft.trim().length >= PROJECT_SEARCH_MIN_CHARACTERS;
  const text = draft.trim();
  const { data: found } = useQuery(
    ['projects.suggest', text],
    async () => {
      const [names, clients] = await Promise.all([
        fetchValues({ label: 'Project', field: 'name', term: text, limit: 5 }),
        fetchValues({ label: 'Project', field: 'clientName', term: text, limit: 5 }),
      ]);
      return [...new Set([...names, ...clients])];
    },
    { enabled: suggesting, debounceMs: FILTER_SEARCH_DEBOUNCE_MS },
  );
  // The last answer while suggestions apply; none otherwise (derived, not cleared by an effect).
  const suggestions = suggesting ? (found ?? []) : [];

  const choose = (value: string) => {
    setDraft(value);
    search(value);
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
          search(event.target.value);
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

import { useAtom, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { PROJECT_SEARCH_MIN_CHARACTERS } from '@shared/rules/project-list';
import { useAdjustOnChange } from '../../../lib/render-state';
import { projectsTermAtom, projectValuesAtom } from '../list-atoms';
import { FILTER_SEARCH_DEBOUNCE_MS, truncate } from './filters';

/** The search box (project and client), with suggestions from 2 characters (spec §5). */
export function SearchBox() {
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

import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { NODE_SEARCH_DEBOUNCE_MS, hasNode } from '@shared/rules/audience-editor';
import { useQuery } from '../../lib/use-query';
import { addNodeAtom } from './atoms/criteria';
import { draftAtom, type EditorNode } from './atoms/draft';
import { nodeResultsAtom, nodeTermAtom, searchNodesAtom } from './atoms/live';
import { Highlighted } from './Highlighted';
import { labelName } from './labels';

/** The criteria search bar: node search debounced 320 ms, 25 results, bolded for terms of 3+ characters. */
export function CriteriaSearch() {
  const draft = useAtomValue(draftAtom)!;
  const [term, setTerm] = useAtom(nodeTermAtom);
  const found = useAtomValue(nodeResultsAtom);
  // Spec §5: items already attached are left out, saved or not (the server leaves out the saved ones).
  const results = found.filter((node) => !hasNode(draft.relationships, node));
  const search = useSetAtom(searchNodesAtom);
  const add = useSetAtom(addNodeAtom);
  const audienceId = draft.id;

  // The kernel waits for the pause in typing and drops the answer of a search typed over; once it settled, the
  // results answer the term shown ('Aucun résultat' then, unless it failed).
  const query = useQuery(['nodes.search', term.trim(), audienceId], (signal) => search({ term, audienceId }, signal), {
    debounceMs: NODE_SEARCH_DEBOUNCE_MS,
  });
  const answered = !query.loading && query.data === true;
  useEffect(() => () => setTerm(''), [setTerm]);

  const choose = async (node: EditorNode) => {
    setTerm('');
    await add(node);
  };

  return (
    <div className="criteria-search">
      <input
        type="search"
        placeholder="Rechercher un critère..."
        aria-label="Rechercher un critère"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        data-testid="criteria-search"
      />
      {term.trim() && results.length > 0 && (
        <ul className="criteria-results" role="listbox" data-testid="criteria-results">
          {results.map((node) => (
            <li key={`${node.label}-${node.id}`} role="option" aria-selected={false}>
              <button type="button" className="link" onClick={() => void choose(node)} data-testid={`criteria-result-${node.label}-${node.id}`}>
                <span className="node-label">{labelName(node.label)}</span> <Highlighted text={node.name} term={term} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {term.trim() && answered && results.length === 0 && (
        <p className="muted criteria-no-result" role="status" data-testid="criteria-no-result">
          {AUDIENCE_MESSAGES.criteriaNoResult}
        </p>
      )}
    </div>
  );
}

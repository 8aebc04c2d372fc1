import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { TESTER_REFRESH_MS, USER_SEARCH_DEBOUNCE_MS } from '@shared/rules/audience-editor';
import { useQuery } from '../../lib/use-query';
import { definitionAtom } from './atoms/draft';
import {
  chooseTesterUserAtom,
  refreshMembershipAtom,
  searchTesterUsersAtom,
  testerAnswerAtom,
  testerResultsAtom,
  testerTermAtom,
  testerUserAtom,
} from './atoms/live';

/** The live tester: a user searched by e-mail (1 s debounce), then membership refreshed 900 ms after a change. */
export function LiveTester() {
  const definition = useAtomValue(definitionAtom);
  const [term, setTerm] = useAtom(testerTermAtom);
  const results = useAtomValue(testerResultsAtom);
  const user = useAtomValue(testerUserAtom);
  const answer = useAtomValue(testerAnswerAtom);
  const search = useSetAtom(searchTesterUsersAtom);
  const choose = useSetAtom(chooseTesterUserAtom);
  const refresh = useSetAtom(refreshMembershipAtom);
  // 'Recherche…' while the term typed has no answer yet (its pause included); the kernel drops a search typed over.
  const searching = useQuery(['tester.search', term], (signal) => search(term, signal), {
    enabled: term.trim() !== '',
    debounceMs: USER_SEARCH_DEBOUNCE_MS,
  }).loading;
  // The verdict, a pause after each change of the definition or of the user.
  useQuery(['tester.membership', user?.id, definition], (signal) => (definition ? refresh(definition, signal) : Promise.resolve()), {
    enabled: definition !== null && user !== null,
    debounceMs: TESTER_REFRESH_MS,
  });

  return (
    <section aria-label="Testeur" data-testid="live-tester">
      <h3>Testeur</h3>
      <input
        type="search"
        placeholder="E-mail de l'utilisateur"
        aria-label="E-mail de l'utilisateur"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        data-testid="tester-search"
      />
      {term.trim() && !user && results.length > 0 && (
        <ul className="criteria-results" data-testid="tester-results">
          {results.map((found) => (
            <li key={found.id}>
              <button
                type="button"
                className="link"
                onClick={() => {
                  choose(found);
                  setTerm(found.email);
                }}
                data-testid={`tester-user-${found.id}`}
              >
                {found.email}
                {found.name ? ` (${found.name})` : ''}
              </button>
            </li>
          ))}
        </ul>
      )}
      {searching && !user && <p className="muted">Recherche…</p>}
      {/* The search of the term shown came back empty: said so, not a blank (docs/audiences.md). */}
      {!searching && term.trim() && !user && results.length === 0 && (
        <p className="muted" data-testid="tester-no-result">
          {AUDIENCE_MESSAGES.criteriaNoResult}
        </p>
      )}
      {user && (
        <div data-testid="tester-answer" data-user-id={user.id} data-member={answer === null ? '' : String(answer.member)}>
          <p>
            {user.email}{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                choose(null);
                setTerm('');
              }}
              data-testid="tester-clear"
            >
              Changer
            </button>
          </p>
          <p className={answer?.member ? 'tester-yes' : 'tester-no'} data-testid="tester-verdict">
            {answer === null ? 'Vérification…' : answer.member ? AUDIENCE_MESSAGES.testerMember : AUDIENCE_MESSAGES.testerNotMember}
          </p>
        </div>
      )}
    </section>
  );
}

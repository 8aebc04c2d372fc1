import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { AUDIENCE_SEARCH_DEBOUNCE_MS, AUDIENCE_SEARCH_LIMIT, isSearchableAudienceTerm } from '@shared/rules/advert-screens/audience-search';
import { canSearchAudiences } from '@shared/rules/advert-screens/editor-sections';
import { isExpertAudience } from '@shared/rules/publication';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { dataOf } from '../../../lib/query';
import { useQuery } from '../../../lib/use-query';
import { Section } from '../fields';
import type { SectionProps } from './section-props';

/** The audience type an advert type is targeted with (audiences §3 types). */
function audienceTypeOf(type: string | null | undefined): string | undefined {
  if (type === 'post' || type === 'video' || type === 'quiz') return 'timeline';
  if (type === 'search' || type === 'story' || type === 'notification' || type === 'banner' || type === 'tool') return type;
  return undefined;
}

type AudienceOption = { id: number; name: string; roles: string[]; area?: string };

/**
 * Audiences (§2.2): a new advert only says to save first; the search box is for CSM, CSM_LEAD and ADMIN (≥ 2
 * characters, 320 ms, 120 results for adverts and 25 for articles, the §5 ignore rules).
 */
export function AudiencesSection({ draft, patch, kind, roles, readOnly }: SectionProps & { readOnly: boolean }) {
  const call = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [term, setTerm] = useState('');
  const attached = draft._$audiences ?? [];
  const searchable = canSearchAudiences(roles) && !readOnly;
  const searching = searchable && isSearchableAudienceTerm(term);
  const type = kind === 'advert' ? audienceTypeOf(draft.type) : undefined;
  const query = { term: term.trim(), limit: AUDIENCE_SEARCH_LIMIT[kind], ...(type ? { type: type as never } : {}) };
  const { data: found } = useQuery(query, () => dataOf<AudienceOption[]>(call('audiences.search', { query })), {
    enabled: searching,
    debounceMs: AUDIENCE_SEARCH_DEBOUNCE_MS,
    onError: (error) => raise(N.audienceSearchFailed((error as Error).message)),
  });
  // The last answer while the term is searchable, without the audiences already attached (derived, not cleared by
  // an effect): an attached audience is not offered again.
  const results = searching ? (found ?? []).filter((audience) => !attached.some((entry) => entry.id === audience.id)) : [];

  if (kind === 'advert' && draft.id === undefined) {
    return (
      <Section id="audiences" title="Audiences" defaultOpen>
        <p className="muted" data-testid="audiences-save-first">
          {M.saveToAttachAudience}
        </p>
      </Section>
    );
  }

  const add = (audience: AudienceOption) => {
    if (attached.some((entry) => entry.id === audience.id)) return;
    patch({ _$audiences: [...attached, { id: audience.id, name: audience.name, roles: audience.roles, label: audience.area ?? '' }] });
  };
  const remove = (id: number) => patch({ _$audiences: attached.filter((entry) => entry.id !== id) });

  return (
    <Section id="audiences" title={kind === 'advert' ? 'Audiences' : 'Audience'} defaultOpen>
      <ul className="attached-audiences" data-testid="attached-audiences" data-field="_$audiences">
        {attached.length === 0 && <li className="muted">Aucune audience associée</li>}
        {attached.map((audience) => (
          <li key={audience.id} className="tag" data-testid={`attached-audience-${audience.id}`}>
            {audience.name}
            {!isExpertAudience(audience) && <span className="badge warning">non expert</span>}
            {!readOnly && (
              <button
                type="button"
                className="chip-remove"
                aria-label={`Retirer ${audience.name}`}
                onClick={() => remove(audience.id)}
                data-testid={`detach-audience-${audience.id}`}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {searchable && (
        <div className="audience-search">
          <input
            type="search"
            placeholder="Rechercher une audience..."
            aria-label="Rechercher une audience"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            data-testid="audience-search"
          />
          {results.length > 0 && (
            <ul className="search-results" data-testid="audience-results">
              {results.map((audience) => (
                <li key={audience.id}>
                  <button type="button" className="link" onClick={() => add(audience)} data-testid={`audience-result-${audience.id}`}>
                    {audience.name}
                  </button>
                  <span className="muted"> {audience.roles.join(', ')}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Section>
  );
}

import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import {
  ARTICLE_CRITERION_LABELS,
  ARTICLE_CRITERION_TITLES,
  CRITERION_SEARCH_DEBOUNCE_MS,
  CRITERION_SEARCH_MIN_LENGTH,
  type ArticleCriterionLabel,
  type CriterionNode,
} from '@shared/rules/article-audience';
import { raiseNoticeAtom } from '../../../lib/notices';
import { dataOf } from '../../../lib/query';
import { useQuery } from '../../../lib/use-query';
import { FieldError, Section, useFieldError } from '../fields';
import type { ContentApi, ContentItem } from '../types';

type Search = NonNullable<ContentApi['criteria']>['search'];

/** One label's picker: its chips (with a remove button) and a node search adding to them. */
function CriterionPicker(props: {
  label: ArticleCriterionLabel;
  chosen: CriterionNode[];
  readOnly: boolean;
  search: Search;
  onChange: (nodes: CriterionNode[]) => void;
}) {
  const { label, chosen, readOnly, search } = props;
  const raise = useSetAtom(raiseNoticeAtom);
  const [term, setTerm] = useState('');
  const searchable = !readOnly && term.trim().length >= CRITERION_SEARCH_MIN_LENGTH;
  const { data: found } = useQuery(['criteria', label, term.trim()], () => dataOf(search(label, term.trim())), {
    enabled: searchable,
    debounceMs: CRITERION_SEARCH_DEBOUNCE_MS,
    onError: (failure) => raise(N.audienceSearchFailed((failure as Error).message)),
  });
  // The last answer while the term is long enough; nothing under it (derived, not cleared by an effect).
  const results = searchable ? (found ?? []) : [];
  const title = ARTICLE_CRITERION_TITLES[label];

  const shown = results.filter((node) => !chosen.some((entry) => entry.id === node.id));
  return (
    <div className="criterion-picker" data-testid={`criteria-${label}`}>
      <span className="criterion-title">{title}</span>
      <ul className="attached-audiences" aria-label={title}>
        {chosen.map((node) => (
          <li key={node.id} className="tag" data-testid={`criterion-chip-${label}-${node.id}`}>
            {node.name}
            {!readOnly && (
              <button
                type="button"
                className="chip-remove"
                aria-label={`Retirer ${node.name}`}
                onClick={() => props.onChange(chosen.filter((entry) => entry.id !== node.id))}
                data-testid={`criterion-remove-${label}-${node.id}`}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {!readOnly && (
        <div className="audience-search">
          <input
            type="search"
            placeholder={`${title}...`}
            aria-label={`Rechercher : ${title}`}
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            data-testid={`criterion-search-${label}`}
          />
          {shown.length > 0 && (
            <ul className="search-results" data-testid={`criterion-results-${label}`}>
              {shown.map((node) => (
                <li key={node.id}>
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      props.onChange([...chosen, node]);
                      setTerm('');
                    }}
                    data-testid={`criterion-result-${label}-${node.id}`}
                  >
                    {node.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The article editor's Audience section (adverts-articles.md §2.5): the article's own criteria, edited inline per
 * label (Area, Country, Role, Profession, Specialty, Title, and OrGroup shown as 'Appetence'), saved with the item.
 */
export function ArticleCriteriaSection(props: {
  draft: ContentItem;
  patch: (patch: Partial<ContentItem>) => void;
  readOnly: boolean;
  search: Search;
}) {
  const criteria = props.draft._$criteria ?? [];
  // 'L'Area de l'audience est requise' (§5) is said here, at the criteria, not only in the toast.
  const areaError = useFieldError('_$audiences');
  const change = (label: ArticleCriterionLabel, nodes: CriterionNode[]) =>
    props.patch({ _$criteria: [...criteria.filter((node) => node.label !== label), ...nodes] });
  return (
    <Section id="audiences" title="Audience" defaultOpen>
      <div className="article-criteria" data-testid="article-criteria" data-field="_$audiences">
        {ARTICLE_CRITERION_LABELS.map((label) => (
          <CriterionPicker
            key={label}
            label={label}
            chosen={criteria.filter((node) => node.label === label)}
            readOnly={props.readOnly}
            search={props.search}
            onChange={(nodes) => change(label, nodes)}
          />
        ))}
        <FieldError field="_$audiences" message={areaError} />
      </div>
    </Section>
  );
}

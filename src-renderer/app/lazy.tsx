import { Component, createElement, lazy, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { MESSAGES } from '@shared/messages';
import { CHUNK_RETRY_DELAYS_MS, CHUNK_TIMEOUT_MS, loadWithRetry, withChunkTimeout } from './chunk-timeout';

/** A lazily loaded screen, with a way to fetch its chunk ahead of time. */
export type LazyScreen<P extends object> = ComponentType<P> & { preload(): Promise<void> };

/** Screens whose chunk failed: they try again once the user leaves the failure message (see ScreenErrorBoundary). */
const failedScreens = new Set<() => void>();

/**
 * A screen loaded on first use. A failed chunk is tried again a bounded number of times with back-off; a chunk
 * still missing then, or not in after 120 s, makes the screen report 'Loading chunk failed' (spec §8, §9).
 * The failure stays put while the message shows: React re-renders after an error, and a fresh load on each
 * render re-requested the chunk hundreds of times a second. Leaving the screen and opening it again retries.
 * Once the chunk is in (preload), the screen renders at once: suspending would hold it back behind React's
 * fallback throttle (about 300 ms) for nothing.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  options: { timeoutMs?: number; retryDelaysMs?: readonly number[] } = {},
): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const reset = () => {
    failedScreens.delete(reset);
    loading = null;
    current = create();
  };
  const fetchChunk = () => {
    loading ??= withChunkTimeout(
      () => loadWithRetry(load, options.retryDelaysMs ?? CHUNK_RETRY_DELAYS_MS),
      options.timeoutMs ?? CHUNK_TIMEOUT_MS,
    ).then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        failedScreens.add(reset);
        throw error;
      },
    );
    return loading;
  };
  const create = () => lazy(fetchChunk);
  let current = create();
  function LazyScreen(props: P) {
    return createElement(loaded ?? current, props);
  }
  // A failed preload does not settle the screen's fate: opening it tries again.
  LazyScreen.preload = () => fetchChunk().then(() => undefined, reset);
  return LazyScreen;
}

/** Shows what went wrong with a screen instead of a blank page; keyed by route so that another screen resets it. */
export class ScreenErrorBoundary extends Component<
  { children: ReactNode; onError?: (error: Error, componentStack: string | undefined) => void },
  { error: Error | null }
> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    // To the host's log, with the screen's route (Layout): the user sees only the message below.
    this.props.onError?.(error, info.componentStack ?? undefined);
  }
  override componentWillUnmount() {
    // The user leaves the failure: failed screens may try their chunk again next time.
    if (this.state.error) for (const reset of [...failedScreens]) reset();
  }
  override render() {
    if (this.state.error) {
      return (
        <div className="screen-error" role="alert" data-testid="screen-error">
          {this.state.error.message === MESSAGES.loadingChunkFailed ? MESSAGES.loadingChunkFailed : MESSAGES.genericError}
        </div>
      );
    }
    return this.props.children;
  }
}

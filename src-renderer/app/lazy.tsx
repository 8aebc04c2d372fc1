import { Component, createElement, lazy, type ComponentType, type ReactNode } from 'react';
import { MESSAGES } from '@shared/messages';
import { CHUNK_TIMEOUT_MS, withChunkTimeout } from './chunk-timeout';

export { CHUNK_TIMEOUT_MS } from './chunk-timeout';

/** A lazily loaded screen, with a way to fetch its chunk ahead of time. */
export type LazyScreen<P extends object> = ComponentType<P> & { preload(): Promise<void> };

/**
 * A screen loaded on first use. Its chunk must arrive within 120 s, else the screen reports 'Loading chunk
 * failed' (spec §4, §9). React.lazy remembers a failure forever, so a failed load is replaced by a fresh one:
 * opening the screen again retries. Once the chunk is in (preload), the screen renders at once: suspending
 * would hold it back behind React's fallback throttle (about 300 ms) for nothing.
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, timeoutMs = CHUNK_TIMEOUT_MS): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const fetchChunk = () => {
    loading ??= withChunkTimeout(load, timeoutMs).then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = null;
        current = create();
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
  LazyScreen.preload = () => fetchChunk().then(() => undefined, () => undefined);
  return LazyScreen;
}

/** Shows what went wrong with a screen instead of a blank page; keyed by route so that another screen resets it. */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
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

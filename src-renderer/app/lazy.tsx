import { Component, createElement, lazy, type ComponentType, type ReactNode } from 'react';
import { MESSAGES } from '@shared/messages';
import { CHUNK_TIMEOUT_MS, withChunkTimeout } from './chunk-timeout';

export { CHUNK_TIMEOUT_MS } from './chunk-timeout';

/**
 * A screen loaded on first use. Its chunk must arrive within 120 s, else the screen reports 'Loading chunk
 * failed' (spec §4, §9). React.lazy remembers a failure forever, so a failed load is replaced by a fresh one:
 * opening the screen again retries.
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, timeoutMs = CHUNK_TIMEOUT_MS): ComponentType<P> {
  const create = () =>
    lazy(() =>
      withChunkTimeout(load, timeoutMs).catch((error: unknown) => {
        current = create();
        throw error;
      }),
    );
  let current = create();
  function LazyScreen(props: P) {
    return createElement(current, props);
  }
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

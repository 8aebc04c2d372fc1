import { Component, lazy, type ComponentType, type ReactNode } from 'react';
import { MESSAGES } from '@shared/messages';

/** Spec §9: a screen whose chunk has not loaded after 120 s reports 'Loading chunk failed'. */
export const CHUNK_TIMEOUT_MS = 120_000;

export function lazyScreen<T extends ComponentType<object>>(load: () => Promise<{ default: T }>, timeoutMs = CHUNK_TIMEOUT_MS) {
  return lazy(
    () =>
      new Promise<{ default: T }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(MESSAGES.loadingChunkFailed)), timeoutMs);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          () => {
            clearTimeout(timer);
            reject(new Error(MESSAGES.loadingChunkFailed));
          },
        );
      }),
  );
}

export class ScreenErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) {
      return (
        <div className="screen-error" role="alert">
          {this.state.error.message === MESSAGES.loadingChunkFailed ? MESSAGES.loadingChunkFailed : MESSAGES.genericError}
        </div>
      );
    }
    return this.props.children;
  }
}

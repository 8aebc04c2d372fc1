import { Component, lazy, type ComponentType, type ReactNode } from 'react';
import { MESSAGES } from '@shared/messages';
import { CHUNK_TIMEOUT_MS, withChunkTimeout } from './chunk-timeout';

export { CHUNK_TIMEOUT_MS } from './chunk-timeout';


export function lazyScreen<T extends ComponentType<object>>(load: () => Promise<{ default: T }>, timeoutMs = CHUNK_TIMEOUT_MS) {
  return lazy(() => withChunkTimeout(load, timeoutMs));
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

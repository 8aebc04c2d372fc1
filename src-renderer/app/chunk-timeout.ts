import { MESSAGES } from '@shared/messages';

/** Spec §9: a screen whose chunk has not loaded after 120 s reports 'Loading chunk failed'. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** The chunk, or 'Loading chunk failed' when it fails or takes longer than the time-out. */
export function withChunkTimeout<T>(load: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
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
  });
}

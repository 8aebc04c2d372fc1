import { MESSAGES } from '@shared/messages';

/** Spec §9: a screen whose chunk has not loaded after 120 s reports 'Loading chunk failed'. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** Waits before each retry of a chunk that failed to load: two retries, then the screen reports the failure. */
export const CHUNK_RETRY_DELAYS_MS = [1000, 3000];

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

/**
 * Loads a chunk, trying again after each delay when it fails (a dropped connection, a server restarting), so a
 * failing chunk costs a bounded number of requests: `delays.length + 1`.
 */
export async function loadWithRetry<T>(load: () => Promise<T>, delaysMs: readonly number[] = CHUNK_RETRY_DELAYS_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= delaysMs.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, delaysMs[attempt]));
    }
  }
}

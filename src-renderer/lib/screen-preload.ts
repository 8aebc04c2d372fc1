import type { ScreenComponentKey } from '@shared/features';

/**
 * Fetching another screen's code ahead of time, by its screen id, without a feature reaching into the app's screen
 * registry: the app registers how (app/screens.ts), a feature asks for the screen its user is likely to open next.
 * A screen opened with its code in renders at once; otherwise it waits for its chunk behind React's Suspense
 * fallback, which stays at least ~300 ms.
 */
let preloader: ((screenId: string) => void) | null = null;

export function registerScreenPreloader(preload: (screenId: string) => void): void {
  preloader = preload;
}

/** Fetches the screen's chunk when the page is idle (nothing happens for a screen in the main chunk). */
export function preloadScreenWhenIdle(screenId: ScreenComponentKey): () => void {
  const idle = requestIdleCallback(() => preloader?.(screenId));
  return () => cancelIdleCallback(idle);
}

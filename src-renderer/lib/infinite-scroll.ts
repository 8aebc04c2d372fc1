import { useEffect, useRef, useState } from 'react';
import { useLatest } from './render-state';

/**
 * The app's one infinite-scroll mechanism: a sentinel element after the list; when it comes within `marginPx` of
 * the view, the next page is asked for (`onLoadMore`), after `debounceMs` when the spec asks for a debounce (the
 * projects list §9: 800 px, 180 ms; the content lists §2.4: 1000 px, 250 ms). An IntersectionObserver costs
 * nothing per scrolled frame, unlike a scroll listener measuring the page.
 *
 * The observer is made again when a page arrives (`loading` back to false, `itemCount` grown): it reports the
 * sentinel's position at once, so a short page that leaves the sentinel in view loads the next one without
 * waiting for a scroll. Answers the ref callback to put on the sentinel.
 */
export function useInfiniteScroll(options: {
  enabled: boolean;
  loading?: boolean;
  onLoadMore: () => void;
  marginPx?: number;
  debounceMs?: number;
  /** How many rows are loaded: a new page re-arms the sentinel. */
  itemCount?: number;
}): (node: HTMLElement | null) => void {
  const { enabled, loading = false, marginPx = 0, debounceMs = 0, itemCount = 0 } = options;
  const onLoadMore = useLatest(options.onLoadMore);
  const [node, setNode] = useState<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!node || !enabled || loading) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        clearTimeout(timer.current);
        if (debounceMs > 0) timer.current = setTimeout(() => onLoadMore.current(), debounceMs);
        else onLoadMore.current();
      },
      { rootMargin: `0px 0px ${marginPx}px 0px` },
    );
    observer.observe(node);
    return () => {
      observer.disconnect();
      clearTimeout(timer.current);
    };
  }, [node, enabled, loading, marginPx, debounceMs, itemCount, onLoadMore]);

  return setNode;
}

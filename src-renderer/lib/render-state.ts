import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * The latest value, for callbacks that run later (an async answer, a key or scroll handler, a navigation check):
 * written after each commit, never during the render (React Compiler's `refs` rule), read only outside rendering.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/**
 * Runs `adjust` (which sets this component's own state) during the render in which `key` differs from the one
 * seen before: state that restarts when an input changes, without the extra render and the flash of an effect
 * ("Adjusting some state when a prop changes", react.dev/learn/you-might-not-need-an-effect).
 */
export function useAdjustOnChange(key: unknown, adjust: () => void): void {
  const [seen, setSeen] = useState(key);
  if (!Object.is(seen, key)) {
    setSeen(key);
    adjust();
  }
}

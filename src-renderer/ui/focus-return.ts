import { useEffect, type RefObject } from 'react';

/**
 * A panel that opens over the page (an overlay, a sidebar) takes the focus, so the keyboard and a screen reader are
 * in it at once; when it closes, the focus goes back to what had it (the button that opened it) if still there.
 */
export function useFocusWhileOpen(ref: RefObject<HTMLElement | null>, open: boolean): void {
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [ref, open]);
}

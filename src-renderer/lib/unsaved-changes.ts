import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router-dom';
import { UNSAVED_CHANGES_MESSAGES as M } from '@shared/messages/unsaved-changes';
import { useConfirm } from './modal';
import { useLatest } from './render-state';

/**
 * Asks before an editor with unsaved changes is left (docs/content.md, unsaved changes): an in-app navigation to another page
 * (link, back button, navigate()) waits for « Quitter » / « Rester » in the app's modal; a reload or a closing
 * window gets the browser's beforeunload prompt (in Electron, the host's native dialog: 'will-prevent-unload').
 *
 * `isDirty` is read when the user leaves, not when the page last drew: a save followed at once by a navigation
 * (Save & quit, a new item moving to its edit route) is not stopped by changes that are saved by then.
 * A change of the query string or hash alone stays on the page and is never asked about.
 */
export function useUnsavedChangesGuard(isDirty: () => boolean): void {
  const dirtyRef = useLatest(isDirty);
  const confirm = useConfirm();

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && dirtyRef.current(),
    [dirtyRef],
  );
  const blocker = useBlocker(shouldBlock);

  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    void confirm(M.leaveQuestion, { confirm: M.leave, cancel: M.stay }).then((leave) => {
      asking.current = false;
      if (leave) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker, confirm]);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current()) return;
      event.preventDefault();
      // Older engines show their prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirtyRef]);
}

/**
 * Whether two drafts hold the same data (plain objects, arrays, primitives): a field typed then typed back is no
 * change; a key left undefined is the same as a key that is absent.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((value, index) => sameData(value, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameData(left[key], right[key])) return false;
  return true;
}

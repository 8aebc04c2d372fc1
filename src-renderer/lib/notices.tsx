import { atom, useAtom } from 'jotai';
import { useEffect } from 'react';
import { toast, type TypeOptions } from 'react-toastify/unstyled';
import type { Notice } from '@shared/messages';

const TOAST_TYPE: Record<Notice['kind'], TypeOptions> = {
  info: 'info',
  warning: 'warning',
  error: 'error',
  success: 'success',
  // A form or alert text shown away from its form: as the nearest toast kind.
  form: 'error',
  alert: 'warning',
};

/** The id of the toast shown for each kind and text, while it is up. */
const shownToastIds = new Map<string, string>();
let toastsShown = 0;

/** A toast id of its own for each showing, and the hook that forgets it when that showing closes. */
function nextShowing(key: string): { toastId: string; onClose: () => void } {
  const toastId = `${key}#${++toastsShown}`;
  shownToastIds.set(key, toastId);
  return { toastId, onClose: () => shownToastIds.get(key) === toastId && shownToastIds.delete(key) };
}

/**
 * Shows a notice of the spec's catalogues as a toast of its kind for its duration (spec §2 toaster, §8). The same
 * text of the same kind raised again while its toast is still up (two failing requests, a double click) is shown
 * once: its kind and text find its toast, which then counts its duration again from the new raise (the update gives
 * its progress bar, which is its timer, a new key), so a second import's 'CSV en cours de traitement' is not the
 * first one's, about to leave.
 */
export function showNotice(notice: Notice): void {
  const key = `${notice.kind}:${notice.text}`;
  const shown = shownToastIds.get(key);
  if (shown !== undefined && toast.isActive(shown)) {
    // At once, not after the toaster's default 100 ms: a toast whose time ran out meanwhile went on leaving, and
    // the end of its exit deleted the update that had come back under its id (CI lost a third import's
    // 'CSV en cours de traitement' so). Under a new id too, so that nothing of the old showing can close this one.
    return void toast.update(shown, { ...nextShowing(key), autoClose: notice.durationMs, delay: undefined });
  }
  // A toast on its way out is no longer active but keeps its id until its exit animation ends, and the toaster
  // drops a new toast with that id: each showing gets an id of its own.
  toast(notice.text, { ...nextShowing(key), type: TOAST_TYPE[notice.kind], autoClose: notice.durationMs });
}

/**
 * Notices raised by atoms, waiting for the toaster. Atoms never call the toaster themselves: they stay plain
 * state that a test reads from its store, and <NoticeHost> shows what they raise.
 */
export const pendingNoticesAtom = atom<Notice[]>([]);
pendingNoticesAtom.debugLabel = 'lib.pendingNotices';

export const raiseNoticeAtom = atom(null, (get, set, notice: Notice) => set(pendingNoticesAtom, [...get(pendingNoticesAtom), notice]));
raiseNoticeAtom.debugLabel = 'lib.raiseNotice';

export function NoticeHost() {
  const [pending, setPending] = useAtom(pendingNoticesAtom);
  useEffect(() => {
    if (pending.length === 0) return;
    pending.forEach(showNotice);
    setPending([]);
  }, [pending, setPending]);
  return null;
}

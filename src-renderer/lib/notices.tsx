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

/**
 * Shows a notice of the spec's catalogues as a toast of its kind for its duration (spec §2 toaster, §8). The same
 * text of the same kind raised again while its toast is still up (two failing requests, a double click) is shown
 * once: its kind and text find its toast. That toast then counts its duration again from the new raise (an update
 * gives its progress bar, which is its timer, a new key), so a second import's 'CSV en cours de traitement' is not
 * the first one's, about to leave.
 */
export function showNotice(notice: Notice): void {
  const key = `${notice.kind}:${notice.text}`;
  const shown = shownToastIds.get(key);
  if (shown !== undefined && toast.isActive(shown)) return void toast.update(shown, { autoClose: notice.durationMs });
  // A toast on its way out is no longer active but keeps its id until its exit animation ends, and the toaster
  // drops a new toast with that id: each showing gets an id of its own.
  const toastId = `${key}#${++toastsShown}`;
  shownToastIds.set(key, toastId);
  const onClose = () => shownToastIds.get(key) === toastId && shownToastIds.delete(key);
  toast(notice.text, { type: TOAST_TYPE[notice.kind], autoClose: notice.durationMs, toastId, onClose });
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

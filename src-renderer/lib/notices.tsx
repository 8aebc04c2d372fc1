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

/**
 * Shows a notice of the spec's catalogues as a toast of its kind for its duration (spec §2 toaster, §8). The same
 * text of the same kind raised again while its toast is still up (two failing requests, a double click) is shown
 * once: its kind and text make its toast id. That toast then counts its duration again from the new raise (an update
 * gives its progress bar, which is its timer, a new key), so a second import's 'CSV en cours de traitement' is not
 * the first one's, about to leave.
 */
export function showNotice(notice: Notice): void {
  const toastId = `${notice.kind}:${notice.text}`;
  if (toast.isActive(toastId)) toast.update(toastId, { autoClose: notice.durationMs });
  else toast(notice.text, { type: TOAST_TYPE[notice.kind], autoClose: notice.durationMs, toastId });
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

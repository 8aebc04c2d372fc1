import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, type ReactNode } from 'react';
import { ConfirmDialog } from '../ui/ConfirmDialog';

/** The one global modal (spec §2: a global modal host; later the media library). */
export const modalAtom = atom<ReactNode | null>(null);
modalAtom.debugLabel = 'lib.modal';

export function ModalHost() {
  const modal = useAtomValue(modalAtom);
  return modal ? (
    <div className="modal-backdrop" data-testid="modal-host">
      {modal}
    </div>
  ) : null;
}

/** Asks a yes/no question in the modal host; resolves true when confirmed, false on No or Escape. */
export function useConfirm(): (message: string, labels?: { confirm?: string; cancel?: string; focus?: 'confirm' | 'cancel' }) => Promise<boolean> {
  const setModal = useSetAtom(modalAtom);
  return useCallback(
    (message, labels = {}) =>
      new Promise<boolean>((resolve) => {
        let answered = false;
        const answer = (confirmed: boolean) => {
          if (answered) return;
          answered = true;
          setModal(null);
          resolve(confirmed);
        };
        setModal(
          <ConfirmDialog message={message} confirmLabel={labels.confirm} cancelLabel={labels.cancel} focus={labels.focus} onAnswer={answer} />,
        );
      }),
    [setModal],
  );
}

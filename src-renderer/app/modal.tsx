import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, type ReactNode } from 'react';

/** The one global modal (spec §2: a global modal host; later the media library). */
export const modalAtom = atom<ReactNode | null>(null);
modalAtom.debugLabel = 'app.modal';

export function ModalHost() {
  const modal = useAtomValue(modalAtom);
  return modal ? <div className="modal-backdrop">{modal}</div> : null;
}

export function Dialog(props: { title: string; children: ReactNode; actions: ReactNode; testId?: string }) {
  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="dialog-title" data-testid={props.testId}>
      <h2 id="dialog-title">{props.title}</h2>
      <div className="dialog-body">{props.children}</div>
      <div className="dialog-actions">{props.actions}</div>
    </div>
  );
}

/** Asks a yes/no question in the modal host; resolves true when confirmed. */
export function useConfirm(): (message: string, labels?: { confirm?: string; cancel?: string }) => Promise<boolean> {
  const setModal = useSetAtom(modalAtom);
  return useCallback(
    (message, labels = {}) =>
      new Promise<boolean>((resolve) => {
        const close = (answer: boolean) => {
          setModal(null);
          resolve(answer);
        };
        setModal(
          <Dialog
            title="Confirmation"
            testId="confirm-dialog"
            actions={
              <>
                <button type="button" className="secondary" onClick={() => close(false)}>
                  {labels.cancel ?? 'Non'}
                </button>
                <button type="button" className="primary" autoFocus onClick={() => close(true)}>
                  {labels.confirm ?? 'Oui'}
                </button>
              </>
            }
          >
            <p>{message}</p>
          </Dialog>,
        );
      }),
    [setModal],
  );
}

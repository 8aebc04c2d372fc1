import { Dialog } from './Dialog';

/** A yes/no question ('Voulez-vous fermer votre session?', 'It cannot be undone, are you sure?', ...). */
export function ConfirmDialog(props: {
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive question opens on the safe answer ('cancel'); otherwise on the confirmation. */
  focus?: 'confirm' | 'cancel';
  onAnswer: (confirmed: boolean) => void;
}) {
  const safeFirst = props.focus === 'cancel';
  const cancel = () => props.onAnswer(false);
  return (
    <Dialog
      title="Confirmation"
      testId="confirm-dialog"
      onCancel={cancel}
      actions={
        <>
          <button type="button" className="secondary" autoFocus={safeFirst} onClick={cancel} data-testid="confirm-no">
            {props.cancelLabel ?? 'Non'}
          </button>
          <button type="button" className="primary" autoFocus={!safeFirst} onClick={() => props.onAnswer(true)} data-testid="confirm-yes">
            {props.confirmLabel ?? 'Oui'}
          </button>
        </>
      }
    >
      <p data-testid="confirm-message">{props.message}</p>
    </Dialog>
  );
}

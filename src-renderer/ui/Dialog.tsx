import { tabbable } from 'tabbable';
import { useCallback, useId, useRef, useState, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';

/**
 * A modal dialog box: the native <dialog> opened with showModal(), so the browser keeps Tab and the screen
 * reader inside it and makes the page behind inert (HTML §4.11.4, WAI-ARIA APG "Dialog (Modal)"). Escape cancels
 * it like its Cancel button and Tab wraps round its fields; when it goes, focus returns to what had it before (the
 * button that opened it).
 */
export function Dialog(props: { title: string; children: ReactNode; actions: ReactNode; onCancel?: () => void; testId?: string }) {
  const titleId = useId();
  const ref = useRef<HTMLDialogElement | null>(null);
  // The content mounts once the dialog is modal: its autoFocus needs a shown element to focus.
  const [shown, setShown] = useState(false);
  const mounted = useRef(false);

  // Opened as the element is attached, closed (while still in the page) as it goes.
  const attach = useCallback((dialog: HTMLDialogElement) => {
    ref.current = dialog;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    mounted.current = true;
    dialog.showModal();
    setShown(true);
    return () => {
      mounted.current = false;
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const { onCancel } = props;
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const dialog = ref.current!;
    // A dialog opened from this one handles its own keys.
    if ((event.target as Element).closest('dialog') !== dialog) return;
    if (event.key === 'Escape') {
      // The dialog's own cancel would close the element behind React's back: its owner closes it instead.
      event.preventDefault();
      onCancel?.();
    } else if (event.key === 'Tab') {
      // A modal dialog lets Tab leave for the browser's own controls after its last field: it wraps instead.
      const stops = tabbable(dialog);
      const first = stops[0];
      const last = stops[stops.length - 1];
      const active = document.activeElement;
      if (!first || !last) event.preventDefault();
      else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      } else if (event.shiftKey && (active === first || active === dialog)) {
        event.preventDefault();
        last.focus();
      }
    }
  };
  const onNativeCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    onCancel?.();
  };
  // Chromium may close a modal dialog without a cancel event (repeated Escape): still shown while it is rendered.
  const onClose = () => {
    if (mounted.current && ref.current?.isConnected && !ref.current.open) ref.current.showModal();
  };

  return (
    <dialog
      ref={attach}
      className="dialog"
      aria-labelledby={titleId}
      data-testid={props.testId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onCancel={onNativeCancel}
      onClose={onClose}
    >
      <h2 id={titleId}>{props.title}</h2>
      {shown && (
        <>
          <div className="dialog-body">{props.children}</div>
          <div className="dialog-actions">{props.actions}</div>
        </>
      )}
    </dialog>
  );
}

/** The usual actions of a dialog: 'Annuler', then the button that confirms it (a submit of `form` when named). */
export function DialogActions(props: {
  onCancel(): void;
  confirm?: { label: ReactNode; onClick?: () => void; form?: string; disabled?: boolean; testId?: string };
}) {
  const { onCancel, confirm } = props;
  return (
    <>
      <button type="button" className="secondary" onClick={onCancel}>
        Annuler
      </button>
      {confirm && (
        <button
          type={confirm.form ? 'submit' : 'button'}
          form={confirm.form}
          className="primary"
          onClick={confirm.onClick}
          disabled={confirm.disabled}
          data-testid={confirm.testId}
        >
          {confirm.label}
        </button>
      )}
    </>
  );
}

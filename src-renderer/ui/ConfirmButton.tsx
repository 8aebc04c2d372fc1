import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createConfirmArm, CONFIRM_REVERT_MS } from './confirm-button-state';

/**
 * A button that asks before acting: it opens an inline prompt (the question, Oui and Non) that closes by itself
 * after 5 s (adverts-articles.md §2.2 "Confirm buttons"). The one confirm button of the app.
 */
export function ConfirmButton(props: {
  children: ReactNode;
  /** The question, e.g. 'It cannot be undone, are you sure?'. */
  message: string;
  onConfirm: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  className?: string;
  testId?: string;
  /** For a button showing an icon only: its name (read aloud, and shown on hover). */
  label?: string;
  revertAfterMs?: number;
}) {
  const [armed, setArmed] = useState(false);
  const arm = useRef<ReturnType<typeof createConfirmArm> | null>(null);
  const revertAfterMs = props.revertAfterMs ?? CONFIRM_REVERT_MS;
  useEffect(() => {
    const current = createConfirmArm(setArmed, revertAfterMs);
    arm.current = current;
    return () => current.dispose();
  }, [revertAfterMs]);

  if (!armed) {
    return (
      <button
        type="button"
        className={props.className ?? 'link'}
        data-testid={props.testId}
        aria-label={props.label}
        title={props.label}
        onClick={() => arm.current?.arm()}
      >
        {props.children}
      </button>
    );
  }
  return (
    <span
      className="confirm-prompt"
      role="alertdialog"
      aria-label={props.message}
      data-testid={props.testId ? `${props.testId}-prompt` : 'confirm-prompt'}
      // Escape answers Non, as in any dialog.
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        arm.current?.cancel();
      }}
    >
      <span className="confirm-prompt-message">{props.message}</span>
      <button
        type="button"
        className="link danger"
        autoFocus
        onClick={() => {
          if (arm.current?.confirm()) props.onConfirm();
        }}
      >
        {props.confirmLabel ?? 'Oui'}
      </button>
      <button type="button" className="link" onClick={() => arm.current?.cancel()}>
        {props.cancelLabel ?? 'Non'}
      </button>
    </span>
  );
}

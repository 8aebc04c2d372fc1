import { useEffect, useId, type ReactNode } from 'react';

/**
 * A modal dialog box, shown inside the app's modal host. Escape cancels it like its Cancel button, so the
 * keyboard never gets stuck behind a backdrop.
 */
export function Dialog(props: { title: string; children: ReactNode; actions: ReactNode; onCancel?: () => void; testId?: string }) {
  const titleId = useId();
  const { onCancel } = props;
  useEffect(() => {
    if (!onCancel) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onCancel]);

  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={props.testId}>
      <h2 id={titleId}>{props.title}</h2>
      <div className="dialog-body">{props.children}</div>
      <div className="dialog-actions">{props.actions}</div>
    </div>
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

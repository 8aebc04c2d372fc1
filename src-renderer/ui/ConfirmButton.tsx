import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createConfirmArm, CONFIRM_REVERT_MS } from './confirm-button-state';

/** An inline button that asks for a second click ('Confirmer ?') and reverts after 5 s. */
export function ConfirmButton(props: { children: ReactNode; confirmLabel?: string; onConfirm: () => void; className?: string; testId?: string; revertAfterMs?: number }) {
  const [armed, setArmed] = useState(false);
  const arm = useRef<ReturnType<typeof createConfirmArm> | null>(null);
  const revertAfterMs = props.revertAfterMs ?? CONFIRM_REVERT_MS;
  useEffect(() => {
    const current = createConfirmArm(setArmed, revertAfterMs);
    arm.current = current;
    return () => current.dispose();
  }, [revertAfterMs]);

  return (
    <button
      type="button"
      className={`${props.className ?? 'link'}${armed ? ' armed' : ''}`}
      data-testid={props.testId}
      data-armed={armed || undefined}
      onClick={() => {
        if (arm.current?.click()) props.onConfirm();
      }}
    >
      {armed ? (props.confirmLabel ?? 'Confirmer ?') : props.children}
    </button>
  );
}

import { useState } from 'react';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { DELAY_REASONS, type DelayReason } from '@shared/rules/campaigns';
import { Dialog } from '../../ui/Dialog';

/** The delay-reason dialog (§2.2): the seven reasons as buttons, Annuler and Confirmer. */
export function DelayReasonDialog(props: { initial: DelayReason | null; onAnswer: (reason: DelayReason | null) => void }) {
  const [reason, setReason] = useState<DelayReason | null>(props.initial);
  return (
    <Dialog
      title={M.delayReasonTitle}
      testId="delay-reason-dialog"
      onCancel={() => props.onAnswer(null)}
      actions={
        <>
          <button type="button" className="secondary" onClick={() => props.onAnswer(null)} data-testid="delay-reason-cancel">
            {M.cancel}
          </button>
          <button type="button" className="primary" disabled={!reason} onClick={() => props.onAnswer(reason)} data-testid="delay-reason-confirm">
            {M.confirm}
          </button>
        </>
      }
    >
      <div className="reason-buttons">
        {DELAY_REASONS.map((entry) => (
          <button
            key={entry.key}
            type="button"
            className={reason === entry.key ? 'primary' : 'secondary'}
            aria-pressed={reason === entry.key}
            onClick={() => setReason(entry.key)}
            data-testid={`delay-reason-${entry.key}`}
          >
            {entry.label}
          </button>
        ))}
      </div>
    </Dialog>
  );
}

import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { Dialog } from '../../ui/Dialog';

/** The conversion question (§2.2): 'Convertir en post contenu ?' with its info line. */
export function ConvertDialog(props: { title: string; info: string; onAnswer: (confirmed: boolean) => void }) {
  return (
    <Dialog
      title={props.title}
      testId="convert-dialog"
      onCancel={() => props.onAnswer(false)}
      actions={
        <>
          <button type="button" className="secondary" onClick={() => props.onAnswer(false)} data-testid="convert-cancel">
            {M.cancel}
          </button>
          <button type="button" className="primary" onClick={() => props.onAnswer(true)} data-testid="convert-confirm">
            {M.confirm}
          </button>
        </>
      }
    >
      <p className="muted" data-testid="convert-info">
        {props.info}
      </p>
    </Dialog>
  );
}

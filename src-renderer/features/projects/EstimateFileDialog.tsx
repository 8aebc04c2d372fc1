import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type JSX } from 'react';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { estimateFileBusyAtom, importEstimateFileAtom, type EstimateFileOutcome } from './estimate-file-atoms';

/**
 * The invoicing tool's quote export, imported by an administrator from the projects list (docs/projects.md, Quotes): what
 * the file holds, a button opening the file dialog, then the count of quotes imported or the server's refusal
 * naming the line and column. Its quotes answer the 'Importer un devis' dialogs at once.
 */
export function EstimateFileDialog(props: { onClose(): void }): JSX.Element {
  const busy = useAtomValue(estimateFileBusyAtom);
  const run = useSetAtom(importEstimateFileAtom);
  const [outcome, setOutcome] = useState<EstimateFileOutcome>(null);

  async function choose() {
    setOutcome(null);
    const answer = await run();
    if (answer) setOutcome(answer);
  }

  return (
    <div className="modal-backdrop">
      <Dialog
        title={PROJECT_MESSAGES.estimateFileTitle}
        testId="estimate-file-dialog"
        onCancel={props.onClose}
        actions={
          <DialogActions
            onCancel={props.onClose}
            confirm={{ label: PROJECT_MESSAGES.estimateFileChoose, onClick: () => void choose(), disabled: busy, testId: 'estimate-file-choose' }}
          />
        }
      >
        <p className="help">{PROJECT_MESSAGES.estimateFileHelp}</p>
        {outcome?.kind === 'imported' && (
          <p className="success" role="status" data-testid="estimate-file-imported">
            {outcome.text}
          </p>
        )}
        {outcome?.kind === 'refused' && (
          <p className="error" role="alert" data-testid="estimate-file-error">
            {outcome.text}
          </p>
        )}
      </Dialog>
    </div>
  );
}

import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent, type JSX } from 'react';
import type { Project } from '@shared/contract/projects/projects';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { ESTIMATE_ID_PATTERN } from '@shared/rules/projects';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { estimateImportBusyAtom, importEstimateIntoProjectAtom } from './estimate-import-atoms';

/**
 * The quote import of an existing project (spec §2 "quote import", §8): a quote number DEV-...; its lines are
 * added to the project as actions.
 */
export function EstimateImportDialog(props: { projectId: number; onClose(): void; onImported(project: Project): void }): JSX.Element | null {
  const [estimateId, setEstimateId] = useState('');
  const [touched, setTouched] = useState(false);
  const busy = useAtomValue(estimateImportBusyAtom);
  const run = useSetAtom(importEstimateIntoProjectAtom);
  const id = estimateId.trim();
  const valid = ESTIMATE_ID_PATTERN.test(id);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    setTouched(true);
    if (!valid || busy) return;
    const project = await run({ projectId: props.projectId, estimateId: id });
    if (project) props.onImported(project);
  }

  return (
    <div className="modal-backdrop">
      <Dialog
        title={PROJECT_MESSAGES.importEstimateChoice}
        testId="estimate-import-dialog"
        onCancel={props.onClose}
        actions={
          <DialogActions
            onCancel={props.onClose}
            confirm={{ label: 'Importer', form: 'estimate-import-form', disabled: !valid || busy, testId: 'estimate-import-submit' }}
          />
        }
      >
        <form id="estimate-import-form" className="form" onSubmit={submit} noValidate>
          <TextField
            label="Numéro de devis"
            value={estimateId}
            onChange={(value) => {
              setEstimateId(value);
              if (!value) setTouched(false);
            }}
            placeholder="DEV-..."
            autoFocus
            testId="estimate-import-id"
            error={touched || (id.length >= 4 && !valid) ? (valid ? null : 'Numéro de devis attendu : DEV-...') : null}
          />
        </form>
      </Dialog>
    </div>
  );
}

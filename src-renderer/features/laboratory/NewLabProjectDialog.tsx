import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import { LAB_MESSAGES as M } from '@shared/messages/laboratory';
import { DEFAULT_LAB_SPECIALTY_ID } from '@shared/rules/laboratory';
import { loadMetaAtom, metaAtom } from '../../lib/meta';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';

/**
 * The new-project modal: a name, a specialty (26 by default, spec §9), then the panel file picked and sent with its
 * progress. The create button is disabled without a name (spec §5).
 */
export function NewLabProjectDialog(props: { onCreate: (fields: { projectName: string; specialtyId: number }) => void; onClose: () => void }) {
  const [name, setName] = useState('');
  const [specialtyId, setSpecialtyId] = useState(DEFAULT_LAB_SPECIALTY_ID);
  const meta = useAtomValue(metaAtom);
  const loadMeta = useSetAtom(loadMetaAtom);
  useEffect(() => void loadMeta(), [loadMeta]);
  const specialties = meta?.specialties ?? [];
  const enabled = name.trim().length > 0;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (enabled) props.onCreate({ projectName: name.trim(), specialtyId });
  }

  return (
    <Dialog
      title={M.createTitle}
      testId="lab-new-dialog"
      onCancel={props.onClose}
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose}>
            {M.cancel}
          </button>
          <button type="submit" form="lab-new-form" className="primary" disabled={!enabled} data-testid="lab-new-create">
            {M.chooseAndCreate}
          </button>
        </>
      }
    >
      <form id="lab-new-form" className="form" onSubmit={submit} noValidate>
        <TextField label={M.projectName} value={name} onChange={setName} autoFocus testId="lab-new-name" />
        <label className="field">
          <span className="field-label">{M.specialty}</span>
          <select value={specialtyId} onChange={(event) => setSpecialtyId(Number(event.target.value))} data-testid="lab-new-specialty">
            {!specialties.some((item) => item.id === specialtyId) && <option value={specialtyId}>{specialtyId}</option>}
            {specialties.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </label>
        <p className="field-help">{M.panelFile}</p>
      </form>
    </Dialog>
  );
}

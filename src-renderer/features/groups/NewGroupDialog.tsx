import { useState, type FormEvent } from 'react';
import { GROUP_MESSAGES } from '@shared/messages/groups';
import { GROUP_LABELS, type GroupLabel } from '@shared/rules/audiences';
import { canCreateGroup } from '@shared/rules/groups';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';

/** The new-group modal: a name and OrGroup / AndGroup; Créer stays disabled while the name is empty (spec §5). */
export function NewGroupDialog(props: { onCreate: (fields: { name: string; label: GroupLabel }) => Promise<boolean>; onClose: () => void }) {
  const [name, setName] = useState('');
  const [label, setLabel] = useState<GroupLabel>('OrGroup');
  const [busy, setBusy] = useState(false);
  const enabled = canCreateGroup(name) && !busy;

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!enabled) return;
    setBusy(true);
    const created = await props.onCreate({ name, label });
    setBusy(false);
    if (created) props.onClose();
  }

  return (
    <Dialog
      title="Nouveau groupe"
      testId="group-new-dialog"
      onCancel={props.onClose}
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose}>
            Annuler
          </button>
          <button type="submit" form="group-new-form" className="primary" disabled={!enabled} data-testid="group-new-create">
            {GROUP_MESSAGES.createGroup}
          </button>
        </>
      }
    >
      <form id="group-new-form" className="form" onSubmit={submit} noValidate>
        <TextField label="Nom" value={name} onChange={setName} autoFocus testId="group-new-name" />
        <label className="field">
          <span className="field-label">Type</span>
          <select value={label} onChange={(event) => setLabel(event.target.value as GroupLabel)} data-testid="group-new-label">
            {GROUP_LABELS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
      </form>
    </Dialog>
  );
}

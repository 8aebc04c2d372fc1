import { useState, type FormEvent } from 'react';
import type { Account } from '@shared/contract';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';

export interface AccountFields {
  name: string;
  nickname: string;
  username: string;
}

/**
 * 'Ajouter un utilisateur' (create) or 'Modifier l'utilisateur' (edit, read-only uuid). No client-side validation
 * (spec §5): the form is noValidate so the browser does not check the e-mail either; the server answers.
 */
export function AccountDialog(props: { account?: Account; onSubmit: (fields: AccountFields) => Promise<boolean>; onClose: () => void }) {
  const editing = Boolean(props.account);
  const [name, setName] = useState(props.account?.name ?? '');
  const [nickname, setNickname] = useState(props.account?.nickname ?? '');
  const [username, setUsername] = useState(props.account?.username ?? '');
  const [busy, setBusy] = useState(false);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    const saved = await props.onSubmit({ name, nickname, username });
    setBusy(false);
    if (saved) props.onClose();
  }

  return (
    <Dialog
      title={editing ? "Modifier l'utilisateur" : 'Ajouter un utilisateur'}
      testId="account-dialog"
      onCancel={props.onClose}
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose} data-testid="account-dialog-cancel">
            Cancel
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void submit()} data-testid="account-dialog-submit">
            {editing ? 'Enregistrer' : 'Ajouter'}
          </button>
        </>
      }
    >
      <form className="form" onSubmit={submit} noValidate>
        {editing && <TextField label="UUID" value={props.account!.uuid} readOnly testId="account-uuid" />}
        <TextField label="Nom" value={name} onChange={setName} testId="account-name" autoFocus />
        <TextField label="Surnom" value={nickname} onChange={setNickname} testId="account-nickname" />
        <TextField label="E-mail" type="email" value={username} onChange={setUsername} testId="account-email" />
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

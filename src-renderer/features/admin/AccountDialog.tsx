import { useState, type FormEvent } from 'react';
import type { Account } from '@shared/contract';
import { Dialog } from '../../app/modal';

/** 'Ajouter un utilisateur' (create) or 'Modifier l'utilisateur' (edit, read-only uuid). No client-side validation (spec §5). */
export function AccountDialog(props: { account?: Account; onSubmit: (fields: { name: string; nickname: string; username: string }) => Promise<boolean>; onClose: () => void }) {
  const editing = Boolean(props.account);
  const [name, setName] = useState(props.account?.name ?? '');
  const [nickname, setNickname] = useState(props.account?.nickname ?? '');
  const [username, setUsername] = useState(props.account?.username ?? '');
  const [busy, setBusy] = useState(false);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    setBusy(true);
    const saved = await props.onSubmit({ name, nickname, username });
    setBusy(false);
    if (saved) props.onClose();
  }

  return (
    <Dialog
      title={editing ? "Modifier l'utilisateur" : 'Ajouter un utilisateur'}
      testId="account-dialog"
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void submit()} data-testid="account-dialog-submit">
            {editing ? 'Enregistrer' : 'Ajouter'}
          </button>
        </>
      }
    >
      <form className="form" onSubmit={submit}>
        {editing && (
          <label>
            UUID
            <input value={props.account!.uuid} readOnly data-testid="account-uuid" />
          </label>
        )}
        <label>
          Nom
          <input value={name} onChange={(event) => setName(event.target.value)} data-testid="account-name" autoFocus />
        </label>
        <label>
          Surnom
          <input value={nickname} onChange={(event) => setNickname(event.target.value)} data-testid="account-nickname" />
        </label>
        <label>
          E-mail
          <input type="email" value={username} onChange={(event) => setUsername(event.target.value)} data-testid="account-email" />
        </label>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

import { useState, type FormEvent } from 'react';
import type { Account } from '@shared/contract';
import type { IpcFailure } from '@shared/ipc';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';

export interface AccountFields {
  name: string;
  nickname: string;
  username: string;
}

type FieldName = keyof AccountFields;

/** The form field a failure names (the server says `username` or `email` for the e-mail). */
function formFieldOf(field: string | undefined): FieldName | null {
  const head = field?.split('.')[0];
  if (head === 'name' || head === 'nickname' || head === 'username') return head;
  if (head === 'email') return 'username';
  return null;
}

/**
 * 'Ajouter un utilisateur' (create) or 'Modifier l'utilisateur' (edit, read-only uuid). No client-side validation
 * (spec §5): the form is noValidate so the browser does not check the e-mail either; the server answers, and a
 * failure that names a field is shown next to it (the toast shows it too).
 */
export function AccountDialog(props: { account?: Account; onSubmit: (fields: AccountFields) => Promise<IpcFailure | null>; onClose: () => void }) {
  const editing = Boolean(props.account);
  const [fields, setFields] = useState<AccountFields>({
    name: props.account?.name ?? '',
    nickname: props.account?.nickname ?? '',
    username: props.account?.username ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [busy, setBusy] = useState(false);

  const change = (name: FieldName) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    // The message was about the old value.
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    const failure = await props.onSubmit(fields);
    setBusy(false);
    if (!failure) return props.onClose();
    const field = formFieldOf(failure.field);
    setErrors(field ? { [field]: failure.errorMsg } : {});
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
        <TextField label="Nom" value={fields.name} onChange={change('name')} error={errors.name} testId="account-name" autoFocus />
        <TextField label="Surnom" value={fields.nickname} onChange={change('nickname')} error={errors.nickname} testId="account-nickname" />
        <TextField label="E-mail" type="email" value={fields.username} onChange={change('username')} error={errors.username} testId="account-email" />
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

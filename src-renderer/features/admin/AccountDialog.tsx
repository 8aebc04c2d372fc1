import { useState, type FormEvent } from 'react';
import type { Account } from '@shared/contract';
import type { IpcFailure } from '@shared/ipc';
import { mergeChanges, type FieldConflict } from '@shared/rules/conflicts';
import { ConflictPanel } from '../../ui/ConflictPanel';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';

/** A type, not an interface: the conflict merge reads it as a record of fields. */
export type AccountFields = {
  name: string;
  nickname: string;
  username: string;
};

type FieldName = keyof AccountFields;

const LABELS: Record<FieldName, string> = { name: 'Nom', nickname: 'Surnom', username: 'E-mail' };

const fieldsOf = (account: Partial<Account> | undefined): AccountFields => ({
  name: account?.name ?? '',
  nickname: account?.nickname ?? '',
  username: account?.username ?? '',
});

/** A save refused because another administrator changed the account: who and when, and the fields both changed. */
interface DialogConflict {
  message: string;
  conflicts: FieldConflict[];
  theirs: AccountFields;
}

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
export function AccountDialog(props: {
  account?: Account;
  onSubmit: (fields: AccountFields, version?: number) => Promise<IpcFailure | null>;
  onClose: () => void;
}) {
  const editing = Boolean(props.account);
  const [fields, setFields] = useState<AccountFields>(fieldsOf(props.account));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [busy, setBusy] = useState(false);
  // What the form was based on (docs/architecture.md, "Versions and conflicts"): the account as opened, then as
  // the other administrator left it after a refused save, so the next save is based on their version.
  const [base, setBase] = useState({ fields: fieldsOf(props.account), version: props.account?.version });
  const [conflict, setConflict] = useState<DialogConflict | null>(null);

  /** A 409 for a stale version: the user's values stay, theirs come in where only they changed a field. */
  function adoptConflict(failure: IpcFailure): boolean {
    const current = failure.conflict?.current as Partial<Account> | undefined | null;
    if (failure.status !== 409 || !current) return false;
    const theirs = fieldsOf(current);
    const { merged, conflicts } = mergeChanges(base.fields, fields, theirs);
    setFields(merged);
    setBase({ fields: theirs, version: failure.conflict?.version });
    setConflict({ message: failure.errorMsg, conflicts, theirs });
    return true;
  }

  const decide = (field: string, take: 'mine' | 'theirs') => {
    if (!conflict) return;
    if (take === 'theirs') setFields((current) => ({ ...current, [field]: conflict.theirs[field as FieldName] }));
    setConflict({ ...conflict, conflicts: conflict.conflicts.filter((item) => item.field !== field) });
  };

  const change = (name: FieldName) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    // The message was about the old value.
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    const failure = await props.onSubmit(fields, base.version);
    setBusy(false);
    if (!failure) return props.onClose();
    if (adoptConflict(failure)) return;
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
      {conflict && (
        <ConflictPanel
          message={conflict.message}
          rows={conflict.conflicts.map(({ field, mine, theirs }) => ({
            field,
            label: LABELS[field as FieldName],
            mine: String(mine),
            theirs: String(theirs),
          }))}
          onKeepMine={(field) => decide(field, 'mine')}
          onTakeTheirs={(field) => decide(field, 'theirs')}
          onReload={() => {
            setFields(conflict.theirs);
            setConflict(null);
          }}
        />
      )}
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

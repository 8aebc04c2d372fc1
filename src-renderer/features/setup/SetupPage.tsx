import { useAtom, useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { SETUP_MESSAGES } from '@shared/messages';
import { firstScreenFor } from '@shared/screens';
import { apiAtom, bridgeAtom } from '../../lib/bridge';
import { dataOf } from '../../lib/query';
import { sessionAtom } from '../../lib/session';
import { useQuery } from '../../lib/use-query';
import { TextField } from '../../ui/TextField';

type Field = 'name' | 'username' | 'password' | 'confirmation';

/**
 * First start of the desktop app: the person at the desk creates the administrator (name, e-mail, password),
 * then is signed in as it. The page only exists while the installation has no account and its host offers it.
 */
export default function SetupPage() {
  const [session, setSession] = useAtom(sessionAtom);
  const [fields, setFields] = useState<Record<Field, string>>({ name: '', username: '', password: '', confirmation: '' });
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const bridge = useAtomValue(bridgeAtom);
  const api = useAtomValue(apiAtom);

  const setup = useQuery('setup.status', () => dataOf(api('setup.status')));
  // Unreadable, the page is closed: sign-in is where the user goes.
  const status = setup.loading ? 'checking' : setup.data?.needed && setup.data.available ? 'open' : 'closed';

  const set = (field: Field) => (value: string) => setFields((previous) => ({ ...previous, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (fields.password !== fields.confirmation) return setErrors({ confirmation: SETUP_MESSAGES.passwordsDiffer });
    setBusy(true);
    setErrors({});
    const result = await bridge.invoke('setup:createAdmin', { name: fields.name, username: fields.username, password: fields.password });
    setBusy(false);
    if (!result.ok) {
      const field = result.field as Field | undefined;
      return setErrors(field && field in fields ? { [field]: result.errorMsg } : { form: result.errorMsg });
    }
    setSession(result.data);
    navigate(firstScreenFor(result.data.roles), { replace: true });
  }

  if (session) return <Navigate to={firstScreenFor(session.roles)} replace />;
  if (status === 'closed') return <Navigate to="/login" replace />;
  if (status === 'checking') return <div className="splash">Chargement…</div>;

  return (
    <div className="login-page">
      <form className="login-card" onSubmit={submit} noValidate aria-label={SETUP_MESSAGES.title} data-testid="setup-form">
        <h1>{SETUP_MESSAGES.title}</h1>
        <p>{SETUP_MESSAGES.intro}</p>
        <TextField label="Nom" value={fields.name} onChange={set('name')} error={errors.name} testId="setup-name" autoFocus />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="username"
          value={fields.username}
          onChange={set('username')}
          error={errors.username}
          testId="setup-email"
        />
        <TextField
          label="Mot de passe"
          type="password"
          autoComplete="new-password"
          value={fields.password}
          onChange={set('password')}
          error={errors.password}
          testId="setup-password"
        />
        <TextField
          label={SETUP_MESSAGES.passwordConfirmation}
          type="password"
          autoComplete="new-password"
          value={fields.confirmation}
          onChange={set('confirmation')}
          error={errors.confirmation}
          testId="setup-confirmation"
        />
        {errors.form && (
          <p className="form-error" role="alert" data-testid="setup-error">
            {errors.form}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy} data-testid="setup-submit">
          {SETUP_MESSAGES.submit}
        </button>
      </form>
    </div>
  );
}

import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES, PLATFORM_MESSAGES, PLATFORM_NOTICES, withText } from '@shared/messages';
import { apiAtom } from '../../lib/bridge';
import { showNotice } from '../../lib/notices';
import { TextField } from '../../ui/TextField';

/** Spec §2 and §5: a new password for the confirmationToken of the link; back to / after 1.2 s. */
export const RETURN_DELAY_MS = 1200;

export default function PasswordConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('confirmationToken');
  const [password, setPassword] = useState('');
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(false);
  const navigate = useNavigate();
  const api = useAtomValue(apiAtom);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!token || !password || loading) return;
    setLoading(true);
    const result = await api('password.confirm', { body: { confirmationToken: token, password } });
    setLoading(false);
    if (!result.ok) {
      showNotice(withText(PLATFORM_NOTICES.passwordConfirmFailed, result.errorMsg));
      return;
    }
    setDone(true);
    showNotice(PLATFORM_NOTICES.passwordChanged);
    setTimeout(() => navigate('/', { replace: true }), RETURN_DELAY_MS);
  }

  return (
    <div className="login-page">
      <form className="login-card" onSubmit={submit} noValidate aria-label="Nouveau mot de passe">
        <h1>Nouveau mot de passe</h1>
        {!token ? (
          <p className="form-error" role="alert" data-testid="confirm-error">
            {MESSAGES.invalidConfirmationToken}
          </p>
        ) : (
          <>
            <TextField
              label="Nouveau mot de passe"
              name="password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              testId="confirm-password"
              autoFocus
            />
            <button type="submit" className="primary" disabled={!password || loading || done} data-testid="confirm-submit">
              Valider
            </button>
          </>
        )}
        {/* Never a dead end: a missing or refused token leaves the user a way back. */}
        <Link to="/login" className="back-link" data-testid="back-to-login">
          {PLATFORM_MESSAGES.backToLogin}
        </Link>
      </form>
    </div>
  );
}

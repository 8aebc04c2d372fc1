import { useAtom, useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { MESSAGES, PLATFORM_NOTICES, WORKPLACE_MESSAGES } from '@shared/messages';
import { firstScreenFor, guardRoute } from '@shared/screens';
import { runsInDesktop } from '../../bridge';
import { apiAtom, bridgeAtom } from '../../lib/bridge';
import { showNotice } from '../../lib/notices';
import { dataOf } from '../../lib/query';
import { useQuery } from '../../lib/use-query';
import { endedSessionPathAtom, sessionAtom } from '../../lib/session';
import { TextField } from '../../ui/TextField';
import { canSubmitLogin } from './login-form';

/** Sign-in and reset: two modes of one form (spec §2, §4, §5, §8). */
export default function LoginPage() {
  const [mode, setMode] = useState<'signIn' | 'reset'>('signIn');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [loading, setLoading] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [currentSession, setSession] = useAtom(sessionAtom);
  const navigate = useNavigate();
  // Where an ended session (not a sign-out) sent the user from: back there once signed in, if the role may open it.
  const from = useAtomValue(endedSessionPathAtom);
  const landing = (roles: readonly string[]) => (from && guardRoute(from, roles) === 'open' ? from : firstScreenFor(roles));
  const bridge = useAtomValue(bridgeAtom);
  const api = useAtomValue(apiAtom);

  // A new installation of the desktop app has no account yet: its administrator is created first.
  const setup = useQuery('setup.status', () => dataOf(api('setup.status')));
  // Where the app works, where its host lets the user choose: a first start chooses before anything else.
  const workplace = useQuery('login.serverChoice', async () => {
    const info = await bridge.invoke('app:info');
    return info.ok ? (info.data.serverChoice ?? null) : null;
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmitLogin(mode, username, password, loading)) return;
    setLoading(true);
    setFormError(null);
    try {
      if (mode === 'reset') {
        const result = await api('password.reset', { body: { username: username.trim() } });
        showNotice(result.ok ? PLATFORM_NOTICES.resetAccepted : PLATFORM_NOTICES.resetFailed);
        return;
      }
      const signedIn = await bridge.invoke('session:signIn', { username: username.trim(), password });
      if (!signedIn.ok) {
        // A failed sign-in just clears the user (spec §4).
        setSession(null);
        setFormError(signedIn.status === 401 ? MESSAGES.invalidCredentials : signedIn.errorMsg);
        return;
      }
      // Signed in but no session to show for it (spec §8 'Cannot log in').
      const session = signedIn.data;
      if (!session) {
        setFormError(MESSAGES.cannotLogIn);
        return;
      }
      setSession(session);
      // A desktop concern (no keychain on this computer); the web host holds every session in memory, which its
      // About page says once.
      if (!session.persistent && runsInDesktop()) showNotice(PLATFORM_NOTICES.sessionNotPersistent);
      navigate(landing(session.roles), { replace: true });
    } finally {
      setLoading(false);
    }
  }

  // Already signed in (a bookmark, the back button): the first screen, not an empty form.
  if (currentSession && !loading) return <Navigate to={landing(currentSession.roles)} replace />;
  if (workplace.data === 'pending') return <Navigate to="/workplace" replace />;
  if (setup.data?.needed && setup.data.available) return <Navigate to="/setup" replace />;

  return (
    <div className="login-page">
      <form className="login-card" onSubmit={submit} noValidate aria-label={mode === 'signIn' ? 'Connexion' : 'Réinitialisation du mot de passe'}>
        <h1>Back-office</h1>
        <TextField
          label="Nom d'utilisateur (e-mail)"
          name="username"
          type="email"
          autoComplete="username"
          value={username}
          onChange={setUsername}
          testId="login-username"
          autoFocus
        />
        {mode === 'signIn' && (
          <TextField
            label="Mot de passe"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            testId="login-password"
          />
        )}
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={mode === 'reset'}
            onChange={(event) => {
              setMode(event.target.checked ? 'reset' : 'signIn');
              setFormError(null);
            }}
            data-testid="login-reset-switch"
          />
          Mot de passe oublié
        </label>
        {formError && (
          <p className="form-error" role="alert" data-testid="login-error">
            {formError}
          </p>
        )}
        <button type="submit" className="primary" disabled={!canSubmitLogin(mode, username, password, loading)} data-testid="login-submit">
          {mode === 'signIn' ? 'Se connecter' : 'Réinitialiser le mot de passe'}
        </button>
        {workplace.data && (
          <Link to="/workplace" className="change-server" data-testid="login-change-server">
            {WORKPLACE_MESSAGES.changeServer}
          </Link>
        )}
      </form>
    </div>
  );
}

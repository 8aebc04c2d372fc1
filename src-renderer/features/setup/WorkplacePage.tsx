import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import type { AppInfo } from '@shared/ipc';
import { WORKPLACE_MESSAGES as M } from '@shared/messages';
import { checkServerAddress } from '@shared/server-address';
import { bridgeAtom } from '../../lib/bridge';
import { useQuery } from '../../lib/use-query';
import { TextField } from '../../ui/TextField';

/**
 * The first start's choice (and « Changer de serveur » later): the team's server, whose address is checked as it
 * is typed and then by main against the server itself, or this computer (the embedded database, then the
 * administrator's creation). A choice signs the session out and reloads the app, so nothing of one server's
 * session or data stays on screen for the other.
 */
export default function WorkplacePage() {
  const bridge = useAtomValue(bridgeAtom);
  const { data: info, loading } = useQuery('workplace.info', async (): Promise<AppInfo | null> => {
    const result = await bridge.invoke('app:info');
    return result.ok ? result.data : null;
  });
  const [address, setAddress] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'team' | 'local' | null>(null);

  const typed = checkServerAddress(address);
  // Said as the user types, once there is something to say it about.
  const addressError = serverError ?? (address.trim() && !typed.ok ? typed.message : null);

  async function choose(request: { kind: 'local' } | { kind: 'team'; address: string }) {
    setBusy(request.kind);
    setServerError(null);
    const result = await bridge.invoke('workplace:choose', request);
    if (!result.ok) {
      setBusy(null);
      return setServerError(result.errorMsg);
    }
    // A full start on the new server: no state of the previous one (session, lists, caches) survives.
    window.location.assign('/login');
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!typed.ok || busy) return;
    void choose({ kind: 'team', address: typed.url });
  }

  if (loading) return <div className="splash">Chargement…</div>;
  if (!info?.serverChoice) return <Navigate to="/login" replace />;

  return (
    <div className="login-page">
      <div className="login-card workplace-card" data-testid="workplace">
        <h1>{M.title}</h1>
        <p>{M.intro}</p>
        {info.serverChoice !== 'pending' && (
          <p className="muted" data-testid="workplace-current">
            {info.serverChoice === 'team' ? M.currentServer(info.apiUrl) : M.currentLocal}
          </p>
        )}
        <form onSubmit={submit} noValidate aria-label={M.teamServer} className="workplace-team">
          <h2>{M.teamServer}</h2>
          <TextField
            label={M.teamServerAddress}
            name="server-address"
            type="url"
            autoComplete="url"
            placeholder={M.teamServerHint}
            value={address}
            onChange={(value) => {
              setAddress(value);
              setServerError(null);
            }}
            error={addressError}
            testId="workplace-address"
            autoFocus
          />
          {busy === 'team' && (
            <p className="muted" role="status" data-testid="workplace-checking">
              {M.checking}
            </p>
          )}
          <button type="submit" className="primary" disabled={!typed.ok || busy !== null} data-testid="workplace-connect">
            {M.connect}
          </button>
        </form>
        <div className="workplace-local">
          <button
            type="button"
            className="secondary"
            disabled={busy !== null}
            onClick={() => void choose({ kind: 'local' })}
            data-testid="workplace-local"
          >
            {M.localComputer}
          </button>
          <p className="muted">{M.localComputerHint}</p>
        </div>
        {info.serverChoice !== 'pending' && (
          <Link to="/login" data-testid="workplace-back">
            {M.back}
          </Link>
        )}
      </div>
    </div>
  );
}

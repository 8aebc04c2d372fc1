import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import type { AppInfo } from '@shared/ipc';
import { DESKTOP_MESSAGES, HOST_MESSAGES } from '@shared/messages';
import { bridgeAtom } from '../../lib/bridge';
import { sessionAtom } from '../../lib/session';

/** Loaded lazily (spec §2): version, API address, database kind, and the roles of the session (the home page showed them before it became the advert list). */
export default function AboutPage() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const session = useAtomValue(sessionAtom);
  const bridge = useAtomValue(bridgeAtom);
  useEffect(() => {
    void bridge.invoke('app:info').then((result) => result.ok && setInfo(result.data));
  }, [bridge]);
  return (
    <div className="about" data-testid="about">
      <h1>À propos</h1>
      <p data-testid="about-roles">Rôles : {session?.roles.length ? session.roles.join(', ') : 'aucun'}</p>
      {info && (
        <dl>
          <dt>Version</dt>
          <dd data-testid="about-version">{info.version}</dd>
          <dt>Serveur</dt>
          <dd data-testid="about-api">{info.apiUrl}</dd>
          <dt>Base de données</dt>
          <dd data-testid="about-database">{info.databaseKind}</dd>
          <dt>Application</dt>
          <dd>{info.host === 'electron' ? 'Bureau' : 'Navigateur'}</dd>
        </dl>
      )}
      {info && session && !session.persistent && (
        <p className="muted" data-testid="about-session-persistence">
          {info.host === 'web' ? HOST_MESSAGES.webSessionInMemory : DESKTOP_MESSAGES.sessionNotPersistent}
        </p>
      )}
    </div>
  );
}

import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { redirectsToLoginOnUnauthorized } from '@shared/screens';
import { bridgeAtom } from '../lib/bridge';
import { useMainDraftsLoader } from '../lib/draft-storage';
import { endedSessionPathAtom, sessionAtom } from '../lib/session';
import { demoWorkspaceAtom, serverChoiceAtom, settingsAtom, settingsSetAsideAtom } from './settings';
import { metaAtom } from '../lib/meta';

/** Reads the session and settings at start, and follows main's events (expiry, deep links). */
export function SessionEvents() {
  const setSession = useSetAtom(sessionAtom);
  const setSettings = useSetAtom(settingsAtom);
  const setMeta = useSetAtom(metaAtom);
  const setEndedPath = useSetAtom(endedSessionPathAtom);
  const setDemo = useSetAtom(demoWorkspaceAtom);
  const setSettingsSetAside = useSetAtom(settingsSetAsideAtom);
  const setServerChoice = useSetAtom(serverChoiceAtom);
  const navigate = useNavigate();
  const bridge = useAtomValue(bridgeAtom);
  useMainDraftsLoader();

  useEffect(() => {
    void bridge.invoke('session:get').then((result) => setSession(result.ok ? result.data : null));
    void bridge.invoke('settings:get').then((result) => result.ok && setSettings(result.data));
    void bridge.invoke('app:info').then((result) => {
      if (!result.ok) return;
      setDemo(result.data.demo);
      setSettingsSetAside(result.data.settingsSetAside ?? null);
      setServerChoice(result.data.serverChoice ?? null);
    });
  }, [bridge, setSession, setSettings, setDemo, setSettingsSetAside, setServerChoice]);

  useEffect(() => {
    const offExpired = bridge.on('session:expired', () => {
      setSession(null);
      setMeta(null);
      // Read the path at event time: the listener outlives route changes. Signed in again, the user is back there.
      const from = window.location.pathname;
      if (redirectsToLoginOnUnauthorized(from)) {
        setEndedPath(from);
        navigate('/login', { replace: true });
      }
    });
    const offNavigate = bridge.on('navigate', ({ path }) => navigate(path));
    return () => {
      offExpired();
      offNavigate();
    };
  }, [bridge, navigate, setSession, setMeta, setEndedPath]);

  return null;
}

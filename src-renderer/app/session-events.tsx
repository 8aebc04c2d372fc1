import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { getBridge } from '../bridge';
import { sessionAtom, settingsAtom } from '../features/auth/atoms';

/** Pages where a 401 does not send the user to /login (spec §2). */
const STAY_ON_EXPIRY = ['/login', '/connect', '/password/confirm'];

/** Reads the session and settings at start, and follows main's events (expiry, deep links). */
export function SessionEvents() {
  const setSession = useSetAtom(sessionAtom);
  const setSettings = useSetAtom(settingsAtom);
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    const bridge = getBridge();
    void bridge.invoke('session:get').then((result) => setSession(result.ok ? result.data : null));
    void bridge.invoke('settings:get').then((result) => result.ok && setSettings(result.data));
  }, [setSession, setSettings]);

  useEffect(() => {
    const bridge = getBridge();
    const offExpired = bridge.on('session:expired', () => {
      setSession(null);
      if (!STAY_ON_EXPIRY.includes(window.location.pathname)) navigate('/login', { replace: true });
    });
    const offNavigate = bridge.on('navigate', ({ path }) => navigate(path));
    return () => {
      offExpired();
      offNavigate();
    };
  }, [navigate, setSession, location.key]);

  return null;
}

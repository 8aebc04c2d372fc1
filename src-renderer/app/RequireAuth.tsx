import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { guardRoute } from '@shared/screens';
import { sessionAtom } from '../lib/session';

/**
 * Spec §2 guard, from the screen registry: anonymous visitors go to /login; a role that may not open the route,
 * or a path no screen declares, goes to /403.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  if (session === undefined) return <div className="splash">Chargement…</div>;
  switch (guardRoute(location.pathname, session ? session.roles : null)) {
    case 'login':
      return <Navigate to="/login" replace state={{ from: location.pathname }} />;
    case 'forbidden':
      return <Navigate to="/403" replace />;
    case 'open':
      return <>{children}</>;
  }
}

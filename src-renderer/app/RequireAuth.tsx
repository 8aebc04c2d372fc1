import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { canOpenRoute } from '@shared/navigation';
import { sessionAtom } from '../features/auth/atoms';

/** Spec §2 guard: anonymous visitors go to /login; a role that may not open the route goes to /403. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  if (session === undefined) return <div className="splash">Chargement…</div>;
  if (session === null) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!canOpenRoute(location.pathname, session.roles)) return <Navigate to="/403" replace />;
  return <>{children}</>;
}

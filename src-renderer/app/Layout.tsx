import { useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { MESSAGES, WORKPLACE_MESSAGES } from '@shared/messages';
import { SCREENS, visibleNavigation, type NavItem } from '@shared/screens';
import { endedSessionPathAtom, rolesAtom, sessionAtom } from '../lib/session';
import { useConfirm } from '../lib/modal';
import { serverChoiceAtom, settingsAtom } from './settings';
import { bridgeAtom } from '../lib/bridge';
import { loadMetaAtom, metaAtom } from '../lib/meta';
import { FileJobsPanel } from '../lib/file-jobs';
import { ScreenErrorBoundary } from './lazy';
import { AlertBell } from '../features/adverts';

/**
 * A dropdown of the top bar: it closes once the user has gone somewhere (an open menu hid the page's first
 * buttons), on a click elsewhere and on Escape.
 */
function NavDropdown({ item }: { item: NavItem }) {
  const details = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [pathname]);
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current;
      if (!element?.open) return;
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !element.contains(event.target as Node)) element.open = false;
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, []);
  return (
    <details ref={details} className="nav-dropdown" data-testid={`nav-${item.id}`}>
      <summary>{item.label}</summary>
      <ul>
        {item.children!.map((child) => (
          <li key={child.id}>
            <NavLink to={child.to!} data-testid={`nav-${child.id}`}>
              {child.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </details>
  );
}

function NavEntry({ item }: { item: NavItem }) {
  if (item.children) return <NavDropdown item={item} />;
  if (item.external) {
    return (
      <a href={item.to} target="_blank" rel="noreferrer noopener" data-testid={`nav-${item.id}`}>
        {item.label}
      </a>
    );
  }
  return (
    <NavLink to={item.to!} data-testid={`nav-${item.id}`}>
      {item.label}
    </NavLink>
  );
}

export function Layout() {
  const roles = useAtomValue(rolesAtom);
  const settings = useAtomValue(settingsAtom);
  const serverChoice = useAtomValue(serverChoiceAtom);
  const setSession = useSetAtom(sessionAtom);
  const navigate = useNavigate();
  const bridge = useAtomValue(bridgeAtom);
  const location = useLocation();
  const confirm = useConfirm();
  const loadMeta = useSetAtom(loadMetaAtom);
  const setMeta = useSetAtom(metaAtom);

  useEffect(() => {
    void loadMeta();
  }, [loadMeta]);

  const setEndedPath = useSetAtom(endedSessionPathAtom);
  async function logout() {
    if (!(await confirm(MESSAGES.confirmLogout))) return;
    await bridge.invoke('session:signOut');
    setSession(null);
    setMeta(null);
    // A sign-out starts afresh: the next sign-in opens the first screen, not the one a past expiry left.
    setEndedPath(null);
    navigate('/login', { replace: true });
  }

  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          Back-office
        </Link>
        <nav aria-label="Navigation principale" data-testid="main-nav">
          {visibleNavigation(roles, SCREENS, settings ?? {}).map((item) => (
            <NavEntry key={item.id} item={item} />
          ))}
        </nav>
        <div className="topbar-right">
          <span className="env-marker" data-testid="env-marker">
            {settings?.environmentLabel ?? 'prod'}
          </span>
          <AlertBell />
          <Link to="/about" className="about-link" data-testid="about-link">
            À propos
          </Link>
          {serverChoice && (
            <Link to="/workplace" className="about-link" data-testid="change-server">
              {WORKPLACE_MESSAGES.changeServer}
            </Link>
          )}
          <button type="button" className="secondary" onClick={logout} data-testid="logout">
            Déconnexion
          </button>
        </div>
      </header>
      <FileJobsPanel />
      <main className="content">
        <ScreenErrorBoundary
          key={location.pathname}
          onError={(error, componentStack) =>
            // The path only: a query may carry what a log should not keep.
            void bridge.invoke('app:reportError', {
              route: location.pathname.slice(0, 2048),
              message: error.message.slice(0, 4000),
              stack: error.stack?.slice(0, 16_000),
              componentStack: componentStack?.slice(0, 16_000),
            })
          }
        >
          <Suspense fallback={<div className="splash">Chargement…</div>}>
            <Outlet />
          </Suspense>
        </ScreenErrorBoundary>
      </main>
    </div>
  );
}

import { useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useEffect } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router-dom';
import { MESSAGES } from '@shared/messages';
import { visibleNavigation, type NavItem } from '@shared/navigation';
import { getBridge } from '../bridge';
import { rolesAtom, sessionAtom, settingsAtom } from '../features/auth/atoms';
import { loadMetaAtom, metaAtom } from '../features/meta/atoms';
import { ScreenErrorBoundary } from './lazy';
import { useConfirm } from './modal';

function NavEntry({ item }: { item: NavItem }) {
  if (item.children) {
    return (
      <details className="nav-dropdown">
        <summary>{item.label}</summary>
        <ul>
          {item.children.map((child) => (
            <li key={child.id}>
              <NavLink to={child.to!}>{child.label}</NavLink>
            </li>
          ))}
        </ul>
      </details>
    );
  }
  if (item.external) {
    return (
      <a href={item.to} target="_blank" rel="noreferrer noopener">
        {item.label}
      </a>
    );
  }
  return <NavLink to={item.to!}>{item.label}</NavLink>;
}

export function Layout() {
  const roles = useAtomValue(rolesAtom);
  const settings = useAtomValue(settingsAtom);
  const setSession = useSetAtom(sessionAtom);
  const navigate = useNavigate();
  const confirm = useConfirm();
  const loadMeta = useSetAtom(loadMetaAtom);
  const setMeta = useSetAtom(metaAtom);

  useEffect(() => {
    void loadMeta();
  }, [loadMeta]);

  async function logout() {
    if (!(await confirm(MESSAGES.confirmLogout))) return;
    await getBridge().invoke('session:signOut');
    setSession(null);
    setMeta(null);
    navigate('/login', { replace: true });
  }

  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          Back-office
        </Link>
        <nav aria-label="Navigation principale" data-testid="main-nav">
          {visibleNavigation(roles).map((item) => (
            <NavEntry key={item.id} item={item} />
          ))}
        </nav>
        <div className="topbar-right">
          <span className="env-marker" data-testid="env-marker">
            {settings?.environmentLabel ?? 'prod'}
          </span>
          <button type="button" className="icon" aria-label="Alertes" title="Alertes" data-testid="alert-bell">
            🔔
          </button>
          <Link to="/about" className="about-link">
            À propos
          </Link>
          <button type="button" className="secondary" onClick={logout} data-testid="logout">
            Déconnexion
          </button>
        </div>
      </header>
      <main className="content">
        <ScreenErrorBoundary>
          <Suspense fallback={<div className="splash">Chargement…</div>}>
            <Outlet />
          </Suspense>
        </ScreenErrorBoundary>
      </main>
    </div>
  );
}

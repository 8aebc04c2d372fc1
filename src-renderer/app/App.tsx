import { Provider, useAtom, useAtomValue } from 'jotai';
import { SETUP_MESSAGES, WORKPLACE_MESSAGES } from '@shared/messages';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { useEffect, useState } from 'react';
import { createBrowserRouter, createRoutesFromElements, Navigate, Outlet, Route, RouterProvider, useLocation } from 'react-router-dom';
import { ToastContainer } from 'react-toastify/unstyled';
import { screenEntries, type ScreenEntry } from '@shared/screens';
import { Layout } from './Layout';
import { ModalHost } from '../lib/modal';
import { NoticeHost } from '../lib/notices';
import { serverUnreachableAtom, useOfflineRetries } from '../lib/offline';
import { RequireAuth } from './RequireAuth';
import { preloadScreens, SCREEN_COMPONENTS } from './screens';
import { SessionEvents } from './session-events';
import { demoWorkspaceAtom, settingsSetAsideAtom } from './settings';

function screenRoute(screen: ScreenEntry) {
  const Screen = SCREEN_COMPONENTS[screen.component];
  if (!Screen) throw new Error(`No component for screen ${screen.id} (${screen.component})`);
  return <Route key={screen.id} path={screen.path} element={<Screen />} />;
}

/**
 * The routes, built from the screen registry only: public screens stand alone, the others sit in the signed-in
 * shell behind the guard. The catch-all only backs the guard up (which sends undeclared paths to /403 and anonymous
 * visitors to /login first): it goes home.
 */
export function appRoutes() {
  const screens = screenEntries();
  return [
    ...screens.filter((screen) => screen.access.kind === 'public').map(screenRoute),
    <Route
      key="shell"
      element={
        <RequireAuth>
          <Layout />
        </RequireAuth>
      }
    >
      {screens.filter((screen) => screen.access.kind !== 'public').map(screenRoute)}
      <Route path="*" element={<Navigate to="/" replace />} />
    </Route>,
  ];
}

/** Fetches the screens' chunks while the user types the password, so the first screen opens without waiting. */
function PreloadOnLogin() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname === '/login') preloadScreens();
  }, [pathname]);
  return null;
}

/** The demo workspace's passwords are public (README): said on every page, sign-in included. */
function DemoBanner() {
  const demo = useAtomValue(demoWorkspaceAtom);
  if (!demo) return null;
  return (
    <div className="demo-banner" role="note" data-testid="demo-banner">
      {SETUP_MESSAGES.demoBanner}
    </div>
  );
}

/** A settings file main could not read and set aside: said on every page until dismissed, with where its copy is. */
function SettingsSetAsideBanner() {
  const [copy, setCopy] = useAtom(settingsSetAsideAtom);
  if (!copy) return null;
  return (
    <div className="settings-banner" role="alert" data-testid="settings-set-aside">
      <span>{WORKPLACE_MESSAGES.settingsSetAside(copy)}</span>
      <button type="button" className="secondary" onClick={() => setCopy(null)} data-testid="settings-set-aside-dismiss">
        {WORKPLACE_MESSAGES.dismiss}
      </button>
    </div>
  );
}

/** The server out of reach (lib/offline.ts): said once, here, while saves wait for it; they are sent again meanwhile. */
function OfflineBanner() {
  useOfflineRetries();
  const unreachable = useAtomValue(serverUnreachableAtom);
  if (!unreachable) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {CONFLICT_MESSAGES.offline}
    </div>
  );
}

/** What every page shares, around the matched route: session events, banner, modal, notices and toasts. */
function Root() {
  return (
    <>
      <SessionEvents />
      <DemoBanner />
      <SettingsSetAsideBanner />
      <OfflineBanner />
      <PreloadOnLogin />
      <Outlet />
      <ModalHost />
      <NoticeHost />
      <ToastContainer position="bottom-right" newestOnTop closeOnClick pauseOnFocusLoss={false} />
    </>
  );
}

/**
 * A data router (createBrowserRouter), so an editor can hold a navigation while it asks about unsaved changes
 * (react-router's useBlocker, lib/unsaved-changes.ts); the routes are the same as with <BrowserRouter>.
 */
function createAppRouter() {
  return createBrowserRouter(createRoutesFromElements(<Route element={<Root />}>{appRoutes()}</Route>));
}

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <Provider>
      <RouterProvider router={router} />
    </Provider>
  );
}

import type { ComponentType } from 'react';
import type { ScreenComponentKey } from '@shared/screens';
import LoginPage from '../features/auth/LoginPage';
import PasswordConfirmPage from '../features/auth/PasswordConfirmPage';
import SetupPage from '../features/setup/SetupPage';
import ForbiddenPage from '../features/forbidden/ForbiddenPage';
import HomePage from '../features/home/HomePage';
import { lazyScreen } from './lazy';

/** The lazily loaded screens, shared by the router and the preloader. */
export const AdminPage = lazyScreen(() => import('../features/admin/AdminPage'));
export const AboutPage = lazyScreen(() => import('../features/about/AboutPage'));

/**
 * The component of each available screen of the registry (src-shared/screens.ts), by its component key. The
 * router serves exactly these; a test checks that every available screen has one and every one a screen.
 * Sign-in, password, home and 403 are in the main chunk: they show before any screen chunk could arrive.
 */
export const SCREEN_COMPONENTS: Partial<Record<ScreenComponentKey, ComponentType>> = {
  login: LoginPage,
  passwordConfirm: PasswordConfirmPage,
  setup: SetupPage,
  forbidden: ForbiddenPage,
  home: HomePage,
  about: AboutPage,
  admin: AdminPage,
};

/** Fetches the screens' chunks while the user types the password, so the first screen opens without waiting. */
export function preloadScreens(): void {
  void AdminPage.preload();
}

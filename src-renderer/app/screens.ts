import { lazyScreen } from './lazy';

/** The lazily loaded screens, shared by the router and the preloader. */
export const AdminPage = lazyScreen(() => import('../features/admin/AdminPage'));
export const AboutPage = lazyScreen(() => import('../features/about/AboutPage'));

/** Fetches the screens' chunks while the user types the password, so the first screen opens without waiting. */
export function preloadScreens(): void {
  void AdminPage.preload();
}

/** Chunk loaders of the lazy screens, shared by the router and the preloader. */
export const loadAdminPage = () => import('../features/admin/AdminPage');
export const loadAboutPage = () => import('../features/about/AboutPage');

/** Fetches the screens' chunks while the user types the password, so the first screen opens without waiting. */
export function preloadScreens(): void {
  void loadAdminPage().catch(() => undefined);
}

import type { ComponentType } from 'react';
import type { ScreenComponentKey } from '@shared/screens';
import LoginPage from '../features/auth/LoginPage';
import PasswordConfirmPage from '../features/auth/PasswordConfirmPage';
import SetupPage from '../features/setup/SetupPage';
import ForbiddenPage from '../features/forbidden/ForbiddenPage';
import { lazyScreen } from './lazy';

/** The lazily loaded screens, shared by the router and the preloader. */
export const AdminPage = lazyScreen(() => import('../features/admin/AdminPage'));
export const AboutPage = lazyScreen(() => import('../features/about/AboutPage'));
export const GroupsListPage = lazyScreen(() => import('../features/groups/GroupsListPage'));
export const GroupEditPage = lazyScreen(() => import('../features/groups/GroupEditPage'));
export const TestAccountsPage = lazyScreen(() => import('../features/test-accounts/TestAccountsPage'));
export const DocumentsPage = lazyScreen(() => import('../features/documents/DocumentsPage'));
export const AudiencesListPage = lazyScreen(() => import('../features/audiences/AudiencesListPage'));
export const AudienceEditPage = lazyScreen(() => import('../features/audiences/AudienceEditPage'));
export const AudienceDebugPage = lazyScreen(() => import('../features/audiences/AudienceDebugPage'));
export const ProjectsListPage = lazyScreen(() => import('../features/projects/ProjectsListPage'));
export const TargetsPage = lazyScreen(() => import('../features/targets/TargetsPage'));
export const ProjectEditPage = lazyScreen(() => import('../features/projects/ProjectEditPage'));
export const AdvertsListPage = lazyScreen(() => import('../features/adverts/AdvertsListPage'));
export const AdvertEditPage = lazyScreen(() => import('../features/adverts/AdvertEditPage'));
export const AdvertMigrationPage = lazyScreen(() => import('../features/adverts/AdvertMigrationPage'));
export const ArticlesListPage = lazyScreen(() => import('../features/articles/ArticlesListPage'));
export const ArticleEditPage = lazyScreen(() => import('../features/articles/ArticleEditPage'));
export const BatPage = lazyScreen(() => import('../features/bat/BatPage'));

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
  about: AboutPage,
  admin: AdminPage,
  groups: GroupsListPage,
  groupEdit: GroupEditPage,
  testAccounts: TestAccountsPage,
  documents: DocumentsPage,
  audiences: AudiencesListPage,
  audienceEdit: AudienceEditPage,
  audienceDebug: AudienceDebugPage,
  // Spec platform.md §2: / shows the same screen as the advert list.
  home: AdvertsListPage,
  projects: ProjectsListPage,
  targets: TargetsPage,
  projectEdit: ProjectEditPage,
  adverts: AdvertsListPage,
  advertEdit: AdvertEditPage,
  advertMigration: AdvertMigrationPage,
  articles: ArticlesListPage,
  articleEdit: ArticleEditPage,
  advertProof: BatPage,
};

/** Fetches the screens' chunks while the user types the password, so the first screen opens without waiting. */
export function preloadScreens(): void {
  void AdminPage.preload();
  void AdvertsListPage.preload();
}

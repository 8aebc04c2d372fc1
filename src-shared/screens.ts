import { access, isAllowed, type Access } from './roles';

/**
 * The screen registry: every screen of the spec (platform.md §2, adverts-articles.md §2,
 * audiences-projects-tools.md §2) declared once. The top navigation, the route guard, the router's routes and the
 * first screen after sign-in are all derived from it, so adding a screen is one entry here plus its component.
 *
 * Two rules per screen, because the spec gives two: `access` decides who may open the address (the guard sends
 * the others to /403), `nav.access` who sees it in the top navigation (defaults to `access`). Most screens are
 * open to any signed-in user and shown in the menu to some roles only (spec §2 "Top navigation, by role").
 */

/** The dropdowns of the top navigation; a dropdown sits where its first entry is declared. */
export const MENUS = {
  projects: { label: 'Projets', access: access.anyOf('CSM', 'CSM_LEAD', 'SALES') },
  audiences: { label: 'Audiences', access: access.anyOf('CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR') },
} as const satisfies Record<string, { label: string; access: Access }>;
export type MenuId = keyof typeof MENUS;

/** The renderer's component for a screen; the renderer maps each key of an available screen to its component. */
export type ScreenComponentKey =
  | 'forbidden'
  | 'login'
  | 'passwordConfirm'
  | 'setup'
  | 'home'
  | 'about'
  | 'admin'
  | 'projects'
  | 'projectEdit'
  | 'targets'
  | 'inventory'
  | 'adverts'
  | 'advertEdit'
  | 'advertProof'
  | 'advertMigration'
  | 'articles'
  | 'articleEdit'
  | 'push'
  | 'audiences'
  | 'audienceEdit'
  | 'audienceDebug'
  | 'groups'
  | 'groupEdit'
  | 'testAccounts'
  | 'documents'
  | 'imports'
  | 'alphonse'
  | 'alphonseProject';

export interface NavPlace {
  label: string;
  /** Under this dropdown; top level when absent. */
  menu?: MenuId;
  /** Who sees the entry; the screen's `access` when absent. */
  access?: Access;
}

export interface ScreenEntry {
  kind: 'screen';
  id: string;
  /** Route pattern, `:name` for a parameter (react-router syntax). */
  path: string;
  /** Who may open it; `public` screens are outside the signed-in shell. */
  access: Access;
  component: ScreenComponentKey;
  /** Whether the screen exists yet: screens of later issues are declared now and routed once they land. */
  available: boolean;
  nav?: NavPlace;
  /** Where a user lands after sign-in once this screen exists (spec §2 Login page: /adverts). */
  landing?: boolean;
}

/** An external tool of the top navigation; shown once the settings key holds its address. */
export interface ExternalLinkEntry {
  kind: 'link';
  id: string;
  label: string;
  access: Access;
  setting: 'shortUrlServiceUrl' | 'appCreationToolUrl';
}

export type RegistryEntry = ScreenEntry | ExternalLinkEntry;

const signedIn = access.authenticated;
const screen = (entry: Omit<ScreenEntry, 'kind'>): ScreenEntry => ({ kind: 'screen', ...entry });

/** In top-navigation order (spec §2): a dropdown takes the place of its first entry. */
export const SCREENS: readonly RegistryEntry[] = [
  screen({ id: 'login', path: '/login', access: access.public, component: 'login', available: true }),
  screen({ id: 'passwordConfirm', path: '/password/confirm', access: access.public, component: 'passwordConfirm', available: true }),
  // First start of the desktop app: the administrator is created here (beyond the spec, security review).
  screen({ id: 'setup', path: '/setup', access: access.public, component: 'setup', available: true }),
  screen({ id: 'forbidden', path: '/403', access: signedIn, component: 'forbidden', available: true }),
  screen({ id: 'home', path: '/', access: signedIn, component: 'home', available: true }),
  screen({ id: 'about', path: '/about', access: signedIn, component: 'about', available: true }),

  screen({ id: 'projects.list', path: '/projects', access: signedIn, component: 'projects', available: true, nav: { menu: 'projects', label: 'Projets', access: MENUS.projects.access } }),
  screen({ id: 'projects.edit', path: '/project/edit/:id', access: MENUS.projects.access, component: 'projectEdit', available: true }),
  screen({ id: 'projects.targets', path: '/targets', access: MENUS.projects.access, component: 'targets', available: true, nav: { menu: 'projects', label: 'Actions', access: MENUS.projects.access } }),
  // 'Pilotage inventaire' is in CSM_LEAD's menu only (this-role, no ADMIN bypass); ADMIN still opens the page
  // (spec: ADMIN sees its export, import and availability search).
  screen({ id: 'projects.inventory', path: '/inventory', access: signedIn, component: 'inventory', available: false, nav: { menu: 'projects', label: 'Pilotage inventaire', access: access.thisRole('CSM_LEAD') } }),

  screen({ id: 'adverts', path: '/adverts', access: signedIn, component: 'adverts', available: true, landing: true, nav: { label: 'Publicités', access: access.anyOf('CSM', 'CSM_LEAD') } }),
  screen({ id: 'adverts.edit', path: '/adverts/edit/:id', access: signedIn, component: 'advertEdit', available: true }),
  screen({ id: 'adverts.proof', path: '/advert/bat/:advertId', access: signedIn, component: 'advertProof', available: true }),
  // Those who may run a migration (the contract's adverts.migrationRun: SALES without ADMIN refused), not readers.
  screen({ id: 'adverts.migration', path: '/adverts/migration', access: access.notRole('SALES'), component: 'advertMigration', available: true }),
  screen({ id: 'articles', path: '/articles', access: signedIn, component: 'articles', available: true, nav: { label: 'Contenu', access: access.anyOf('CONTENT_CREATOR') } }),
  screen({ id: 'articles.edit', path: '/articles/edit/:id', access: signedIn, component: 'articleEdit', available: true }),
  screen({ id: 'push', path: '/push/create', access: signedIn, component: 'push', available: false, nav: { label: 'Push notifs', access: access.anyOf('CONTENT_CREATOR_LEAD') } }),

  screen({ id: 'audiences.list', path: '/audiences', access: signedIn, component: 'audiences', available: true, nav: { menu: 'audiences', label: 'Audiences', access: MENUS.audiences.access } }),
  // Spec §2 access guard: the audience editor is for CSM_LEAD or ADMIN only.
  screen({ id: 'audiences.edit', path: '/audiences/:id', access: access.anyOf('CSM_LEAD'), component: 'audienceEdit', available: true }),
  screen({ id: 'audiences.groups', path: '/groupes', access: access.anyOf('ADMIN'), component: 'groups', available: true, nav: { menu: 'audiences', label: 'Groupes' } }),
  // The group API is for CSM_LEAD and ADMIN (audience writers); the link to the editor is ADMIN's (spec §6).
  screen({ id: 'audiences.groupEdit', path: '/group/:label/:id', access: access.anyOf('CSM_LEAD'), component: 'groupEdit', available: true }),
  screen({ id: 'audiences.testAccounts', path: '/test-accounts', access: access.allOf('CSM', 'CSM_LEAD'), component: 'testAccounts', available: true, nav: { menu: 'audiences', label: 'Comptes de test' } }),
  screen({ id: 'audiences.debug', path: '/debug/audiences/:id', access: signedIn, component: 'audienceDebug', available: true }),

  { kind: 'link', id: 'shortUrl', label: 'Short URL', access: access.anyOf('CSM'), setting: 'shortUrlServiceUrl' },
  screen({ id: 'cdnDocs', path: '/document/upload', access: access.anyOf('CSM', 'CONTENT_CREATOR'), component: 'documents', available: true, nav: { label: 'CDN Docs' } }),
  { kind: 'link', id: 'appCreation', label: "Création d'app", access: signedIn, setting: 'appCreationToolUrl' },
  screen({ id: 'alphonse', path: '/alphonse', access: signedIn, component: 'alphonse', available: false, nav: { label: 'Alphonse', access: access.anyOf('SALES') } }),
  screen({ id: 'alphonse.project', path: '/alphonse/project/:id', access: signedIn, component: 'alphonseProject', available: false }),
  screen({ id: 'imports', path: '/imports', access: signedIn, component: 'imports', available: false }),
  screen({ id: 'admin', path: '/admin', access: access.anyOf('ADMIN'), component: 'admin', available: true, nav: { label: 'Admin' } }),
];

export const screenEntries = (registry: readonly RegistryEntry[] = SCREENS): ScreenEntry[] =>
  registry.filter((entry): entry is ScreenEntry => entry.kind === 'screen');

/** The screens the router serves now. */
export const availableScreens = (registry: readonly RegistryEntry[] = SCREENS): ScreenEntry[] => screenEntries(registry).filter((entry) => entry.available);

// ---------------------------------------------------------------------------------------------------------------
// Route matching and the guard

function normalise(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

function patternOf(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/** The declared screen at `pathname` (trailing slash ignored), if any. */
export function screenAt(pathname: string, registry: readonly RegistryEntry[] = SCREENS): ScreenEntry | undefined {
  const path = normalise(pathname);
  return screenEntries(registry).find((entry) => patternOf(entry.path).test(path));
}

export function isPublicRoute(pathname: string, registry: readonly RegistryEntry[] = SCREENS): boolean {
  return screenAt(pathname, registry)?.access.kind === 'public';
}

/**
 * What the guard does with a path (spec §2 access guard), `roles` null when anonymous:
 * - open: show it;
 * - login: anonymous on anything but a public screen;
 * - forbidden: signed in, but the role may not open it, or the path is not a screen of the registry (the guard
 *   denies what it does not know, so a screen cannot be reached before it is declared with its rule);
 * - home: a declared screen the role may open but that does not exist yet (a later issue's address, e.g. /adverts
 *   from a mail): the home page rather than a denial the user has not earned.
 */
export type GuardDecision = 'open' | 'login' | 'forbidden' | 'home';

export function guardRoute(pathname: string, roles: readonly string[] | null, registry: readonly RegistryEntry[] = SCREENS): GuardDecision {
  const entry = screenAt(pathname, registry);
  if (entry?.access.kind === 'public') return entry.available ? 'open' : 'home';
  if (roles === null) return 'login';
  if (!entry || !isAllowed(entry.access, roles)) return 'forbidden';
  return entry.available ? 'open' : 'home';
}

/** Whether a signed-in user holding `roles` may open `pathname` (declared and allowed). */
export function canOpenRoute(pathname: string, roles: readonly string[], registry: readonly RegistryEntry[] = SCREENS): boolean {
  const entry = screenAt(pathname, registry);
  return entry !== undefined && isAllowed(entry.access, roles);
}

/** Pages where a 401 (session:expired) does not send the user to /login (spec §2 access guard). */
export const STAY_ON_UNAUTHORIZED_ROUTES = ['/login', '/connect', '/password/confirm'];

export function redirectsToLoginOnUnauthorized(pathname: string): boolean {
  return !STAY_ON_UNAUTHORIZED_ROUTES.includes(normalise(pathname));
}

// ---------------------------------------------------------------------------------------------------------------
// Top navigation

export interface NavItem {
  id: string;
  label: string;
  available: boolean;
  /** In-app route, or an external address. */
  to?: string;
  external?: boolean;
  children?: NavItem[];
}

/** The settings, where external entries find their address; an entry without one stays hidden. */
export type ExternalLinks = Partial<Record<string, string>>;

/**
 * Every entry the role may see, available or not (the full rule table of spec §2). External entries are
 * available once `links` holds their address.
 */
export function navigationFor(roles: readonly string[], registry: readonly RegistryEntry[] = SCREENS, links: ExternalLinks = {}): NavItem[] {
  const items: NavItem[] = [];
  const menus = new Map<MenuId, NavItem>();
  for (const entry of registry) {
    if (entry.kind === 'link') {
      if (!isAllowed(entry.access, roles)) continue;
      const address = links[entry.setting];
      items.push({ id: entry.id, label: entry.label, external: true, available: Boolean(address), ...(address ? { to: address } : {}) });
      continue;
    }
    if (!entry.nav) continue;
    const menuId = entry.nav.menu;
    if (menuId && !menus.has(menuId)) {
      const menu: NavItem = { id: menuId, label: MENUS[menuId].label, available: true, children: [] };
      menus.set(menuId, menu);
      if (isAllowed(MENUS[menuId].access, roles)) items.push(menu);
    }
    if (!isAllowed(entry.nav.access ?? entry.access, roles)) continue;
    const item: NavItem = { id: entry.id, label: entry.nav.label, to: entry.path, available: entry.available };
    if (menuId) menus.get(menuId)!.children!.push(item);
    else items.push(item);
  }
  return items;
}

/** What the top bar shows now: allowed and available entries; a dropdown shows only if one of its entries does. */
export function visibleNavigation(roles: readonly string[], registry: readonly RegistryEntry[] = SCREENS, links: ExternalLinks = {}): NavItem[] {
  return navigationFor(roles, registry, links)
    .map((item) => (item.children ? { ...item, children: item.children.filter((child) => child.available) } : item))
    .filter((item) => item.available && (!item.children || item.children.length > 0));
}

/** Where a user lands after sign-in: the landing screen (/adverts) once it exists, else the first menu screen. */
export function firstScreenFor(roles: readonly string[], registry: readonly RegistryEntry[] = SCREENS): string {
  const landing = screenEntries(registry).find((entry) => entry.landing && entry.available && isAllowed(entry.access, roles));
  if (landing) return landing.path;
  for (const item of visibleNavigation(roles, registry)) {
    const target = item.to && !item.external ? item.to : item.children?.find((child) => child.to && !child.external)?.to;
    if (target) return target;
  }
  return '/';
}

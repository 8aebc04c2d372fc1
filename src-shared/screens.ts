import { FEATURE_SCREENS, MENUS, type ExternalLinkEntry, type MenuId, type RegistryEntry, type ScreenEntry } from './features';
import { isAllowed } from './roles';

/**
 * The screen registry: every screen of the spec (platform.md §2, adverts-articles.md §2,
 * audiences-projects-tools.md §2) declared once, in its feature's manifest. The top navigation, the route guard,
 * the router's routes and the first screen after sign-in are all derived from it, so adding a screen is one entry
 * in the feature's manifest plus its component in the renderer's feature manifest (features/<folder>/screens.ts).
 *
 * Two rules per screen, because the spec gives two: `access` decides who may open the address (the guard sends
 * the others to /403), `nav.access` who sees it in the top navigation (defaults to `access`). Most screens are
 * open to any signed-in user and shown in the menu to some roles only (spec §2 "Top navigation, by role").
 */

export type { RegistryEntry, ScreenEntry } from './features';

/** Every screen and external tool, as the feature manifests declare them (src-shared/features/<feature>.ts). */
export const SCREENS: readonly RegistryEntry[] = FEATURE_SCREENS;

export const screenEntries = (registry: readonly RegistryEntry[] = SCREENS): ScreenEntry[] =>
  registry.filter((entry): entry is ScreenEntry => entry.kind === 'screen');

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
 *   denies what it does not know, so a screen cannot be reached before it is declared with its rule).
 */
export type GuardDecision = 'open' | 'login' | 'forbidden';

export function guardRoute(pathname: string, roles: readonly string[] | null, registry: readonly RegistryEntry[] = SCREENS): GuardDecision {
  const entry = screenAt(pathname, registry);
  if (entry?.access.kind === 'public') return 'open';
  if (roles === null) return 'login';
  return entry && mayOpen(entry, pathname, roles) ? 'open' : 'forbidden';
}

/** Whether a signed-in user holding `roles` may open `pathname` (declared and allowed). */
export function canOpenRoute(pathname: string, roles: readonly string[], registry: readonly RegistryEntry[] = SCREENS): boolean {
  const entry = screenAt(pathname, registry);
  return entry !== undefined && mayOpen(entry, pathname, roles);
}

/** The screen's rule, and the stricter rule of the address when it names one. */
function mayOpen(entry: ScreenEntry, pathname: string, roles: readonly string[]): boolean {
  const path = normalise(pathname);
  const stricter = entry.stricter?.find((address) => patternOf(address.path).test(path));
  return isAllowed(entry.access, roles) && (!stricter || isAllowed(stricter.access, roles));
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
  /** False only for an external tool whose address the settings do not hold yet. */
  available: boolean;
  /** In-app route, or an external address. */
  to?: string;
  external?: boolean;
  children?: NavItem[];
}

/** The settings, where external entries find their address; an entry without one stays hidden. */
export type ExternalLinks = Partial<Record<string, string>>;

/** The entries of the top bar, left to right by their stated position. */
function inNavigationOrder(registry: readonly RegistryEntry[]): (ScreenEntry | ExternalLinkEntry)[] {
  const positionOf = (entry: RegistryEntry) => (entry.kind === 'link' ? entry.position : entry.nav!.position);
  return registry.filter((entry) => entry.kind === 'link' || entry.nav).sort((a, b) => positionOf(a) - positionOf(b));
}

/**
 * Every entry the role may see, available or not (the full rule table of spec §2). External entries are
 * available once `links` holds their address.
 */
export function navigationFor(roles: readonly string[], registry: readonly RegistryEntry[] = SCREENS, links: ExternalLinks = {}): NavItem[] {
  const items: NavItem[] = [];
  const menus = new Map<MenuId, NavItem>();
  for (const entry of inNavigationOrder(registry)) {
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
    const item: NavItem = { id: entry.id, label: entry.nav.label, to: entry.path, available: true };
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
  const landing = screenEntries(registry).find((entry) => entry.landing && isAllowed(entry.access, roles));
  if (landing) return landing.path;
  for (const item of visibleNavigation(roles, registry)) {
    const target = item.to && !item.external ? item.to : item.children?.find((child) => child.to && !child.external)?.to;
    if (target) return target;
  }
  return '/';
}

import { hasAllRoles, hasAnyRole, hasThisRole, type Role } from './roles';

/**
 * The top navigation of spec §2 as data. `available` says whether the screen exists yet: entries of later
 * issues stay hidden until their screen lands. External links stay hidden until their address is configured.
 */
export type NavRule = { kind: 'anyOf'; roles: Role[] } | { kind: 'allOf'; roles: Role[] } | { kind: 'thisRole'; role: Role } | { kind: 'everyone' };

export interface NavItem {
  id: string;
  label: string;
  rule: NavRule;
  available: boolean;
  /** In-app route, or an external address. */
  to?: string;
  external?: boolean;
  /** External entries: the settings key holding their address. */
  linkSetting?: string;
  children?: NavItem[];
}

const anyOf = (...roles: Role[]): NavRule => ({ kind: 'anyOf', roles });
const allOf = (...roles: Role[]): NavRule => ({ kind: 'allOf', roles });
const thisRole = (role: Role): NavRule => ({ kind: 'thisRole', role });

export const NAVIGATION: NavItem[] = [
  {
    id: 'projects',
    label: 'Projets',
    rule: anyOf('CSM', 'CSM_LEAD', 'SALES'),
    available: true,
    children: [
      { id: 'projects.list', label: 'Projets', to: '/projects', rule: anyOf('CSM', 'CSM_LEAD', 'SALES'), available: false },
      { id: 'projects.targets', label: 'Actions', to: '/targets', rule: anyOf('CSM', 'CSM_LEAD', 'SALES'), available: false },
      { id: 'projects.inventory', label: 'Pilotage inventaire', to: '/inventory', rule: thisRole('CSM_LEAD'), available: false },
    ],
  },
  { id: 'adverts', label: 'Publicités', to: '/adverts', rule: anyOf('CSM', 'CSM_LEAD'), available: false },
  { id: 'articles', label: 'Contenu', to: '/articles', rule: anyOf('CONTENT_CREATOR'), available: false },
  { id: 'push', label: 'Push notifs', to: '/push/create', rule: anyOf('CONTENT_CREATOR_LEAD'), available: false },
  {
    id: 'audiences',
    label: 'Audiences',
    rule: anyOf('CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR'),
    available: true,
    children: [
      { id: 'audiences.list', label: 'Audiences', to: '/audiences', rule: anyOf('CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR'), available: false },
      { id: 'audiences.groups', label: 'Groupes', to: '/groupes', rule: anyOf('ADMIN'), available: false },
      { id: 'audiences.testAccounts', label: 'Comptes de test', to: '/test-accounts', rule: allOf('CSM', 'CSM_LEAD'), available: false },
    ],
  },
  { id: 'shortUrl', label: 'Short URL', rule: anyOf('CSM'), available: false, external: true, linkSetting: 'shortUrlServiceUrl' },
  { id: 'cdnDocs', label: 'CDN Docs', to: '/document/upload', rule: anyOf('CSM', 'CONTENT_CREATOR'), available: false },
  { id: 'appCreation', label: "Création d'app", rule: { kind: 'everyone' }, available: false, external: true, linkSetting: 'appCreationToolUrl' },
  { id: 'alphonse', label: 'Alphonse', to: '/alphonse', rule: anyOf('SALES'), available: false },
  { id: 'admin', label: 'Admin', to: '/admin', rule: anyOf('ADMIN'), available: true },
];

export function passesNavRule(rule: NavRule, roles: readonly string[]): boolean {
  switch (rule.kind) {
    case 'everyone':
      return true;
    case 'anyOf':
      return hasAnyRole(roles, rule.roles);
    case 'allOf':
      return hasAllRoles(roles, rule.roles);
    case 'thisRole':
      return hasThisRole(roles, rule.role);
  }
}

/** Every entry the role may see, available or not (the full rule table of spec §2). */
export function navigationFor(roles: readonly string[], items: NavItem[] = NAVIGATION): NavItem[] {
  return items
    .filter((item) => passesNavRule(item.rule, roles))
    .map((item) => (item.children ? { ...item, children: navigationFor(roles, item.children) } : item));
}

/** The settings, where external entries find their address (`linkSetting`); an entry without one stays hidden. */
export type ExternalLinks = Partial<Record<string, string>>;

/** An external entry is available once its address is configured, and points at it. */
function withExternalLink(item: NavItem, links: ExternalLinks): NavItem {
  if (!item.external) return item;
  const address = item.linkSetting ? links[item.linkSetting] : undefined;
  return address ? { ...item, to: address, available: true } : { ...item, available: false };
}

/** What the top bar shows now: allowed and available entries; a dropdown shows only if a child is. */
export function visibleNavigation(roles: readonly string[], items: NavItem[] = NAVIGATION, links: ExternalLinks = {}): NavItem[] {
  return navigationFor(roles, items)
    .map((item) => withExternalLink(item, links))
    .map((item) => (item.children ? { ...item, children: item.children.filter((child) => child.available) } : item))
    .filter((item) => item.available && (!item.children || item.children.length > 0));
}

/** Routes that need more than being signed in. */
const ROUTE_RULES: { pattern: RegExp; rule: NavRule }[] = [
  { pattern: /^\/admin\/?$/, rule: anyOf('ADMIN') },
  // The audience edit page: CSM_LEAD or ADMIN (spec §2 access guard).
  { pattern: /^\/audiences\/[^/]+\/?$/, rule: anyOf('CSM_LEAD') },
  { pattern: /^\/groupes\/?$/, rule: anyOf('ADMIN') },
  { pattern: /^\/test-accounts\/?$/, rule: allOf('CSM', 'CSM_LEAD') },
];

/** Routes open to anonymous visitors (spec §2). */
export const PUBLIC_ROUTES = ['/login', '/password/confirm'];

export function isPublicRoute(pathname: string): boolean {
  return PUBLIC_ROUTES.includes(pathname.replace(/\/$/, '') || '/');
}

/** Pages where a 401 (session:expired) does not send the user to /login (spec §2 access guard). */
export const STAY_ON_UNAUTHORIZED_ROUTES = ['/login', '/connect', '/password/confirm'];

export function redirectsToLoginOnUnauthorized(pathname: string): boolean {
  return !STAY_ON_UNAUTHORIZED_ROUTES.includes(pathname.replace(/\/$/, '') || '/');
}

/** Whether a signed-in user holding `roles` may open `pathname`; when not, the guard shows /403. */
export function canOpenRoute(pathname: string, roles: readonly string[]): boolean {
  const match = ROUTE_RULES.find((entry) => entry.pattern.test(pathname));
  return !match || passesNavRule(match.rule, roles);
}

/** Where a user lands after sign-in: /adverts (spec §2) once it exists, else the first screen the role can open. */
export function firstScreenFor(roles: readonly string[], items: NavItem[] = NAVIGATION): string {
  const adverts = items.find((item) => item.id === 'adverts');
  if (adverts?.available) return '/adverts';
  for (const item of visibleNavigation(roles, items)) {
    const target = item.to && !item.external ? item.to : item.children?.find((child) => child.to && !child.external)?.to;
    if (target) return target;
  }
  return '/';
}

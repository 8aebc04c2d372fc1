import { describe, expect, it } from 'vitest';
import {
  SCREENS,
  canOpenRoute,
  firstScreenFor,
  guardRoute,
  isPublicRoute,
  navigationFor,
  redirectsToLoginOnUnauthorized,
  screenEntries,
  visibleNavigation,
  type NavItem,
  type RegistryEntry,
} from '@shared/screens';
import { contract } from '@shared/contract';
import { ROLES, isAllowed, type Role } from '@shared/roles';

const everyRoleSet: Role[][] = Array.from({ length: 1 << ROLES.length }, (_, mask) => ROLES.filter((_, i) => mask & (1 << i)));
const ids = (items: NavItem[]): string[] => items.flatMap((item) => [item.id, ...ids(item.children ?? [])]);
const has = (roles: Role[], ...wanted: Role[]) => wanted.some((role) => roles.includes(role));

/** Who sees each navigation entry by the spec (§2 "Top navigation, by role"), whether the screen exists yet or not. */
function specNavigation(roles: Role[]): Record<string, boolean> {
  const admin = roles.includes('ADMIN');
  return {
    projects: admin || has(roles, 'CSM', 'CSM_LEAD', 'SALES'),
    'projects.list': admin || has(roles, 'CSM', 'CSM_LEAD', 'SALES'),
    'projects.targets': admin || has(roles, 'CSM', 'CSM_LEAD', 'SALES'),
    // 'Pilotage inventaire' is for CSM_LEAD only: ADMIN does not bypass this-role.
    'projects.inventory': (admin || has(roles, 'CSM', 'CSM_LEAD', 'SALES')) && roles.includes('CSM_LEAD'),
    adverts: admin || has(roles, 'CSM', 'CSM_LEAD'),
    articles: admin || has(roles, 'CONTENT_CREATOR'),
    push: admin || has(roles, 'CONTENT_CREATOR_LEAD'),
    audiences: admin || has(roles, 'CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR'),
    'audiences.list': admin || has(roles, 'CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR'),
    'audiences.groups': admin,
    'audiences.testAccounts': admin || (roles.includes('CSM') && roles.includes('CSM_LEAD')),
    // The CSV list import (not in the spec's table): the audience managers.
    imports: admin || has(roles, 'CSM', 'CSM_LEAD'),
    shortUrl: admin || roles.includes('CSM'),
    cdnDocs: admin || has(roles, 'CSM', 'CONTENT_CREATOR'),
    appCreation: true,
    alphonse: admin || roles.includes('SALES'),
    admin,
  };
}

/** Every screen the registry declares (the one list to update when a screen lands). */
const DECLARED = [
  'about',
  'admin',
  'adverts',
  'adverts.edit',
  'adverts.migration',
  'adverts.proof',
  'alphonse',
  'alphonse.project',
  'articles',
  'articles.edit',
  'audiences.debug',
  'audiences.edit',
  'audiences.groupEdit',
  'audiences.groups',
  'audiences.list',
  'audiences.testAccounts',
  'cdnDocs',
  'forbidden',
  'home',
  'imports',
  'login',
  'passwordConfirm',
  'projects.edit',
  'projects.inventory',
  'projects.list',
  'projects.targets',
  'push',
  'setup',
  // The first start's choice of where to work (team server or this computer), before the administrator's creation.
  'workplace',
];

/** The spec's entries for these roles among the screens that exist, with a dropdown when one of its entries shows. */
function expectedVisible(roles: Role[], links: string[] = []): string[] {
  const spec = specNavigation(roles);
  const shown = (id: string) => spec[id] && (DECLARED.includes(id) || links.includes(id));
  return Object.keys(spec).filter((id) =>
    id.includes('.') || !Object.keys(spec).some((child) => child.startsWith(`${id}.`))
      ? shown(id)
      : Object.keys(spec).some((child) => child.startsWith(`${id}.`) && shown(child)),
  );
}

describe('top navigation by role (spec §2), for all 64 role sets', () => {
  it('follows every rule of the spec', () => {
    for (const roles of everyRoleSet) {
      const seen = new Set(ids(navigationFor(roles)));
      const expected = specNavigation(roles);
      for (const [id, visible] of Object.entries(expected)) expect(seen.has(id), `${roles.join('+') || 'no role'}: ${id}`).toBe(visible);
    }
  });

  it('gives each single role exactly its entries (the spec table, written out)', () => {
    const table: [Role[], string[]][] = [
      [[], ['appCreation']],
      [
        ['ADMIN'],
        // ADMIN passes any-of and all-of, not this-role: no 'Pilotage inventaire'.
        [
          'projects',
          'projects.list',
          'projects.targets',
          'adverts',
          'articles',
          'push',
          'audiences',
          'audiences.list',
          'audiences.groups',
          'audiences.testAccounts',
          'imports',
          'shortUrl',
          'cdnDocs',
          'appCreation',
          'alphonse',
          'admin',
        ],
      ],
      [
        ['CSM'],
        ['projects', 'projects.list', 'projects.targets', 'adverts', 'audiences', 'audiences.list', 'imports', 'shortUrl', 'cdnDocs', 'appCreation'],
      ],
      [
        ['CSM_LEAD'],
        ['projects', 'projects.list', 'projects.targets', 'projects.inventory', 'adverts', 'audiences', 'audiences.list', 'imports', 'appCreation'],
      ],
      [['SALES'], ['projects', 'projects.list', 'projects.targets', 'audiences', 'audiences.list', 'appCreation', 'alphonse']],
      [['CONTENT_CREATOR'], ['articles', 'audiences', 'audiences.list', 'cdnDocs', 'appCreation']],
      [['CONTENT_CREATOR_LEAD'], ['push', 'appCreation']],
      // Test accounts need both CSM and CSM_LEAD.
      [
        ['CSM', 'CSM_LEAD'],
        [
          'projects',
          'projects.list',
          'projects.targets',
          'projects.inventory',
          'adverts',
          'audiences',
          'audiences.list',
          'audiences.testAccounts',
          'imports',
          'shortUrl',
          'cdnDocs',
          'appCreation',
        ],
      ],
      [
        ['ADMIN', 'CSM_LEAD'],
        [
          'projects',
          'projects.list',
          'projects.targets',
          'projects.inventory',
          'adverts',
          'articles',
          'push',
          'audiences',
          'audiences.list',
          'audiences.groups',
          'audiences.testAccounts',
          'imports',
          'shortUrl',
          'cdnDocs',
          'appCreation',
          'alphonse',
          'admin',
        ],
      ],
    ];
    for (const [roles, expected] of table) expect(ids(navigationFor(roles)), roles.join('+') || 'no role').toEqual(expected);
  });

  it('shows the spec entries of the screens that exist, and nothing else', () => {
    for (const roles of everyRoleSet) expect(ids(visibleNavigation(roles)), roles.join('+') || 'no role').toEqual(expectedVisible(roles));
  });

  it('shows the external tools once their address is configured: short URLs for CSM, app creation for everyone', () => {
    const links = { shortUrlServiceUrl: 'https://s.exemple.fr', appCreationToolUrl: 'https://apps.exemple.fr' };
    for (const roles of everyRoleSet) {
      const shown = visibleNavigation(roles, SCREENS, links);
      expect(ids(shown), roles.join('+') || 'no role').toEqual(expectedVisible(roles, ['shortUrl', 'appCreation']));
    }
    const [appCreation] = visibleNavigation([], SCREENS, { appCreationToolUrl: links.appCreationToolUrl });
    expect(appCreation).toMatchObject({ id: 'appCreation', to: links.appCreationToolUrl, external: true });
    expect(ids(visibleNavigation(['CSM'], SCREENS, { shortUrlServiceUrl: '' })), 'an empty address is no address').toEqual(expectedVisible(['CSM']));
  });

  it('shows a dropdown only when one of its entries exists', () => {
    const items: RegistryEntry[] = SCREENS.filter(
      (entry) => !(entry.kind === 'screen' && entry.id.startsWith('projects.') && entry.id !== 'projects.inventory'),
    );
    expect(ids(visibleNavigation(['CSM_LEAD'], items)).filter((id) => id.startsWith('projects'))).toEqual(['projects', 'projects.inventory']);
    expect(ids(visibleNavigation(['CSM'], items)).filter((id) => id.startsWith('projects'))).toEqual([]);
  });
});

describe('route guard', () => {
  it('opens only the login and password-confirm pages anonymously', () => {
    expect(isPublicRoute('/login')).toBe(true);
    expect(isPublicRoute('/password/confirm')).toBe(true);
    for (const path of ['/', '/admin', '/adverts', '/about', '/403']) expect(isPublicRoute(path)).toBe(false);
  });

  it('lets only CSM_LEAD or ADMIN edit an audience, and only ADMIN open /admin', () => {
    for (const roles of everyRoleSet) {
      expect(canOpenRoute('/audiences/12', roles)).toBe(roles.includes('ADMIN') || roles.includes('CSM_LEAD'));
      expect(canOpenRoute('/admin', roles)).toBe(roles.includes('ADMIN'));
      expect(canOpenRoute('/admin/', roles)).toBe(roles.includes('ADMIN'));
      expect(canOpenRoute('/groupes', roles)).toBe(roles.includes('ADMIN'));
      expect(canOpenRoute('/test-accounts', roles)).toBe(roles.includes('ADMIN') || (roles.includes('CSM') && roles.includes('CSM_LEAD')));
      expect(canOpenRoute('/about', roles)).toBe(true);
    }
  });

  it("opens a screen, and an editor's create address, to exactly the roles its calls allow (no half-loaded page)", () => {
    const screens: [string, keyof typeof contract][] = [
      ['/audiences', 'audiences.list'],
      ['/debug/audiences/3', 'audiences.debug'],
      ['/projects', 'projects.list'],
      ['/targets', 'targets.list'],
      ['/project/edit/12', 'projects.list'],
      ['/project/edit/new', 'projects.create'],
      ['/adverts/edit/12', 'adverts.list'],
      ['/adverts/edit/new', 'adverts.create'],
      ['/articles/edit/new', 'articles.create'],
    ];
    for (const roles of everyRoleSet) {
      for (const [path, operation] of screens) {
        expect(canOpenRoute(path, roles), `${path} as ${roles.join('+')}`).toBe(isAllowed(contract[operation].access, roles));
        expect(guardRoute(path, roles), `${path} as ${roles.join('+')}`).toBe(isAllowed(contract[operation].access, roles) ? 'open' : 'forbidden');
      }
    }
  });

  it('opens /adverts/migration to exactly those the server lets run a migration (not SALES without ADMIN; docs/accounts.md, Screens and routes)', () => {
    for (const roles of everyRoleSet) {
      expect(canOpenRoute('/adverts/migration', roles), roles.join('+')).toBe(isAllowed(contract['adverts.migrationRun'].access, roles));
      expect(canOpenRoute('/adverts/migration', roles), roles.join('+')).toBe(roles.includes('ADMIN') || !roles.includes('SALES'));
    }
  });

  it('denies a path no screen declares: /403 when signed in, /login when anonymous', () => {
    for (const path of ['/nowhere', '/admin/extra', '/audiences/1/2', '/adverts/edit']) {
      expect(guardRoute(path, ['ADMIN']), path).toBe('forbidden');
      expect(canOpenRoute(path, ['ADMIN']), path).toBe(false);
      expect(guardRoute(path, null), path).toBe('login');
    }
  });

  it('opens what exists and denies by role first', () => {
    expect(guardRoute('/admin', ['ADMIN'])).toBe('open');
    expect(guardRoute('/admin/', ['ADMIN'])).toBe('open');
    expect(guardRoute('/admin', ['CSM'])).toBe('forbidden');
    expect(guardRoute('/push/create', ['CSM'])).toBe('forbidden');
    expect(guardRoute('/push/create', ['CONTENT_CREATOR_LEAD'])).toBe('open');
    expect(guardRoute('/inventory', ['SALES'])).toBe('forbidden');
    expect(guardRoute('/inventory', ['CSM_LEAD'])).toBe('open');
    expect(guardRoute('/inventory', ['ADMIN'])).toBe('open');
    expect(guardRoute('/audiences/12', ['SALES'])).toBe('forbidden');
    expect(guardRoute('/audiences/12', ['CSM_LEAD'])).toBe('open');
    expect(guardRoute('/login', null)).toBe('open');
    expect(guardRoute('/password/confirm', null)).toBe('open');
    expect(guardRoute('/', null)).toBe('login');
  });

  it('declares every route of the spec (platform.md §2 table and the two other documents)', () => {
    const paths = screenEntries().map((entry) => entry.path);
    for (const path of [
      '/403',
      '/login',
      '/password/confirm',
      '/',
      '/projects',
      '/project/edit/:id',
      '/targets',
      '/audiences',
      '/audiences/:id',
      '/groupes',
      '/group/:label/:id',
      '/test-accounts',
      '/adverts',
      '/adverts/edit/:id',
      '/advert/bat/:advertId',
      '/articles',
      '/articles/edit/:id',
      '/document/upload',
      '/admin',
      '/debug/audiences/:id',
      '/imports',
      '/alphonse',
      '/alphonse/project/:id',
      '/inventory',
      '/push/create',
      '/about',
    ])
      expect(paths, path).toContain(path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(SCREENS.map((entry) => entry.id)).size).toBe(SCREENS.length);
    expect(
      screenEntries()
        .map((entry) => entry.id)
        .sort(),
    ).toEqual(DECLARED);
  });
});

describe('401 redirect (spec §2)', () => {
  it('sends to /login except from /login, /connect and /password/confirm', () => {
    for (const path of ['/login', '/connect', '/password/confirm', '/password/confirm/'])
      expect(redirectsToLoginOnUnauthorized(path), path).toBe(false);
    for (const path of ['/', '/admin', '/about', '/403', '/password', '/loginx']) expect(redirectsToLoginOnUnauthorized(path), path).toBe(true);
  });
});

describe('first screen after sign-in', () => {
  it('is /adverts once it exists, else the first screen the role can open', () => {
    const pathOf = (id: string) => screenEntries().find((entry) => entry.id === id)?.path;
    for (const roles of everyRoleSet) {
      const firstEntry = expectedVisible(roles).map(pathOf).find(Boolean);
      const expected = DECLARED.includes('adverts') ? '/adverts' : (firstEntry ?? '/');
      expect(firstScreenFor(roles), roles.join('+') || 'no role').toBe(expected);
    }
    const withoutAdverts = SCREENS.filter((entry) => entry.id !== 'adverts');
    expect(firstScreenFor(['CONTENT_CREATOR_LEAD'], withoutAdverts)).toBe('/push/create');
    expect(firstScreenFor(['SALES'])).toBe('/adverts');
  });
});

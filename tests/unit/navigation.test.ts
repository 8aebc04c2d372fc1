import { describe, expect, it } from 'vitest';
import { NAVIGATION, canOpenRoute, firstScreenFor, isPublicRoute, navigationFor, visibleNavigation, type NavItem } from '@shared/navigation';
import { ROLES, type Role } from '@shared/roles';

const everyRoleSet: Role[][] = Array.from({ length: 1 << ROLES.length }, (_, mask) => ROLES.filter((_, i) => mask & (1 << i)));
const ids = (items: NavItem[]): string[] => items.flatMap((item) => [item.id, ...ids(item.children ?? [])]);
const has = (roles: Role[], ...wanted: Role[]) => wanted.some((role) => roles.includes(role));

describe('top navigation by role (spec §2), for all 64 role sets', () => {
  it('follows every rule of the spec', () => {
    for (const roles of everyRoleSet) {
      const seen = new Set(ids(navigationFor(roles)));
      const admin = roles.includes('ADMIN');
      const expected: Record<string, boolean> = {
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
        shortUrl: admin || roles.includes('CSM'),
        cdnDocs: admin || has(roles, 'CSM', 'CONTENT_CREATOR'),
        appCreation: true,
        alphonse: admin || roles.includes('SALES'),
        admin,
      };
      for (const [id, visible] of Object.entries(expected)) expect(seen.has(id), `${roles.join('+') || 'no role'}: ${id}`).toBe(visible);
    }
  });

  it('shows only screens that exist: today, Admin for ADMIN and nothing else', () => {
    for (const roles of everyRoleSet) {
      expect(ids(visibleNavigation(roles))).toEqual(roles.includes('ADMIN') ? ['admin'] : []);
    }
  });

  it('shows a dropdown only when one of its entries exists', () => {
    const items: NavItem[] = NAVIGATION.map((item) =>
      item.id === 'projects' ? { ...item, children: item.children!.map((c) => ({ ...c, available: c.id === 'projects.inventory' })) } : item,
    );
    expect(ids(visibleNavigation(['CSM_LEAD'], items))).toEqual(['projects', 'projects.inventory']);
    expect(ids(visibleNavigation(['CSM'], items))).toEqual([]);
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
      expect(canOpenRoute('/audiences', roles)).toBe(true);
      expect(canOpenRoute('/about', roles)).toBe(true);
    }
  });
});

describe('first screen after sign-in', () => {
  it('is /adverts once it exists, else the first screen the role can open', () => {
    expect(firstScreenFor(['ADMIN'])).toBe('/admin');
    expect(firstScreenFor(['SALES'])).toBe('/');
    const withAdverts = NAVIGATION.map((item) => (item.id === 'adverts' ? { ...item, available: true } : item));
    expect(firstScreenFor(['SALES'], withAdverts)).toBe('/adverts');
  });
});

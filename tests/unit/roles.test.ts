import { describe, expect, it } from 'vitest';
import { ROLES, hasAllRoles, hasAnyRole, hasThisRole, isAllowed, access, type Role } from '@shared/roles';

/** Every subset of the six roles: 64 users. */
const everyRoleSet: Role[][] = Array.from({ length: 1 << ROLES.length }, (_, mask) => ROLES.filter((_, i) => mask & (1 << i)));

describe('role checks (spec §6), as truth tables over all 64 role sets', () => {
  it('any-of: true iff the user holds one of the roles, or ADMIN', () => {
    for (const user of everyRoleSet) {
      for (const required of everyRoleSet) {
        const expected = user.includes('ADMIN') || required.some((r) => user.includes(r));
        expect(hasAnyRole(user, required), `${user} anyOf ${required}`).toBe(expected);
      }
    }
  });

  it('all-of: true iff the user holds every role, or ADMIN', () => {
    for (const user of everyRoleSet) {
      for (const required of everyRoleSet) {
        const expected = user.includes('ADMIN') || required.every((r) => user.includes(r));
        expect(hasAllRoles(user, required), `${user} allOf ${required}`).toBe(expected);
      }
    }
  });

  it('this-role: true iff the user holds that very role; ADMIN does not bypass', () => {
    for (const user of everyRoleSet) {
      for (const role of ROLES) expect(hasThisRole(user, role)).toBe(user.includes(role));
    }
    expect(hasThisRole(['ADMIN'], 'CSM_LEAD')).toBe(false);
  });

  it('spot checks from the spec', () => {
    // Test accounts need both CSM and CSM_LEAD; ADMIN passes.
    expect(hasAllRoles(['CSM'], ['CSM', 'CSM_LEAD'])).toBe(false);
    expect(hasAllRoles(['CSM', 'CSM_LEAD'], ['CSM', 'CSM_LEAD'])).toBe(true);
    expect(hasAllRoles(['ADMIN'], ['CSM', 'CSM_LEAD'])).toBe(true);
    // An empty any-of list admits only ADMIN.
    expect(hasAnyRole(['SALES'], [])).toBe(false);
    expect(hasAnyRole(['ADMIN'], [])).toBe(true);
  });

  it('isAllowed applies each rule kind and refuses anonymous callers on non-public rules', () => {
    expect(isAllowed(access.public, null)).toBe(true);
    expect(isAllowed(access.authenticated, null)).toBe(false);
    expect(isAllowed(access.authenticated, [])).toBe(true);
    expect(isAllowed(access.anyOf('CSM'), null)).toBe(false);
    for (const user of everyRoleSet) {
      expect(isAllowed(access.anyOf('CSM', 'SALES'), user)).toBe(hasAnyRole(user, ['CSM', 'SALES']));
      expect(isAllowed(access.allOf('CSM', 'CSM_LEAD'), user)).toBe(hasAllRoles(user, ['CSM', 'CSM_LEAD']));
      expect(isAllowed(access.thisRole('CSM_LEAD'), user)).toBe(user.includes('CSM_LEAD'));
    }
  });
});

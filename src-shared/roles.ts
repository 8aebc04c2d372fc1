/** The six staff roles of spec §1. ADMIN passes every any-of and all-of check (spec §6). */
export const ROLES = ['ADMIN', 'CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR', 'CONTENT_CREATOR_LEAD'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** any-of: the user holds at least one of `required`, or ADMIN. */
export function hasAnyRole(userRoles: readonly string[], required: readonly Role[]): boolean {
  return userRoles.includes('ADMIN') || required.some((role) => userRoles.includes(role));
}

/** all-of: the user holds every one of `required`, or ADMIN. */
export function hasAllRoles(userRoles: readonly string[], required: readonly Role[]): boolean {
  return userRoles.includes('ADMIN') || required.every((role) => userRoles.includes(role));
}

/** this-role: the user holds exactly this role; ADMIN does not bypass it. */
export function hasThisRole(userRoles: readonly string[], role: Role): boolean {
  return userRoles.includes(role);
}

/**
 * Who may call an operation or open a screen.
 * - public: anyone, no token.
 * - authenticated: any signed-in account, whatever its roles.
 * - anyOf / allOf / thisRole: the three role checks of spec §6.
 */
export type Access =
  | { readonly kind: 'public' }
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'anyOf'; readonly roles: readonly Role[] }
  | { readonly kind: 'allOf'; readonly roles: readonly Role[] }
  | { readonly kind: 'thisRole'; readonly role: Role }
  /** Signed in and not holding `role`, unless ADMIN (spec §6: SALES without ADMIN is blocked from writes). */
  | { readonly kind: 'notRole'; readonly role: Role };

export const access = {
  public: { kind: 'public' } as Access,
  authenticated: { kind: 'authenticated' } as Access,
  anyOf: (...roles: Role[]): Access => ({ kind: 'anyOf', roles }),
  allOf: (...roles: Role[]): Access => ({ kind: 'allOf', roles }),
  thisRole: (role: Role): Access => ({ kind: 'thisRole', role }),
  notRole: (role: Role): Access => ({ kind: 'notRole', role }),
};

/** Whether an account holding `userRoles` passes `rule`. `null` roles means anonymous. */
export function isAllowed(rule: Access, userRoles: readonly string[] | null): boolean {
  if (rule.kind === 'public') return true;
  if (userRoles === null) return false;
  switch (rule.kind) {
    case 'authenticated':
      return true;
    case 'anyOf':
      return hasAnyRole(userRoles, rule.roles);
    case 'allOf':
      return hasAllRoles(userRoles, rule.roles);
    case 'thisRole':
      return hasThisRole(userRoles, rule.role);
    case 'notRole':
      return userRoles.includes('ADMIN') || !userRoles.includes(rule.role);
  }
}

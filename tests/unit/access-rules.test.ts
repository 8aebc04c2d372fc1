import { describe, expect, it } from 'vitest';
import * as rules from '@shared/access-rules';
import { contract, type OperationId } from '@shared/contract';
import { CONTENT_FIELD_RULES } from '@shared/contract/field-access';
import { ROLES, isAllowed, type Access, type Role } from '@shared/roles';
import {
  advertSectionFields,
  advertSections,
  canOpenAudience,
  canSearchAudiences,
  isAdvertReadOnly,
} from '@shared/rules/advert-screens/editor-sections';
import { canImportEstimates, canWriteProjects } from '@shared/rules/project-list';

/** Every subset of the six roles: 64 users. */
const everyRoleSet: Role[][] = Array.from({ length: 1 << ROLES.length }, (_, mask) => ROLES.filter((_, i) => mask & (1 << i)));

/**
 * The renderer shows a control for exactly the roles the server lets through the operation behind it: both read the
 * rule from src-shared/access-rules.ts, so neither spells the roles again.
 */
describe('access rules: one source for the contract and the screens', () => {
  const sameRule: [OperationId, Access][] = [
    ['audiences.search', rules.audienceSearchers],
    ['audiences.size', rules.audienceSizers],
    ['audienceHistory.deleted', rules.audienceRestorers],
    ['audienceHistory.restore', rules.audienceRestorers],
    ['estimates.importFile', rules.estimateImporters],
    ['estimates.importIntoProject', rules.projectWriters],
    ['projects.create', rules.projectWriters],
    ['adverts.update', rules.contentWriters],
    ['inventory.upload', rules.inventoryAdmins],
    ['laboratory.create', rules.labWriters],
  ];
  it.each(sameRule)('%s takes its access from access-rules.ts', (operationId, rule) => {
    expect(contract[operationId].access).toBe(rule);
  });

  it('the restricted content fields are written by contentAdminFieldWriters', () => {
    for (const field of CONTENT_FIELD_RULES) expect(field.access).toBe(rules.contentAdminFieldWriters);
  });

  const predicates: [string, (roles: readonly string[]) => boolean, OperationId][] = [
    ['canSearchAudiences', canSearchAudiences, 'audiences.search'],
    ['canOpenAudience', canOpenAudience, 'audiences.update'],
    ['canWriteProjects', canWriteProjects, 'projects.create'],
    ['canImportEstimates', canImportEstimates, 'estimates.importFile'],
    ['!isAdvertReadOnly', (roles) => !isAdvertReadOnly(roles), 'adverts.update'],
  ];
  it.each(predicates)('%s agrees with %s for all 64 role sets', (_name, predicate, operationId) => {
    for (const roles of everyRoleSet) expect(predicate(roles), roles.join(',')).toBe(isAllowed(contract[operationId].access, roles));
  });

  it('the spec §6 roles behind the three rules once spelled twice', () => {
    expect(everyRoleSet.filter(canSearchAudiences).every((roles) => roles.some((role) => ['ADMIN', 'CSM', 'CSM_LEAD'].includes(role)))).toBe(true);
    expect(canSearchAudiences(['SALES', 'CONTENT_CREATOR'])).toBe(false);
    expect(canWriteProjects(['CSM'])).toBe(true);
    expect(canWriteProjects(['SALES'])).toBe(false);
    expect(canImportEstimates(['ADMIN'])).toBe(true);
    expect(canImportEstimates(['CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR', 'CONTENT_CREATOR_LEAD'])).toBe(false);
  });

  it('the Tracking section and the starting voters count show for the roles that may write them', () => {
    for (const roles of everyRoleSet) {
      const allowed = isAllowed(rules.contentAdminFieldWriters, roles);
      expect(advertSections('post', roles).includes('tracking'), roles.join(',')).toBe(allowed);
      expect(advertSectionFields('quiz', 'quiz', roles).includes('quiz.votersCountDefault'), roles.join(',')).toBe(allowed);
    }
  });
});

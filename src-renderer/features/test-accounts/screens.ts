import type { FeatureScreens } from '../../lib/screen-sources';
export const testAccountsScreens = { 'audiences.testAccounts': { load: () => import('./TestAccountsPage') } } satisfies FeatureScreens;

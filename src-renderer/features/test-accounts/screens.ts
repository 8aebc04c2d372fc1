export const testAccountsScreens = { 'audiences.testAccounts': { load: () => import('./TestAccountsPage') } };

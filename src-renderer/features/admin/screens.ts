export const adminScreens = { admin: { load: () => import('./AdminPage') } };

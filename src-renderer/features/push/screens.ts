export const pushScreens = { push: { load: () => import('./PushCreatePage') } };

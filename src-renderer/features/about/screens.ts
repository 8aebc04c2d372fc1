export const aboutScreens = { about: { load: () => import('./AboutPage') } };

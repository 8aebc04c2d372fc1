export const batScreens = { 'adverts.proof': { load: () => import('./BatPage') } };

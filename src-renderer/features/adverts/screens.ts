export const advertsScreens = {
  adverts: { load: () => import('./AdvertsListPage') },
  'adverts.edit': { load: () => import('./AdvertEditPage') },
  'adverts.migration': { load: () => import('./AdvertMigrationPage') },
};

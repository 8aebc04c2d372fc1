import type { FeatureScreens } from '../../lib/screen-sources';
export const advertsScreens = {
  adverts: { load: () => import('./AdvertsListPage') },
  'adverts.edit': { load: () => import('./AdvertEditPage') },
  'adverts.migration': { load: () => import('./AdvertMigrationPage') },
} satisfies FeatureScreens;

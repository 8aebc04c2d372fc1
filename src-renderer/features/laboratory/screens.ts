import type { FeatureScreens } from '../../lib/screen-sources';
export const laboratoryScreens = {
  alphonse: { load: () => import('./AlphonseListPage') },
  'alphonse.project': { load: () => import('./LabProjectPage') },
} satisfies FeatureScreens;

import type { FeatureScreens } from '../../lib/screen-sources';
export const batScreens = { 'adverts.proof': { load: () => import('./BatPage') } } satisfies FeatureScreens;

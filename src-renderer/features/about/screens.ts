import type { FeatureScreens } from '../../lib/screen-sources';
export const aboutScreens = { about: { load: () => import('./AboutPage') } } satisfies FeatureScreens;

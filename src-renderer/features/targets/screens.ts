import type { FeatureScreens } from '../../lib/screen-sources';
export const targetsScreens = { 'projects.targets': { load: () => import('./TargetsPage') } } satisfies FeatureScreens;

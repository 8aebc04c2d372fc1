import type { FeatureScreens } from '../../lib/screen-sources';
export const importsScreens = { imports: { load: () => import('./ImportsPage') } } satisfies FeatureScreens;

import type { FeatureScreens } from '../../lib/screen-sources';
export const adminScreens = { admin: { load: () => import('./AdminPage') } } satisfies FeatureScreens;

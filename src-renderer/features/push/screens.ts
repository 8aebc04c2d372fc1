import type { FeatureScreens } from '../../lib/screen-sources';
export const pushScreens = { push: { load: () => import('./PushCreatePage') } } satisfies FeatureScreens;

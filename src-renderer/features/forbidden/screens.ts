import ForbiddenPage from './ForbiddenPage';
import type { FeatureScreens } from '../../lib/screen-sources';

/** In the main chunk: the guard shows it without waiting for a screen chunk. */
export const forbiddenScreens = { forbidden: { component: ForbiddenPage } } satisfies FeatureScreens;

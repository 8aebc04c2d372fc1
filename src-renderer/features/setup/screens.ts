import SetupPage from './SetupPage';
import WorkplacePage from './WorkplacePage';
import type { FeatureScreens } from '../../lib/screen-sources';

/** In the main chunk, like sign-in: the first screens of a new desktop app (where to work, then the administrator). */
export const setupScreens = { setup: { component: SetupPage }, workplace: { component: WorkplacePage } } satisfies FeatureScreens;

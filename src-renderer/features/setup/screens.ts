import SetupPage from './SetupPage';
import type { FeatureScreens } from '../../lib/screen-sources';

/** In the main chunk, like sign-in: the first screen of a new desktop app. */
export const setupScreens = { setup: { component: SetupPage } } satisfies FeatureScreens;

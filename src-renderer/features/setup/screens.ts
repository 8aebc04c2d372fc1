import SetupPage from './SetupPage';

/** In the main chunk, like sign-in: the first screen of a new desktop app. */
export const setupScreens = { setup: { component: SetupPage } };

import ForbiddenPage from './ForbiddenPage';

/** In the main chunk: the guard shows it without waiting for a screen chunk. */
export const forbiddenScreens = { forbidden: { component: ForbiddenPage } };

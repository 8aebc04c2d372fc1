import { CONFLICT_MESSAGES, CONFLICT_NOTICES } from '../messages/conflicts';
import { DIAGNOSTICS_MESSAGES, DIAGNOSTICS_NOTICES, UPDATE_MESSAGES } from '../messages/diagnostics';
import { access } from '../roles';
import { screen, defineFeature } from './define';

const signedIn = access.authenticated;

/**
 * The shell: the screens every user meets whatever the feature, the external tools of the top bar, and the
 * screens of later issues, declared now with their rule (the guard sends them home until their feature lands and
 * moves them into its own manifest).
 */
export const platformFeature = defineFeature({
  id: 'platform',
  screens: [
    screen({ id: 'forbidden', path: '/403', access: signedIn }),
    // Spec platform.md §2: / shows the same screen as the advert list.
    screen({ id: 'home', path: '/', access: signedIn, component: 'adverts' }),
    screen({ id: 'about', path: '/about', access: signedIn }),
    { kind: 'link', id: 'shortUrl', label: 'Short URL', access: access.anyOf('CSM'), setting: 'shortUrlServiceUrl', position: 60 },
    { kind: 'link', id: 'appCreation', label: "Création d'app", access: signedIn, setting: 'appCreationToolUrl', position: 62 },
  ],
  // The About page's diagnostics, the desktop app's update questions, and what every editor says of conflicts,
  // drafts and an unreachable server.
  messages: [DIAGNOSTICS_MESSAGES, DIAGNOSTICS_NOTICES, UPDATE_MESSAGES, CONFLICT_MESSAGES, CONFLICT_NOTICES],
});

import { AUDIENCE_MESSAGES, AUDIENCE_NOTICES } from '../messages/audiences';
import { GROUP_MESSAGES, GROUP_NOTICES } from '../messages/groups';
import { appUserReaders, audienceReaders, audienceWriters } from '../access-rules';
import { access } from '../roles';
import { screen, defineFeature } from './define';

/** Audiences, their groups and the test accounts. */
export const audiencesFeature = defineFeature({
  id: 'audiences',
  screens: [
    screen({
      id: 'audiences.list',
      path: '/audiences',
      access: audienceReaders,
      nav: { position: 50, menu: 'audiences', label: 'Audiences' },
    }),
    // Spec §2 access guard: the audience editor is for CSM_LEAD or ADMIN only.
    screen({ id: 'audiences.edit', path: '/audiences/:id', access: audienceWriters }),
    screen({
      id: 'audiences.groups',
      path: '/groupes',
      access: access.anyOf('ADMIN'),
      nav: { position: 51, menu: 'audiences', label: 'Groupes' },
    }),
    // The group API is for CSM_LEAD and ADMIN (audience writers); the link to the editor is ADMIN's (spec §6).
    screen({ id: 'audiences.groupEdit', path: '/group/:label/:id', access: audienceWriters }),
    screen({
      id: 'audiences.testAccounts',
      path: '/test-accounts',
      access: access.allOf('CSM', 'CSM_LEAD'),
      nav: { position: 52, menu: 'audiences', label: 'Comptes de test' },
    }),
    // What the page reads (an app user's audiences) is CSM_LEAD's and ADMIN's: the page is theirs too.
    screen({ id: 'audiences.debug', path: '/debug/audiences/:id', access: appUserReaders }),
  ],
  messages: [AUDIENCE_MESSAGES, AUDIENCE_NOTICES, GROUP_MESSAGES, GROUP_NOTICES],
});

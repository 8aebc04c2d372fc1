import { AUDIENCE_MESSAGES, AUDIENCE_NOTICES } from '../messages/audiences';
import { GROUP_MESSAGES, GROUP_NOTICES } from '../messages/groups';
import { access } from '../roles';
import { MENUS, screen, defineFeature } from './define';

/** Audiences, their groups and the test accounts. */
export const audiencesFeature = defineFeature({
  id: 'audiences',
  screens: [
    screen({
      id: 'audiences.list',
      path: '/audiences',
      access: access.authenticated,
      available: true,
      nav: { position: 50, menu: 'audiences', label: 'Audiences', access: MENUS.audiences.access },
    }),
    // Spec §2 access guard: the audience editor is for CSM_LEAD or ADMIN only.
    screen({ id: 'audiences.edit', path: '/audiences/:id', access: access.anyOf('CSM_LEAD'), available: true }),
    screen({
      id: 'audiences.groups',
      path: '/groupes',
      access: access.anyOf('ADMIN'),
      available: true,
      nav: { position: 51, menu: 'audiences', label: 'Groupes' },
    }),
    // The group API is for CSM_LEAD and ADMIN (audience writers); the link to the editor is ADMIN's (spec §6).
    screen({ id: 'audiences.groupEdit', path: '/group/:label/:id', access: access.anyOf('CSM_LEAD'), available: true }),
    screen({
      id: 'audiences.testAccounts',
      path: '/test-accounts',
      access: access.allOf('CSM', 'CSM_LEAD'),
      available: true,
      nav: { position: 52, menu: 'audiences', label: 'Comptes de test' },
    }),
    screen({ id: 'audiences.debug', path: '/debug/audiences/:id', access: access.authenticated, available: true }),
  ],
  messages: [AUDIENCE_MESSAGES, AUDIENCE_NOTICES, GROUP_MESSAGES, GROUP_NOTICES],
});

import { PROJECT_MESSAGES, PROJECT_NOTICES } from '../messages/projects';
import { TARGET_LIST_HEADERS } from '../messages/targets';
import { access } from '../roles';
import { MENUS, screen, defineFeature } from './define';

export const projectsFeature = defineFeature({
  id: 'projects',
  screens: [
    screen({
      id: 'projects.list',
      path: '/projects',
      access: access.authenticated,
      available: true,
      nav: { position: 10, menu: 'projects', label: 'Projets', access: MENUS.projects.access },
    }),
    screen({ id: 'projects.edit', path: '/project/edit/:id', access: MENUS.projects.access, available: true }),
    screen({
      id: 'projects.targets',
      path: '/targets',
      access: MENUS.projects.access,
      available: true,
      nav: { position: 11, menu: 'projects', label: 'Actions', access: MENUS.projects.access },
    }),
    // 'Pilotage inventaire' is in CSM_LEAD's menu only (this-role, no ADMIN bypass); ADMIN still opens the page
    // (spec: ADMIN sees its export, import and availability search).
    screen({
      id: 'projects.inventory',
      path: '/inventory',
      access: access.authenticated,
      available: false,
      nav: { position: 12, menu: 'projects', label: 'Pilotage inventaire', access: access.thisRole('CSM_LEAD') },
    }),
  ],
  messages: [PROJECT_MESSAGES, PROJECT_NOTICES, TARGET_LIST_HEADERS],
});

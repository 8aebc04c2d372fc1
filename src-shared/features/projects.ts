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
  ],
  messages: [PROJECT_MESSAGES, PROJECT_NOTICES, TARGET_LIST_HEADERS],
});

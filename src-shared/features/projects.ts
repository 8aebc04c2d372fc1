import { PROJECT_MESSAGES, PROJECT_NOTICES } from '../messages/projects';
import { TARGET_LIST_HEADERS } from '../messages/targets';
import { projectReaders, projectWriters } from '../access-rules';
import { screen, defineFeature } from './define';

export const projectsFeature = defineFeature({
  id: 'projects',
  screens: [
    screen({
      id: 'projects.list',
      path: '/projects',
      access: projectReaders,
      nav: { position: 10, menu: 'projects', label: 'Projets' },
    }),
    screen({
      id: 'projects.edit',
      path: '/project/edit/:id',
      access: projectReaders,
      stricter: [{ path: '/project/edit/new', access: projectWriters }],
    }),
    screen({
      id: 'projects.targets',
      path: '/targets',
      access: projectReaders,
      nav: { position: 11, menu: 'projects', label: 'Actions' },
    }),
  ],
  messages: [PROJECT_MESSAGES, PROJECT_NOTICES, TARGET_LIST_HEADERS],
});

import { ADMIN_MESSAGES } from '../messages/admin';
import { access } from '../roles';
import { screen, defineFeature } from './define';

export const adminFeature = defineFeature({
  id: 'admin',
  screens: [screen({ id: 'admin', path: '/admin', access: access.anyOf('ADMIN'), nav: { position: 80, label: 'Admin' } })],
  messages: [ADMIN_MESSAGES],
});

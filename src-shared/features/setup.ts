import { SETUP_MESSAGES } from '../messages/setup';
import { access } from '../roles';
import { screen, defineFeature } from './define';

export const setupFeature = defineFeature({
  id: 'setup',
  // First start of the desktop app: the administrator is created here (beyond the spec, security review).
  screens: [screen({ id: 'setup', path: '/setup', access: access.public })],
  messages: [SETUP_MESSAGES],
});

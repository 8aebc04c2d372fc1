import { SETUP_MESSAGES } from '../messages/setup';
import { WORKPLACE_MESSAGES } from '../messages/workplace';
import { access } from '../roles';
import { screen, defineFeature } from './define';

export const setupFeature = defineFeature({
  id: 'setup',
  // First start of the desktop app: the administrator is created here (beyond the spec, security review).
  // Before it, where to work: the team's server or this computer (« Changer de serveur » comes back here).
  screens: [screen({ id: 'setup', path: '/setup', access: access.public }), screen({ id: 'workplace', path: '/workplace', access: access.public })],
  messages: [SETUP_MESSAGES, WORKPLACE_MESSAGES],
});

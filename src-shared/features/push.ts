import { PUSH_MESSAGES, PUSH_NOTICES } from '../messages/push';
import { access } from '../roles';
import { defineFeature, screen } from './define';

/** Push campaigns (platform.md §2 "Push-notification page"; docs/push.md): the menu entry is CONTENT_CREATOR_LEAD's. */
export const pushFeature = defineFeature({
  id: 'push',
  screens: [
    screen({
      id: 'push',
      path: '/push/create',
      access: access.anyOf('CONTENT_CREATOR_LEAD'),
      nav: { position: 40, label: PUSH_MESSAGES.menu, access: access.anyOf('CONTENT_CREATOR_LEAD') },
    }),
  ],
  messages: [PUSH_MESSAGES, PUSH_NOTICES],
});

import { BAT_MESSAGES, BAT_NOTICES } from '../messages/bat';
import { access } from '../roles';
import { SCREENSHOT_FORMATS } from '../rules/preview';
import { screen, defineFeature } from './define';

/** Client proofs (BAT) of an advert. */
export const batFeature = defineFeature({
  id: 'bat',
  screens: [screen({ id: 'adverts.proof', path: '/advert/bat/:advertId', access: access.authenticated })],
  messages: [BAT_MESSAGES, BAT_NOTICES],
  uploads: { 'bat.uploadScreenshot': SCREENSHOT_FORMATS, 'bat.freezeVersion': ['pdf'] },
});

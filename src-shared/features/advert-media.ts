import { ADVERT_MEDIA_MESSAGES, ADVERT_MEDIA_NOTICES } from '../messages/advert-media';
import { ADVERT_ATTACHMENT_FORMATS, STORY_ILLUSTRATION_FORMATS, STORY_IMAGE_FORMATS } from '../rules/storage';
import { defineFeature } from './define';

export const advertMediaFeature = defineFeature({
  id: 'advert-media',
  messages: [ADVERT_MEDIA_MESSAGES, ADVERT_MEDIA_NOTICES],
  uploads: {
    'adverts.uploadAttachment': ADVERT_ATTACHMENT_FORMATS,
    'stories.uploadLogo': STORY_IMAGE_FORMATS,
    'stories.uploadScreenLogo': STORY_IMAGE_FORMATS,
    'stories.uploadScreenIllustration': STORY_ILLUSTRATION_FORMATS,
  },
});

import { ADVERT_SCREEN_MESSAGES, ADVERT_SCREEN_NOTICES } from '../messages/advert-screens';
import { ADVERT_MESSAGES, AUTOPUBLISH_MAILS } from '../messages/adverts';
import { CONTENT_FIELD_MESSAGES } from '../messages/content-fields';
import { PREVIEW_MESSAGES, PREVIEW_NOTICES } from '../messages/previews';
import { STORY_MESSAGES, STORY_NOTICES } from '../messages/story';
import { UNSAVED_CHANGES_MESSAGES } from '../messages/unsaved-changes';
import { contentReaders, contentWriters } from '../access-rules';
import { access } from '../roles';
import { screen, defineFeature } from './define';

const signedIn = access.authenticated;

/** Adverts and their content editor (stories, previews, quizzes), shared with articles. */
export const advertsFeature = defineFeature({
  id: 'adverts',
  screens: [
    screen({
      id: 'adverts',
      path: '/adverts',
      access: signedIn,
      landing: true,
      nav: { position: 20, label: 'Publicités', access: access.anyOf('CSM', 'CSM_LEAD') },
    }),
    screen({
      id: 'adverts.edit',
      path: '/adverts/edit/:id',
      access: contentReaders,
      stricter: [{ path: '/adverts/edit/new', access: contentWriters }],
    }),
    // Those who may run a migration (the contract's adverts.migrationRun: SALES without ADMIN refused), not readers.
    screen({ id: 'adverts.migration', path: '/adverts/migration', access: access.notRole('SALES') }),
  ],
  messages: [
    ADVERT_MESSAGES,
    AUTOPUBLISH_MAILS,
    ADVERT_SCREEN_MESSAGES,
    ADVERT_SCREEN_NOTICES,
    CONTENT_FIELD_MESSAGES,
    PREVIEW_MESSAGES,
    PREVIEW_NOTICES,
    STORY_MESSAGES,
    STORY_NOTICES,
    UNSAVED_CHANGES_MESSAGES,
  ],
});

import { STORAGE_MESSAGES, STORAGE_NOTICES } from '../messages/storage';
import { access } from '../roles';
import { DOCUMENT_FORMATS, MEDIA_FORMATS } from '../rules/storage';
import { screen, defineFeature } from './define';

/** The storage browser (CDN Docs) and the media library. */
export const storageFeature = defineFeature({
  id: 'storage',
  screens: [
    screen({
      id: 'cdnDocs',
      path: '/document/upload',
      access: access.anyOf('CSM', 'CONTENT_CREATOR'),
      nav: { position: 61, label: 'CDN Docs' },
    }),
  ],
  messages: [STORAGE_MESSAGES, STORAGE_NOTICES],
  uploads: { 'storage.uploadDocument': DOCUMENT_FORMATS, 'library.upload': MEDIA_FORMATS },
});

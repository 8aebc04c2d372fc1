import { contentReaders, contentWriters } from '../access-rules';
import { access } from '../roles';
import { screen, defineFeature } from './define';

/** Articles share the adverts' content editor and texts (src-shared/features/adverts.ts). */
export const articlesFeature = defineFeature({
  id: 'articles',
  screens: [
    screen({
      id: 'articles',
      path: '/articles',
      access: access.authenticated,
      nav: { position: 30, label: 'Contenu', access: access.anyOf('CONTENT_CREATOR') },
    }),
    screen({
      id: 'articles.edit',
      path: '/articles/edit/:id',
      access: contentReaders,
      stricter: [{ path: '/articles/edit/new', access: contentWriters }],
    }),
  ],
});

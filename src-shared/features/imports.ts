import { IMPORT_MESSAGES, IMPORT_NOTICES } from '../messages/imports';
import { access } from '../roles';
import { CSV_FORMATS } from '../rules/imports';
import { screen, defineFeature } from './define';

/** The CSV list import (docs/imports.md): the audience managers enrich the population from a CSV file. */
export const importsFeature = defineFeature({
  id: 'imports',
  screens: [
    screen({
      id: 'imports',
      path: '/imports',
      access: access.anyOf('CSM', 'CSM_LEAD'),
      nav: { position: 53, menu: 'audiences', label: 'Import CSV' },
    }),
  ],
  messages: [IMPORT_MESSAGES, IMPORT_NOTICES],
  uploads: { 'imports.upload': CSV_FORMATS },
});

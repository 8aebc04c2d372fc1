import { defineFeature } from '../../feature-wiring';
import { metaHandlers } from './handlers/meta';

/** Reference data for the forms (professions, specialties, audiences, CSM accounts). */
export const metaFeature = defineFeature({
  name: 'meta',
  needs: [],
  provides: [],
  build: (context) => ({ handlers: metaHandlers(context) }),
});

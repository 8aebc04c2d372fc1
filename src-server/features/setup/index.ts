import { defineFeature } from '../../feature-wiring';
import { setupHandlers } from './handlers/setup';

/** First start of an installation without accounts: the administrator is created by the person at the desk. */
export const setupFeature = defineFeature({
  name: 'setup',
  needs: [],
  provides: [],
  build: (context) => ({ handlers: setupHandlers(context) }),
});

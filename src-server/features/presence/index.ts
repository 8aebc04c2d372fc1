import { defineFeature } from '../../feature-wiring';
import { presenceHandlers } from './handlers/presence';

/** Who else has a record open in an editor, relayed on the job-events stream (nothing stored). */
export const presenceFeature = defineFeature({
  name: 'presence',
  needs: [],
  provides: [],
  build: (context) => ({ handlers: presenceHandlers(context) }),
});

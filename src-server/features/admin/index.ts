import { defineFeature } from '../../feature-wiring';
import { adminHandlers } from './handlers/accounts';

/** Account administration (ADMIN only). It has no services of its own yet. */
export const adminFeature = defineFeature({
  name: 'admin',
  needs: [],
  provides: [],
  build: (context) => ({ handlers: adminHandlers(context) }),
});

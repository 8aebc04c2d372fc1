import { defineFeature } from './define';

/** Reference data (GET /meta): operations only, no screen or text of its own. */
export const metaFeature = defineFeature({ id: 'meta' });

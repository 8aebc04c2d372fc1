import { defineFeature } from '../../feature-wiring';
import { estimateSourceFromEnvironment } from './estimates';
import { projectHandlers } from './handlers';

/**
 * Projects and targets (docs/projects.md). Estimates come from the invoicing tool's API when ESTIMATES_API_URL is set,
 * else from the quotes imported into the database. Its demo (sample projects, their quotes, the demo adverts in
 * their actions) is seeded by src-server/demo.
 */
export const projectsFeature = defineFeature({
  name: 'projects',
  needs: [],
  provides: [],
  build: (context) => ({ handlers: projectHandlers(context, estimateSourceFromEnvironment(context.db)) }),
});

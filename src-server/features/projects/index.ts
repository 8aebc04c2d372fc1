import type { ServerContext } from '../../context';
import { defineFeature } from '../../feature-wiring';
import { clearMissingDemoAdverts, linkDemoAdverts, seedEstimateDemo, seedProjectDemo } from './demo';
import { estimateSourceFromEnvironment } from './estimates';
import { projectHandlers, type ProjectHandlers } from './handlers';

/**
 * Projects and targets (docs/projects.md). Estimates come from the invoicing tool's API when ESTIMATES_API_URL is set,
 * else from the quotes imported into the database. The demo workspace (the same switch as the audience demo)
 * gets sample projects once; their actions get the demo adverts once both are there (whichever seeding ends last
 * links them), and an older demo's actions naming adverts that never existed lose those ids. Its quotes
 * (DEV-2026-0001…0004) are stored once, while none is.
 */
export const projectsFeature = defineFeature({
  name: 'projects',
  needs: [],
  provides: ['linkDemoAdverts'],
  build: async (context) => ({ handlers: await projectHandlersOf(context), provides: { linkDemoAdverts: () => linkDemoAdverts(context.db) } }),
});

async function projectHandlersOf(context: ServerContext): Promise<ProjectHandlers> {
  if (context.config.seedAudienceDemo) {
    await seedProjectDemo(context.db, context.clock.now())
      .then(() => clearMissingDemoAdverts(context.db))
      // Its quotes too, so that a 'DEV-2026-000…' number resolves before any import (docs/projects.md, Quotes).
      .then(() => seedEstimateDemo(context.db))
      .catch((error) => context.logger.error({ err: error }, 'project demo seeding failed'));
  }
  return projectHandlers(context, estimateSourceFromEnvironment(context.db));
}

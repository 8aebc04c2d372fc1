import type { ServerContext } from '../../context';
import { seedProjectDemo } from './demo';
import { estimateSourceFromEnvironment } from './estimates';
import { projectHandlers, type ProjectHandlers } from './handlers';

/**
 * Projects and targets (issue 12). Estimates come from the invoicing tool's API when ESTIMATES_API_URL is set,
 * else from the quotes imported into the database. The demo workspace (the same switch as the audience demo)
 * gets sample projects once.
 */
export async function projectsFeature(context: ServerContext): Promise<ProjectHandlers> {
  if (context.config.seedAudienceDemo) {
    await seedProjectDemo(context.db, context.clock.now()).catch((error) => context.logger.error({ err: error }, 'project demo seeding failed'));
  }
  return projectHandlers(context, estimateSourceFromEnvironment(context.db));
}

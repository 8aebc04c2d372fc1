import type { ServerContext } from '../../context';
import { AudienceEngine } from './engine/engine';
import { audienceHandlers, type AudienceHandlers } from './handlers';

/**
 * Audiences, groups and the app-user population (issue 8). Builds the audience engine from the database before
 * the server answers anything, then keeps it current: its own writes after their commit, other instances' by
 * following the database (PostgreSQL).
 */
export async function audiencesFeature(context: ServerContext): Promise<AudienceHandlers> {
  const engine = new AudienceEngine(context.db, context.dbKind, context.logger);
  const built = await engine.rebuild();
  context.logger.info({ ms: Math.round(built.ms), users: built.users }, 'audience engine built');
  engine.follow(context.config.populationFollowMs);
  context.onClose(() => engine.stop());
  return audienceHandlers(context, engine);
}

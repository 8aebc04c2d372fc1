import type { ServerContext } from '../../context';
import { featureServices } from '../../feature-services';
import { seedAudienceDemo } from './demo';
import { AudienceEngine } from './engine/engine';
import { populationSelection } from './push-population';
import { mergeInShortTransactions } from './short-merge';
import { mergeStagedUsers, resolveStageByEmail } from './staged-merge';
import { audienceHandlers, type AudienceHandlers, type DefinitionWriteHooks } from './handlers';

/**
 * Audiences, groups and the app-user population (issue 8). Builds the audience engine from the database before
 * the server answers anything, then keeps it current: its own writes after their commit, other instances' by
 * following the database (PostgreSQL).
 */
export async function audiencesFeature(context: ServerContext, hooks?: DefinitionWriteHooks): Promise<AudienceHandlers> {
  const engine = new AudienceEngine(context.db, context.dbKind, context.logger);
  const built = await engine.rebuild();
  context.logger.info({ ms: Math.round(built.ms), users: built.users }, 'audience engine built');
  engine.follow(context.config.populationFollowMs, context.config.populationChangesRetentionMs);
  featureServices(context).audienceMembership = engine;
  featureServices(context).population = populationSelection(context, engine);
  featureServices(context).populationVersion = () => engine.attributesVersion;
  featureServices(context).populationImport = {
    resolveByEmail: (stage) => resolveStageByEmail(context.db, stage),
    mergeStaged: (stage, onProgress, undo) =>
      undo ? mergeInShortTransactions(context.db, engine, stage, undo, { onProgress }) : mergeStagedUsers(context.db, engine, stage, { onProgress }),
  };
  const seeding = context.config.seedAudienceDemo ? seedDemoInBackground(context, engine) : undefined;
  if (seeding) featureServices(context).demoPopulation = seeding.done.then(() => !seeding.abort.signal.aborted);
  context.onClose(async () => {
    seeding?.abort.abort();
    await seeding?.done;
    await engine.stop();
  });
  return audienceHandlers(context, engine, hooks);
}

/**
 * The demo population is written while the server already answers (a first demo start stays fast: seeding takes
 * tens of seconds on PGlite); the engine is rebuilt from the database once it is there.
 */
function seedDemoInBackground(context: ServerContext, engine: AudienceEngine) {
  const abort = new AbortController();
  const started = performance.now();
  const wanted = context.config.seedAudienceDemo;
  const done = seedAudienceDemo(context.db, abort.signal, typeof wanted === 'object' ? wanted : undefined)
    .then(async (seeded) => {
      if (!seeded) return;
      await engine.rebuild();
      context.logger.info({ ms: Math.round(performance.now() - started) }, 'demo population seeded');
    })
    .catch((error) => {
      if (!abort.signal.aborted) context.logger.error({ err: error }, 'demo population seeding failed');
    });
  return { abort, done };
}

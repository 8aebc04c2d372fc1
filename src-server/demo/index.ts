import type { ServerContext } from '../context';
import type { FeatureServices } from '../feature-services';
import { seedAdvertDemo } from '../features/adverts/demo';
import { seedArticleAudienceDemo, seedAudienceDemo } from '../features/audiences/demo';
import { seedBatDemo } from '../features/bat/demo';
import { seedImportsDemo } from '../features/imports/demo';
import { seedInventoryDemo } from '../features/inventory/demo';
import { matchLaboratoryDemo, seedLaboratoryDemo } from '../features/laboratory/demo';
import { clearMissingDemoAdverts, linkDemoAdverts, seedEstimateDemo, seedProjectDemo } from '../features/projects/demo';
import { pushJobOf } from '../features/push';
import { seedPushDemo } from '../features/push/demo';
import { seedStorageDemo } from '../features/storage/demo';

type DemoServices = Pick<FeatureServices, 'rebuildAudienceEngine' | 'population' | 'articleAudience'>;

/**
 * The demo workspace, seeded in one place (config.seedStorageDemo: documents; config.seedAudienceDemo: the whole
 * workspace). Each feature's seeder (features/<feature>/demo.ts) writes its part once, on a workspace without it;
 * this orchestrator calls them in the order their data needs. `start` is called before the features are built, so
 * that the seeding stops (server closing) before any feature does; `seed` once they are built.
 */
export function demoWorkspace(context: ServerContext) {
  const { config, logger } = context;
  const abort = new AbortController();
  const running: Promise<unknown>[] = [];
  context.onClose(async () => {
    abort.abort();
    await Promise.all(running);
  });
  const failed =
    (what: string, level: 'warn' | 'error' = 'error') =>
    (error: unknown) => {
      if (!abort.signal.aborted) logger[level]({ err: error }, `${what} seeding failed`);
      return false;
    };

  return {
    /** Seeds what the server shows from its first answer, then starts the rest in the background. */
    async seed(services: DemoServices): Promise<void> {
      if (config.seedStorageDemo) {
        await seedStorageDemo(context.storage).catch(failed('demo documents', 'warn'));
        await seedImportsDemo(context.storage).catch(failed('demo CSV list', 'warn'));
      }
      if (config.seedAudienceDemo || config.seedStorageDemo) {
        await seedInventoryDemo(context.db, context.clock.now()).catch(failed('inventory demo'));
      }
      if (!config.seedAudienceDemo) return;
      await seedProjects(context).catch(failed('project demo'));
      // A workspace seeded before the proofs came gets its proof at start; a new one once its adverts exist.
      running.push(seedBatDemo(context).catch(failed('demo proof')));
      const laboratory = seedLaboratoryDemo(context).catch(failed('laboratory demo'));
      running.push(seedInBackground(context, services, abort.signal, failed, laboratory));
    },
  };
}

/** Sample projects and their quotes (DEV-2026-0001…0004, so that such a number resolves before any import). */
async function seedProjects(context: ServerContext): Promise<void> {
  await seedProjectDemo(context.db, context.clock.now());
  // An older demo's actions naming adverts that never existed lose those ids.
  await clearMissingDemoAdverts(context.db);
  await seedEstimateDemo(context.db);
}

/**
 * The app-user population (20,000 users by default: about a minute on PGlite, in small statements while the server
 * answers), then what needs it: the demo adverts (their audiences), which the projects' actions take and one of
 * which gets a proof; the push campaigns of the past week; the laboratory panel's matching (`laboratory`: the
 * project seedLaboratoryDemo made, if any). Nothing after it waits for the population by itself.
 */
async function seedInBackground(
  context: ServerContext,
  services: DemoServices,
  signal: AbortSignal,
  failed: (what: string) => (error: unknown) => boolean,
  laboratory: Promise<number | boolean | undefined>,
): Promise<void> {
  const { config, logger } = context;
  const started = performance.now();
  const size = typeof config.seedAudienceDemo === 'object' ? config.seedAudienceDemo : undefined;
  const population = await seedAudienceDemo(context.db, signal, size)
    .then(async (seeded) => {
      if (!seeded) return true;
      await services.rebuildAudienceEngine();
      logger.info({ ms: Math.round(performance.now() - started) }, 'demo population seeded');
      return true;
    })
    .catch(failed('demo population'));
  if (signal.aborted || !population) return;
  const labProject = await laboratory;
  await Promise.all([
    seedAdverts(context, services, signal).catch(failed('demo adverts')),
    seedPush(context, services).catch(failed('push demo')),
    typeof labProject === 'number' && matchLaboratoryDemo(context, labProject).catch(failed('laboratory demo')),
  ]);
}

/** Their pictures go to the server's storage, where uploads go, so that both hosts serve them from the page's origin. */
async function seedAdverts(context: ServerContext, services: DemoServices, signal: AbortSignal): Promise<void> {
  const media = {
    storage: context.storage,
    publicUrl: context.config.storage?.publicUrl,
    warn: (error: unknown) => context.logger.warn({ err: error }, 'demo pictures not stored: the demo adverts have none'),
  };
  if (!(await seedAdvertDemo(context.db, context.clock, signal, media))) return;
  // Each demo article's own audience, with its Area (§5), as the editor would save it.
  await seedArticleAudienceDemo(context.db, services.articleAudience);
  context.logger.info('demo adverts and articles seeded');
  await linkDemoAdverts(context.db);
  await seedBatDemo(context);
}

async function seedPush(context: ServerContext, services: DemoServices): Promise<void> {
  const job = pushJobOf(context);
  if (!job) return;
  const seeded = await seedPushDemo(context, services.population, job);
  if (seeded) context.logger.info({ campaigns: seeded }, 'demo push campaigns seeded');
}

import { setTimeout as sleep } from 'node:timers/promises';
import { READINESS_MESSAGES } from '@shared/messages/api';
import type { ServerContext } from '../../context';
import type { AudienceHistoryHooks, PopulationImport } from '../../feature-services';
import { defineFeature } from '../../feature-wiring';
import { AudienceEngine } from './engine/engine';
import { populationSelection } from './push-population';
import { mergeInShortTransactions, undoPopulationMerge } from './short-merge';
import { mergeStagedUsers, resolveStageByEmail } from './staged-merge';
import { audienceDebugHandlers, audienceHandlers } from './handlers';

/**
 * Audiences, groups and the app-user population (docs/audiences.md). Builds the audience engine from the database before
 * the server answers anything, then keeps it current: its own writes after their commit, other instances' by
 * following the database (PostgreSQL). Its writes of definitions are recorded by the audience history.
 */
export const audiencesFeature = defineFeature({
  name: 'audiences',
  needs: ['audienceHistory'],
  provides: ['audienceMembership', 'population', 'populationVersion', 'populationImport', 'articleAudience', 'rebuildAudienceEngine'],
  build: (context, { audienceHistory }) => buildAudiences(context, audienceHistory),
});

/**
 * The audience debug page's operation, built once the adverts feature is (it lists what a user would be served),
 * which itself needs the audience engine: a node of its own, so that the two features do not need each other.
 */
export const audienceDebugFeature = defineFeature({
  name: 'audience-debug',
  needs: ['audienceMembership', 'advertsForUser'],
  provides: [],
  build: (context, needs) => ({ handlers: audienceDebugHandlers(context, needs) }),
});

async function buildAudiences(context: ServerContext, history: AudienceHistoryHooks) {
  // PGlite: a list import killed mid-merge left chunks committed; they are undone before the engine reads the users.
  if (context.dbKind !== 'postgresql') {
    const undone = await undoPopulationMerge(context.db);
    if (undone) context.logger.warn({ users: undone }, 'population: an interrupted list import undone');
  }
  const engine = new AudienceEngine(context.db, context.dbKind, context.logger);
  const closing = new AbortController();
  const firstBuild = buildEngine(context, engine, closing.signal);
  // A team server listens first and builds meanwhile (GET /ready says so); the others answer once it is built.
  if (context.config.audienceEngineInBackground) context.readiness.startup(firstBuild);
  else await firstBuild;
  registerEngineProbes(context, engine);
  context.onClose(async () => {
    closing.abort();
    await firstBuild.catch(() => undefined);
    await engine.stop();
  });
  context.onStopped(() => saveIndexFile(context, engine));
  const { handlers, articleAudience } = audienceHandlers(context, engine, history);
  return {
    handlers: history.wrap(handlers),
    provides: {
      audienceMembership: engine,
      population: populationSelection(context, engine),
      populationVersion: () => engine.attributesVersion,
      populationImport: {
        resolveByEmail: (stage) => resolveStageByEmail(context.db, stage),
        mergeStaged: (stage, onProgress, short) =>
          short
            ? mergeInShortTransactions(context.db, engine, stage, short, { onProgress })
            : mergeStagedUsers(context.db, engine, stage, { onProgress }),
      } satisfies PopulationImport,
      articleAudience,
      rebuildAudienceEngine: () => engine.rebuild(),
    },
  };
}

/**
 * The first build, then following other instances. In the background (a team server) a failed build is tried again
 * every 5 s until it succeeds (the database may come up after the server); otherwise the start fails with it.
 */
async function buildEngine(context: ServerContext, engine: AudienceEngine, closing: AbortSignal): Promise<void> {
  for (;;) {
    if (closing.aborted) return;
    try {
      const restored = await restoreIndexFile(context, engine);
      const built = restored ?? (await engine.rebuild());
      context.logger.info(
        { ms: Math.round(built.ms), users: built.users },
        restored ? 'audience engine read from its file' : 'audience engine built',
      );
      break;
    } catch (error) {
      if (!context.config.audienceEngineInBackground) throw error;
      context.logger.error({ err: error }, 'audience engine: first build failed; trying again in 5 s');
      await sleep(5000, undefined, { signal: closing }).catch(() => undefined);
    }
  }
  engine.follow(context.config.populationFollowMs, context.config.populationChangesRetentionMs);
}

/** The index file the last clean close wrote, when it is still current (PGlite with a data folder; engine.restoreFrom). */
async function restoreIndexFile(context: ServerContext, engine: AudienceEngine) {
  const path = context.config.audienceIndexFile;
  if (!path) return undefined;
  try {
    return await engine.restoreFrom(path);
  } catch (error) {
    context.logger.warn({ err: error, path }, 'audience engine: its file could not be read; building from the database');
    return undefined;
  }
}

/**
 * Keeps the index for the next start (PGlite: a rebuild at a million users takes tens of seconds on one core). Runs
 * once every feature has stopped (context.onStopped), so nothing writes after it.
 */
async function saveIndexFile(context: ServerContext, engine: AudienceEngine): Promise<void> {
  const path = context.config.audienceIndexFile;
  if (!path) return;
  const started = performance.now();
  try {
    const bytes = await engine.saveTo(path);
    if (bytes) context.logger.info({ ms: Math.round(performance.now() - started), bytes, path }, 'audience engine written to its file');
  } catch (error) {
    context.logger.warn({ err: error, path }, 'audience engine: its file could not be written; the next start builds it');
  }
}

/** Following further behind than this makes the instance not ready: its audience answers would be stale. */
const MAX_FOLLOW_LAG_MS = 30_000;

/** GET /ready's audience check and the engine's metrics (docs/operations.md, "Monitor"). */
function registerEngineProbes(context: ServerContext, engine: AudienceEngine): void {
  context.readiness.check('audiences', () => {
    const { built, followLagMs } = engine.status;
    if (!built) return { ok: false, errorMsg: READINESS_MESSAGES.audiencesBuilding, reason: 'audience engine: first build running' };
    if (followLagMs !== undefined && followLagMs > MAX_FOLLOW_LAG_MS) {
      return {
        ok: false,
        errorMsg: READINESS_MESSAGES.audiencesNotFollowing,
        reason: `audience engine: last followed ${Math.round(followLagMs / 1000)} s ago`,
      };
    }
    return { ok: true };
  });
  const { metrics } = context;
  metrics.gauge('backoffice_audience_users', 'App users in the audience engine.', () => engine.index.userCount);
  metrics.gauge('backoffice_audience_bitmaps_bytes', "Bytes held by the audience engine's bitmaps.", () => engine.index.bytes());
  metrics.gauge(
    'backoffice_audience_follow_lag_seconds',
    "Time since the audience engine last read other instances' writes (PostgreSQL; 0 on PGlite).",
    () => (engine.status.followLagMs ?? 0) / 1000,
  );
}

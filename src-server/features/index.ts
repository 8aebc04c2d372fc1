import type { ServerContext } from '../context';
import type { Handlers } from '../operations';
import { adminFeature } from './admin';
import { advertMediaFeature } from './advert-media';
import { audienceHistoryFeature } from './audience-history';
import { advertsFeature } from './adverts';
import { audiencesFeature } from './audiences';
import { authFeature } from './auth';
import { batFeature } from './bat';
import { laboratoryFeature } from './laboratory';
import { importsFeature } from './imports';
import { inventoryFeature } from './inventory';
import { metaFeature } from './meta';
import { projectsFeature } from './projects';
import { presenceFeature } from './presence';
import { pushFeature } from './push';
import { setupFeature } from './setup';
import { storageFeature } from './storage';

/**
 * The server's feature registry: one line per feature. Each feature module builds its own services and returns
 * the handlers of its contract operations; the `Handlers` type makes a missing operation a compile error.
 * Features never import each other's folders (shared server code lives in src-server/accounts/ and the like).
 */
export async function buildHandlers(context: ServerContext): Promise<Handlers> {
  const audienceHistory = audienceHistoryFeature(context);
  return {
    ...(await authFeature(context)),
    ...(await adminFeature(context)),
    ...(await metaFeature(context)),
    ...(await setupFeature(context)),
    ...audienceHistory.wrap(await audiencesFeature(context, audienceHistory.hooks)),
    ...audienceHistory.handlers,
    ...(await storageFeature(context)),
    ...(await advertsFeature(context)),
    ...advertMediaFeature(context),
    ...(await projectsFeature(context)),
    ...(await batFeature(context)),
    ...(await laboratoryFeature(context)),
    ...(await importsFeature(context)),
    ...(await inventoryFeature(context)),
    ...(await pushFeature(context)),
    ...presenceFeature(context),
  };
}

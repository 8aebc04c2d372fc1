import type { ServerContext } from '../context';
import type { Handlers } from '../operations';
import { adminFeature } from './admin';
import { audiencesFeature } from './audiences';
import { authFeature } from './auth';
import { metaFeature } from './meta';
import { projectsFeature } from './projects';
import { setupFeature } from './setup';

/**
 * The server's feature registry: one line per feature. Each feature module builds its own services and returns
 * the handlers of its contract operations; the `Handlers` type makes a missing operation a compile error.
 * Features never import each other's folders (shared server code lives in src-server/accounts/ and the like).
 */
export async function buildHandlers(context: ServerContext): Promise<Handlers> {
  return {
    ...(await authFeature(context)),
    ...(await adminFeature(context)),
    ...(await metaFeature(context)),
    ...(await setupFeature(context)),
    ...(await audiencesFeature(context)),
    ...(await projectsFeature(context)),
  };
}

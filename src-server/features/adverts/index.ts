import type { Advert } from '@shared/contract/adverts';
import type { ServerContext } from '../../context';
import { featureServices } from '../../feature-services';
import { startAutopublish } from './autopublish';
import { contentService } from './content';
import { decisioningService } from './decisioning';
import { seedAdvertDemo } from './demo';
import { advertHandlers } from './handlers/adverts';
import { articleHandlers } from './handlers/articles';
import { autopublishHandlers } from './handlers/autopublish';
import { decisioningHandlers } from './handlers/decisioning';
import { funnelHandlers } from './handlers/funnels';
import { storyHandlers } from './handlers/stories';
import { urlHandlers } from './handlers/url';
import { urlParser } from './url-parse';

/**
 * Adverts and articles (docs/content.md): lists, the editors' calls, publication and campaigns, funnels, stories,
 * history; decisioning on the audience engine; the autopublish job; URL pre-fill.
 */
export async function advertsFeature(context: ServerContext) {
  const content = contentService(context);
  const membership = featureServices(context).audienceMembership;
  if (!membership) throw new Error('the audiences feature is not built');
  const decisioning = decisioningService(context, membership);
  const autopublish = startAutopublish(context);
  const urls = urlParser({
    allowPrivate: context.config.urlParseAllowPrivate ?? process.env.BACKOFFICE_URL_PARSE_ALLOW_PRIVATE === 'true',
    timeoutMs: context.config.urlParseTimeoutMs,
  });
  context.onClose(() => urls.close());
  // The audience debug page lists what the user would be served.
  featureServices(context).advertsForUser = (userId) => decisioning.forDebug(userId);
  // Media uploads (advert-media feature) set the advert's fields through the same writes.
  featureServices(context).advertWrites = {
    load: (id) => content.load('advert', id) as Promise<Advert>,
    change: (id, account, change) => content.modify('advert', id, account, 'update', async (current) => ({ next: change(current as Advert) })),
  };
  if (context.config.seedAudienceDemo) seedDemoInBackground(context);

  const articleAudience = () => {
    const service = featureServices(context).articleAudience;
    if (!service) throw new Error('the audiences feature is not built');
    return service;
  };
  return {
    ...advertHandlers(context, content),
    ...articleHandlers(context, content, articleAudience),
    ...funnelHandlers(context),
    ...storyHandlers(content),
    ...decisioningHandlers(decisioning),
    ...autopublishHandlers(autopublish),
    ...urlHandlers(urls),
  };
}

/**
 * Demo adverts wait for the demo audiences, which are seeded in the background: so are they. Their pictures go to
 * the server's storage, where uploads go, so that both hosts serve them from the page's own origin.
 */
function seedDemoInBackground(context: ServerContext) {
  const abort = new AbortController();
  const media = {
    storage: context.storage,
    publicUrl: context.config.storage?.publicUrl,
    warn: (error: unknown) => context.logger.warn({ err: error }, 'demo pictures not stored: the demo adverts have none'),
  };
  const done = seedAdvertDemo(context.db, context.clock, abort.signal, media)
    .then(async (seeded) => {
      if (!seeded) return;
      context.logger.info('demo adverts and articles seeded');
      // The demo projects' actions take these adverts (the projects feature knows its actions), and one gets a proof.
      await featureServices(context).linkDemoAdverts?.();
      await featureServices(context).seedBatDemo?.();
    })
    .catch((error) => {
      if (!abort.signal.aborted) context.logger.error({ err: error }, 'demo adverts seeding failed');
    });
  context.onClose(async () => {
    abort.abort();
    await done;
  });
}

import type { Advert } from '@shared/contract/adverts';
import type { ServerContext } from '../../context';
import { defineFeature, type Needs } from '../../feature-wiring';
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
export const advertsFeature = defineFeature({
  name: 'adverts',
  needs: ['audienceMembership', 'articleAudience', 'linkDemoAdverts', 'seedBatDemo'],
  provides: ['advertsForUser', 'advertWrites'],
  build: buildAdverts,
});

type AdvertsNeeds = Needs<'audienceMembership' | 'articleAudience' | 'linkDemoAdverts' | 'seedBatDemo'>;

async function buildAdverts(context: ServerContext, { audienceMembership, articleAudience, ...demo }: AdvertsNeeds) {
  const content = contentService(context);
  const decisioning = decisioningService(context, audienceMembership);
  const autopublish = startAutopublish(context);
  const urls = urlParser({
    allowPrivate: context.config.urlParseAllowPrivate ?? process.env.BACKOFFICE_URL_PARSE_ALLOW_PRIVATE === 'true',
    timeoutMs: context.config.urlParseTimeoutMs,
  });
  context.onClose(() => urls.close());
  if (context.config.seedAudienceDemo) seedDemoInBackground(context, demo);

  const handlers = {
    ...advertHandlers(context, content),
    ...articleHandlers(context, content, () => articleAudience),
    ...funnelHandlers(context),
    ...storyHandlers(content),
    ...decisioningHandlers(decisioning),
    ...autopublishHandlers(autopublish),
    ...urlHandlers(urls),
  };
  return {
    handlers,
    provides: {
      // The audience debug page lists what the user would be served.
      advertsForUser: (userId: number) => decisioning.forDebug(userId),
      // Media uploads (advert-media feature) set the advert's fields through the same writes.
      advertWrites: {
        load: (id: number) => content.load('advert', id) as Promise<Advert>,
        change: (id: number, account: { id: number } | null, change: (current: Advert) => Advert) =>
          content.modify('advert', id, account, 'update', async (current) => ({ next: change(current as Advert) })),
      },
    },
  };
}

/**
 * Demo adverts wait for the demo audiences, which are seeded in the background: so are they. Their pictures go to
 * the server's storage, where uploads go, so that both hosts serve them from the page's own origin.
 */
function seedDemoInBackground(context: ServerContext, demo: Needs<'linkDemoAdverts' | 'seedBatDemo'>) {
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
      await demo.linkDemoAdverts();
      await demo.seedBatDemo();
    })
    .catch((error) => {
      if (!abort.signal.aborted) context.logger.error({ err: error }, 'demo adverts seeding failed');
    });
  context.onClose(async () => {
    abort.abort();
    await done;
  });
}

import type { Advert } from '@shared/contract/adverts';
import type { ServerContext } from '../../context';
import { defineFeature, type Needs } from '../../feature-wiring';
import { startAutopublish } from './autopublish';
import { contentService } from './content';
import { decisioningService } from './decisioning';
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
  needs: ['audienceMembership', 'articleAudience'],
  provides: ['advertsForUser', 'advertWrites'],
  build: buildAdverts,
});

async function buildAdverts(context: ServerContext, { audienceMembership, articleAudience }: Needs<'audienceMembership' | 'articleAudience'>) {
  const content = contentService(context);
  const decisioning = decisioningService(context, audienceMembership);
  const autopublish = startAutopublish(context);
  const urls = urlParser({
    allowPrivate: context.config.urlParseAllowPrivate ?? process.env.BACKOFFICE_URL_PARSE_ALLOW_PRIVATE === 'true',
    timeoutMs: context.config.urlParseTimeoutMs,
  });
  context.onClose(() => urls.close());

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

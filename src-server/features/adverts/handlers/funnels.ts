import type { ServerContext } from '../../../context';
import type { Handlers } from '../../../operations';
import { funnelService } from '../funnels';

export type FunnelHandlers = Pick<Handlers, 'funnels.get' | 'funnels.create' | 'funnels.delete' | 'funnels.append' | 'funnels.updateMinViews'>;

/** Funnels: adverts shown one after another (docs/content.md). */
export function funnelHandlers(context: ServerContext): FunnelHandlers {
  const funnels = funnelService(context.db);
  return {
    'funnels.get': async ({ params }) => funnels.get(params.id),
    'funnels.create': async ({ params }) => funnels.create(params.id),
    'funnels.delete': async ({ params, body }) => funnels.remove(params.id, body.funnelUuid),
    'funnels.append': async ({ params, body }) => funnels.append(params.advertId, body),
    'funnels.updateMinViews': async ({ params, body }) => funnels.updateMinViews(params.startAdvertId, body),
  };
}

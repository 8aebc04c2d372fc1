import type { Handlers } from '../../../operations';
import type { decisioningService } from '../decisioning';

export type DecisioningHandlers = Pick<Handlers, 'decisioning.adverts' | 'decisioning.search'>;

/** What the mobile app would be served (docs/content.md, Decisioning). */
export function decisioningHandlers(decisioning: ReturnType<typeof decisioningService>): DecisioningHandlers {
  return {
    'decisioning.adverts': async ({ body }) => decisioning.adverts(body),
    'decisioning.search': async ({ body }) => decisioning.search(body),
  };
}

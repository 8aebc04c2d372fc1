import type { laboratoryOperations } from '@shared/contract/laboratory';
import type { ServerContext } from '../../context';
import type { Handlers } from '../../operations';
import { seedLaboratoryDemo } from './demo';
import { labAccountHandlers } from './handlers/accounts';
import { labProjectHandlers } from './handlers/projects';
import { labTagHandlers } from './handlers/tags';

type LaboratoryHandlers = Pick<Handlers, keyof typeof laboratoryOperations>;

/**
 * Laboratory projects ("Alphonse", issue 25): panels read streamed from their CSV, tags whose queries (the shared
 * filter language) count panel members in SQL, and the accounts allowed on each project. The demo workspace gets
 * one project over its population once the population is there.
 */
export async function laboratoryFeature(context: ServerContext): Promise<LaboratoryHandlers> {
  if (context.config.seedAudienceDemo) {
    seedLaboratoryDemo(context).catch((error) => context.logger.error({ err: error }, 'laboratory demo seeding failed'));
  }
  return { ...labProjectHandlers(context), ...labTagHandlers(context), ...labAccountHandlers(context) };
}

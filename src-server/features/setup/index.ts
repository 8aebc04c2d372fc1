import type { ServerContext } from '../../context';
import { setupHandlers, type SetupHandlers } from './handlers/setup';

/** First start of an installation without accounts: the administrator is created by the person at the desk. */
export async function setupFeature(context: ServerContext): Promise<SetupHandlers> {
  return setupHandlers(context);
}

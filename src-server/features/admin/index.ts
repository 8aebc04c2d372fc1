import type { ServerContext } from '../../context';
import { adminHandlers, type AdminHandlers } from './handlers/accounts';

/** Account administration (ADMIN only). It has no services of its own yet. */
export async function adminFeature(context: ServerContext): Promise<AdminHandlers> {
  return adminHandlers(context);
}

import type { ServerContext } from '../../context';
import { presenceHandlers, type PresenceHandlers } from './handlers/presence';

/** Who else has a record open in an editor, relayed on the job-events stream (nothing stored). */
export function presenceFeature(context: ServerContext): PresenceHandlers {
  return presenceHandlers(context);
}

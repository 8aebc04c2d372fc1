import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import type { ServerContext } from '../../context';
import type { Handlers } from '../../operations';
import { listCsmAccounts } from './queries';

export type MetaHandlers = Pick<Handlers, 'meta.get'>;

export function metaHandlers(context: ServerContext): MetaHandlers {
  return {
    'meta.get': async () => {
      const csm = await listCsmAccounts(context.db);
      // Audiences arrive with their own issue; until then there are none.
      return { professions: [...PROFESSIONS], specialties: [...SPECIALTIES], audiences: [], csm };
    },
  };
}

import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import type { ServerContext } from '../../../context';
import type { Handlers } from '../../../operations';
import { listAudiences, listCsmAccounts } from '../queries';

export type MetaHandlers = Pick<Handlers, 'meta.get'>;

export function metaHandlers(context: ServerContext): MetaHandlers {
  return {
    'meta.get': async () => {
      const [csm, audiences] = await Promise.all([listCsmAccounts(context.db), listAudiences(context.db)]);
      return { professions: [...PROFESSIONS], specialties: [...SPECIALTIES], audiences, csm };
    },
  };
}

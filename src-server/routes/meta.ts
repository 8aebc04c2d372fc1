import { asc, sql } from 'drizzle-orm';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import type { ServerContext } from '../context';
import { accounts } from '../db/schema';
import type { Handlers } from './register';

export function metaHandlers(context: ServerContext): Pick<Handlers, 'meta.get'> {
  return {
    'meta.get': async () => {
      const csm = await context.db
        .select({ id: accounts.id, name: accounts.name })
        .from(accounts)
        .where(sql`'CSM' = ANY(${accounts.roles})`)
        .orderBy(asc(sql`lower(${accounts.name})`), asc(accounts.id));
      // Audiences arrive with their own issue; until then there are none.
      return { professions: [...PROFESSIONS], specialties: [...SPECIALTIES], audiences: [], csm };
    },
  };
}

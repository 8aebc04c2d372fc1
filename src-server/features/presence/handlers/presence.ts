import { eq, type SQL } from 'drizzle-orm';
import { contract } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { PRESENCE_MESSAGES } from '@shared/messages/presence';
import {
  PRESENCE_EDIT_OPERATION,
  PRESENCE_JOB_KIND,
  PRESENCE_MIN_INTERVAL_MS,
  PRESENCE_READ_OPERATION,
  presenceEventId,
  type PresenceRecord,
} from '@shared/rules/presence';
import { isAllowed, ROLES } from '@shared/roles';
import type { ServerContext } from '../../../context';
import { adverts, articles, audienceGroups, audiences, projects } from '../../../db/schema';
import { nameOfEditor } from '../../../db/versioning';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';

export type PresenceHandlers = Pick<Handlers, 'presence.announce'>;

/** Where each record lives (a BAT is its advert's). */
const RECORD_TABLES = {
  advert: [adverts, adverts.id],
  article: [articles, articles.id],
  audience: [audiences, audiences.id],
  group: [audienceGroups, audienceGroups.nodeId],
  project: [projects, projects.id],
  bat: [adverts, adverts.id],
} as const;

/**
 * The last accepted announce of each (account, record, state), oldest first: another one within
 * PRESENCE_MIN_INTERVAL_MS is refused. Per state, so that the 'editing' an editor sends back to a newcomer and the
 * 'left' of a closed editor always go out; that still bounds one account's relays to a few per record and interval.
 */
function announceThrottle(now: () => number) {
  const last = new Map<string, number>();
  return (key: string) => {
    const at = now();
    for (const [oldest, time] of last) {
      if (at - time < PRESENCE_MIN_INTERVAL_MS) break;
      last.delete(oldest);
    }
    if (last.has(key)) throw new HttpError(429, PRESENCE_MESSAGES.tooFrequent, { 'retry-after': String(Math.ceil(PRESENCE_MIN_INTERVAL_MS / 1000)) });
    last.set(key, at);
  };
}

async function recordExists(context: ServerContext, record: PresenceRecord, id: number): Promise<boolean> {
  const [table, column] = RECORD_TABLES[record];
  const where: SQL = eq(column, id);
  const rows = await context.db.select({ id: column }).from(table).where(where).limit(1);
  return rows.length > 0;
}

/**
 * Presence relays, stores nothing: each announce becomes a job event for the accounts that may edit the record
 * (the roles of its update operation), which their open editors filter by record. Someone who may not read the record
 * is told it does not exist, as is everyone for a missing one (404); someone who may read but not edit it is refused
 * (403), as its update would refuse them; an announce repeated too soon is refused (429).
 */
export function presenceHandlers(context: ServerContext): PresenceHandlers {
  const throttle = announceThrottle(() => context.clock.now().getTime());
  return {
    'presence.announce': async ({ params, body, account }) => {
      if (!account || !isAllowed(contract[PRESENCE_READ_OPERATION[params.record]].access, account.roles)) {
        throw new HttpError(404, PRESENCE_MESSAGES.recordNotFound);
      }
      const editing = contract[PRESENCE_EDIT_OPERATION[params.record]].access;
      if (!isAllowed(editing, account.roles)) throw new HttpError(403, MESSAGES.userNotAllowed);
      // Taken before the record is read: parallel repeats cannot pass together.
      throttle(`${account.id}:${params.record}:${params.id}:${body.state}`);
      if (!(await recordExists(context, params.record, params.id))) throw new HttpError(404, PRESENCE_MESSAGES.recordNotFound);
      const name = (await nameOfEditor(context.db, account.id)) ?? `#${account.id}`;
      context.jobEvents.publish(
        {
          kind: PRESENCE_JOB_KIND,
          id: presenceEventId(params.record, params.id),
          state: body.state === 'left' ? 'done' : 'running',
          progress: { accountId: account.id, joined: body.state === 'joined' ? 1 : 0 },
          message: name,
          at: context.clock.now().getTime(),
        },
        { roles: ROLES.filter((role) => isAllowed(editing, [role])) },
      );
      return { ok: true as const };
    },
  };
}

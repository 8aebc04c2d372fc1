import { contract } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { PRESENCE_EDIT_OPERATION, PRESENCE_JOB_KIND, presenceEventId } from '@shared/rules/presence';
import { isAllowed, ROLES } from '@shared/roles';
import type { ServerContext } from '../../../context';
import { nameOfEditor } from '../../../db/versioning';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';

export type PresenceHandlers = Pick<Handlers, 'presence.announce'>;

/**
 * Presence relays, stores nothing: each announce becomes a job event for the accounts that may edit the record
 * (the roles of its update operation), which their open editors filter by record. Someone who may not edit the
 * record is refused, as its update would refuse them.
 */
export function presenceHandlers(context: ServerContext): PresenceHandlers {
  return {
    'presence.announce': async ({ params, body, account }) => {
      const editing = contract[PRESENCE_EDIT_OPERATION[params.record]].access;
      if (!account || !isAllowed(editing, account.roles)) throw new HttpError(403, MESSAGES.userNotAllowed);
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

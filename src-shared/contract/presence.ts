import { z } from 'zod';
import { access } from '../roles';
import { PRESENCE_RECORDS } from '../rules/presence';
import { defineOperation } from './define';
import { idParam, okSchema } from './entities';

export const presenceOperations = {
  'presence.announce': defineOperation({
    method: 'POST',
    path: '/presence/:record/:id',
    summary:
      "Says that the caller has a record open in an editor ('joined', then 'editing' every 20 s) or left it: the others who may edit it see it on the job-events stream (kind 'presence'). 403 for a record the caller may not edit, 404 for a missing one or one the caller may not read, 429 for the same announce again within 3 s.",
    access: access.authenticated,
    params: z.strictObject({ record: z.enum(PRESENCE_RECORDS), id: idParam }),
    body: z.strictObject({ state: z.enum(['joined', 'editing', 'left']) }),
    response: okSchema,
  }),
};

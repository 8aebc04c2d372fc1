import { access } from '../roles';
import { defineOperation } from './define';
import { metaSchema } from './entities';

export const metaOperations = {
  'meta.get': defineOperation({
    method: 'GET',
    path: '/meta',
    summary: 'Reference data: professions, specialties, audiences, CSM accounts',
    access: access.authenticated,
    response: metaSchema,
  }),
};

import { z } from 'zod';
import { access } from '../../roles';
import { NODE_SEARCH_LIMIT } from '../../rules/audiences';
import { appUserReaders } from '../../access-rules';
import { defineOperation } from '../define';
import { idParam, shortText } from '../entities';

/** App users (the population's members): found by e-mail, reset (test accounts), and the audiences one belongs to. */

export const appUserResultSchema = z.object({ id: z.number().int(), email: z.string(), name: z.string(), relsCount: z.number().int() });

export const appUserOperations = {
  'audiences.debug': defineOperation({
    method: 'GET',
    path: '/debug/audience/:userId',
    summary: 'The audiences an app user belongs to; adverts stays empty until adverts exist',
    access: appUserReaders,
    params: z.strictObject({ userId: idParam }),
    response: z.object({
      audiences: z.array(z.object({ id: z.number().int(), name: z.string() })),
      adverts: z.array(z.object({ id: z.number().int(), name: z.string() })),
    }),
  }),

  'appUsers.byEmail': defineOperation({
    method: 'GET',
    path: '/users',
    summary: 'App users whose e-mail starts with the term (case-insensitive), at most 25',
    access: access.anyOf('CSM_LEAD'),
    query: z.strictObject({ email: shortText(254).min(1) }),
    response: z.array(appUserResultSchema),
  }),
  'appUsers.search': defineOperation({
    method: 'POST',
    path: '/search/users',
    summary: 'App user search by e-mail prefix for the live tester and test accounts, at most 25',
    access: access.anyOf('CSM_LEAD'),
    body: z.strictObject({ term: shortText(254).min(1), limit: z.number().int().min(1).max(NODE_SEARCH_LIMIT).default(NODE_SEARCH_LIMIT) }),
    response: z.array(appUserResultSchema),
  }),
  'appUsers.reset': defineOperation({
    method: 'PUT',
    path: '/user/:userId/reset',
    summary: "Delete an app user's interactions, keep the user (test accounts: CSM and CSM_LEAD)",
    access: access.allOf('CSM', 'CSM_LEAD'),
    params: z.strictObject({ userId: idParam }),
    response: z.object({ id: z.number().int(), relsCount: z.number().int() }),
  }),
};

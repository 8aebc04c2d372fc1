import { z } from 'zod';
import { ACCOUNT_PAGE_SIZE } from '../limits';
import { ADMIN_MESSAGES } from '../messages/admin';
import { access } from '../roles';
import { defineOperation } from './define';
import { accountSchema, basedOnVersion, emailField, idParam, okSchema, roleSchema, shortText, versionQuery, wholeNumber } from './entities';

export { ACCOUNT_PAGE_SIZE };

const accountIdParams = z.strictObject({ accountId: idParam });
const accountFields = {
  // Trimmed like every text field; a name of spaces only would be a blank row in the admin table.
  name: shortText(200).min(1, ADMIN_MESSAGES.nameBlank),
  username: emailField,
  nickname: shortText(200),
};

export const adminOperations = {
  'admin.roles': defineOperation({
    method: 'GET',
    path: '/admin/roles',
    summary: 'The roles an account can hold',
    access: access.anyOf('ADMIN'),
    response: z.array(roleSchema),
  }),
  'admin.accounts.list': defineOperation({
    method: 'GET',
    path: '/admin/accounts',
    summary: 'Accounts, by name, optionally filtered on name, nickname or e-mail',
    access: access.anyOf('ADMIN'),
    query: z.strictObject({
      limit: wholeNumber(1, 500).default(ACCOUNT_PAGE_SIZE),
      skip: wholeNumber(0, 10_000_000).default(0),
      term: shortText(200).optional(),
    }),
    response: z.object({ items: z.array(accountSchema), total: z.number().int() }),
  }),
  'admin.accounts.create': defineOperation({
    method: 'POST',
    path: '/admin/accounts',
    summary: 'Create an account; it receives a link to choose its password',
    access: access.anyOf('ADMIN'),
    body: z.strictObject({ ...accountFields, roles: z.array(roleSchema).max(10).default([]) }),
    response: accountSchema,
    successStatus: 201,
  }),
  'admin.accounts.update': defineOperation({
    method: 'PUT',
    path: '/admin/accounts/:accountId',
    summary: "Update name, e-mail and nickname (409 when `version` is not the account's)",
    access: access.anyOf('ADMIN'),
    params: accountIdParams,
    body: z.strictObject({ ...accountFields, ...basedOnVersion }),
    response: accountSchema,
  }),
  'admin.accounts.setRoles': defineOperation({
    method: 'PUT',
    path: '/admin/accounts/:accountId/roles',
    summary: 'Replace the roles of an account',
    access: access.anyOf('ADMIN'),
    params: accountIdParams,
    body: z.strictObject({ roles: z.array(roleSchema).max(10), ...basedOnVersion }),
    response: accountSchema,
  }),
  'admin.accounts.delete': defineOperation({
    method: 'POST',
    path: '/admin/accounts/:accountId/delete',
    summary: 'Delete an account that does not hold ADMIN, and revoke its sessions',
    access: access.anyOf('ADMIN'),
    params: accountIdParams,
    query: versionQuery,
    response: okSchema,
  }),
};

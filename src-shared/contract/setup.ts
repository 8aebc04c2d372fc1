import { z } from 'zod';
import { ADMIN_MESSAGES } from '../messages/admin';
import { access } from '../roles';
import { PASSWORD_MAX_LENGTH } from './auth';
import { defineOperation } from './define';
import { accountSchema, emailField, plainText, shortText } from './entities';

/**
 * First start of an installation that has no account (the desktop app's embedded server): the person at the
 * desk creates the administrator. The call carries a setup token that the host generated for this launch and
 * gave the server; only the host's main process knows it, so another local program cannot take the account.
 */
export const setupOperations = {
  'setup.status': defineOperation({
    method: 'GET',
    path: '/setup',
    summary: 'Whether the installation still needs its administrator, and whether this server offers the setup',
    access: access.public,
    response: z.object({ needed: z.boolean(), available: z.boolean() }),
  }),
  'setup.createAdmin': defineOperation({
    method: 'POST',
    path: '/setup/admin',
    summary: 'Create the first account, holding ADMIN, when there is none; needs the setup token of the host',
    access: access.public,
    body: z.strictObject({
      setupToken: plainText(200),
      name: shortText(200).min(1, ADMIN_MESSAGES.nameBlank),
      username: emailField,
      password: plainText(PASSWORD_MAX_LENGTH),
    }),
    response: accountSchema,
    successStatus: 201,
  }),
};

import { z } from 'zod';
import { access } from '../roles';
import { defineOperation } from './define';
import { messageSchema, plainText, sessionSchema, shortText } from './entities';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

export const authOperations = {
  'auth.signIn': defineOperation({
    method: 'POST',
    path: '/authenticate',
    summary: 'Sign in with username (e-mail) and password',
    access: access.public,
    body: z.strictObject({
      username: shortText(254),
      password: plainText(PASSWORD_MAX_LENGTH),
      /** The device token a previous sign-in of this username gave this device: its own throttling lane. */
      deviceToken: plainText(4096).optional(),
    }),
    /** `deviceToken`: kept by the device (keychain, HttpOnly cookie) and sent with its next sign-ins. */
    response: sessionSchema.extend({ deviceToken: z.string() }),
  }),
  'auth.refresh': defineOperation({
    method: 'POST',
    path: '/authenticate/refresh',
    summary: 'Exchange a refresh token for a new session (the refresh token rotates)',
    access: access.public,
    body: z.strictObject({ token: plainText(4096) }),
    response: sessionSchema,
  }),
  'auth.merge': defineOperation({
    method: 'POST',
    path: '/authenticate/merge',
    summary: 'Account merge: undocumented by the spec, answered 501',
    access: access.public,
    body: z.record(z.string(), z.unknown()).optional(),
    response: messageSchema,
  }),
  'password.reset': defineOperation({
    method: 'POST',
    path: '/password/reset',
    summary: 'Ask for a password-reset link; the same answer whether the account exists or not',
    access: access.public,
    body: z.strictObject({ username: shortText(254) }),
    response: messageSchema,
  }),
  'password.confirm': defineOperation({
    method: 'POST',
    path: '/password/confirm',
    summary: 'Set a new password with a confirmation token',
    access: access.public,
    body: z.strictObject({ confirmationToken: plainText(512), password: plainText(PASSWORD_MAX_LENGTH) }),
    response: messageSchema,
  }),
};

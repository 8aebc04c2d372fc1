import { randomBytes } from 'node:crypto';
import { RESET_TOKEN_TTL_MS, sha256 } from '../auth/tokens';
import type { ServerContext } from '../context';
import { insertPasswordLink } from './queries';

/**
 * Shared by the auth feature (reset asked on the sign-in page) and the admin feature (welcome link of a new
 * account). Rule: a feature never imports another feature's folder; what two features need lives here, in
 * src-server/accounts/, or in src-shared.
 */

export type PasswordLinkKind = 'welcome' | 'reset';

/** Mails a single-use link to choose a password, valid one hour. */
export async function sendPasswordLink(context: ServerContext, account: { id: number; email: string }, kind: PasswordLinkKind): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await insertPasswordLink(context.db, {
    tokenHash: sha256(token),
    accountId: account.id,
    expiresAt: new Date(context.clock.now().getTime() + RESET_TOKEN_TTL_MS),
  });
  const link = `${context.config.resetLinkBase.replace(/\/+$/, '')}/password/confirm?confirmationToken=${token}`;
  await context.mailer.send({
    to: account.email,
    subject: kind === 'welcome' ? 'Votre compte back-office' : 'Réinitialisation de votre mot de passe',
    text: [
      kind === 'welcome'
        ? 'Un compte back-office vient d’être créé pour vous. Choisissez votre mot de passe en suivant ce lien :'
        : 'Pour choisir un nouveau mot de passe, suivez ce lien :',
      link,
      'Ce lien est valable une heure et ne peut servir qu’une fois.',
    ].join('\n\n'),
    links: [link],
  });
}

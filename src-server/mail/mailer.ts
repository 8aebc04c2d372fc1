import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { outbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The links inside `text` (password links), so that a host printing the outbox can make them clickable. */
  links?: readonly string[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A mail kept in the outbox, as handed to the host that prints it (see formatOutboxMail in console.ts). */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/**
 * Keeps mail in the outbox table and the log, and hands each one to `onMail`: without SMTP, the host printing
 * it is the only way a password link reaches anyone, whatever the log level (the web host logs at warn).
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: Database,
    private readonly logger?: Logger,
    private readonly onMail?: (mail: OutboxMail) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(outbox).values({ recipient: message.to, subject: message.subject, body: message.text });
    this.logger?.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'mail kept in outbox');
    try {
      this.onMail?.({ to: message.to, subject: message.subject, text: message.text, links: [...(message.links ?? [])] });
    } catch (error) {
      // Printing is a courtesy: the mail is kept either way.
      this.logger?.warn({ err: error }, 'outbox mail could not be printed');
    }
  }
}

/**
 * Sends through SMTP (SMTP_URL, e.g. smtps://user:pass@host:465), in the background: a reset answer must not
 * wait on the mail server, nor tell by its delay that the account exists. Failures go to the log.
 */
export async function createSmtpMailer(url: string, from: string, logger: Logger): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text }).then(
        () => logger.info({ mail: { to: message.to, subject: message.subject } }, 'mail sent'),
        (error: unknown) => logger.error({ err: error, mail: { to: message.to, subject: message.subject } }, 'mail not sent'),
      );
    },
  };
}

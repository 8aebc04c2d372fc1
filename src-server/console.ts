import type { OutboxMail } from './mail/mailer';
import type { DemoAccount } from './seed';

/** What `npm run server -- --demo` and `npm run web` print after seeding the demo workspace. */
export function printDemoAccounts(accounts: readonly DemoAccount[]): void {
  if (!accounts.length) return;
  console.log('Demo workspace seeded. Accounts (e-mail / password):');
  for (const demo of accounts) console.log(`  ${demo.role.padEnd(21)} ${demo.email.padEnd(36)} ${demo.password}`);
}

/** Closes cleanly on Ctrl+C or a service stop, then exits. */
export function closeOnSignals(close: () => Promise<void>): void {
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** A command-line entry point: the error's message alone, and a failing exit code. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

/** An OSC 8 terminal hyperlink: the terminal shows `text` and opens `url` on click (plain text elsewhere). */
function hyperlink(url: string, text = url): string {
  return `\u001b]8;;${url}\u001b\\${text}\u001b]8;;\u001b\\`;
}

/**
 * A mail kept in the outbox as a readable block for a terminal: recipient, subject, text, with its links made
 * clickable when `hyperlinks` (a terminal that supports OSC 8; pass false for a file or a pipe).
 */
export function formatOutboxMail(mail: OutboxMail, options: { hyperlinks: boolean }): string {
  let text = mail.text;
  if (options.hyperlinks) for (const link of new Set(mail.links)) text = text.split(link).join(hyperlink(link));
  const rule = '─'.repeat(60);
  return [`── Mail (outbox, not sent) ${rule}`.slice(0, 60), `To: ${mail.to}`, `Subject: ${mail.subject}`, '', text, rule].join('\n');
}

/** The CLI's default: every outbox mail printed to stdout, links clickable on a terminal. */
export function printOutboxMail(mail: OutboxMail): void {
  console.log(formatOutboxMail(mail, { hyperlinks: Boolean(process.stdout.isTTY) }));
}

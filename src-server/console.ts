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

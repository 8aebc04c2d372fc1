import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the embedded server stops when the app quits: asked by a message (Windows delivers no SIGTERM, and a signal
 * there killed it without its orderly close), waited for, bounded; and how the next start tells whether the last
 * one ended so.
 */

/** How long the app's quit waits for the embedded server's orderly close before it kills it. */
export const EMBEDDED_CLOSE_TIMEOUT_MS = 10_000;

/** The message the embedded server's entry (src-main/embedded-server.ts) closes on. */
export const CLOSE_MESSAGE = { type: 'close' } as const;

/** Electron's utility process as far as the quit goes (Node's ChildProcess through a small adapter in tests). */
export interface ClosableChild {
  postMessage(message: unknown): void;
  once(event: 'exit', listener: () => void): unknown;
  kill(): boolean;
}

/** Asks the server to close and waits for its exit; answers 'killed' when it had not gone within the bound. */
export function closeEmbeddedServer(child: ClosableChild, timeoutMs = EMBEDDED_CLOSE_TIMEOUT_MS): Promise<'closed' | 'killed'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill();
      resolve('killed');
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve('closed');
    });
    try {
      child.postMessage(CLOSE_MESSAGE);
    } catch {
      // Already gone: its exit answers.
    }
  });
}

/** PostgreSQL's control file: `state` (DBState) at byte 16; 1 shut down, 2 shut down in recovery (src/include/catalog/pg_control.h). */
const STATE_OFFSET = 16;
const SHUT_DOWN_STATES = new Set([1, 2]);

/**
 * How the database folder's last run ended, read before the server opens it: 'new' (no database yet), 'clean' (an
 * orderly close wrote its shutdown checkpoint) or 'unclean' (killed: this start replays its write-ahead log).
 */
export function previousClose(dataDir: string): 'new' | 'clean' | 'unclean' {
  let control: Buffer;
  try {
    control = readFileSync(join(dataDir, 'global', 'pg_control'));
  } catch {
    return 'new';
  }
  return control.length > STATE_OFFSET + 4 && SHUT_DOWN_STATES.has(control.readInt32LE(STATE_OFFSET)) ? 'clean' : 'unclean';
}

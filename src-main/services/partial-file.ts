import type { WriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';

/**
 * Files written under a temporary name and renamed once complete, so a failure or a cancel never leaves half a
 * file under the name the user chose.
 */
export const partialPathOf = (path: string) => `${path}.${process.pid}.partial`;

/** The complete file takes its name. */
export const keepPartialFile = (temporary: string, path: string) => rename(temporary, path);

/**
 * Removes what a failed write left. Its stream is closed first: destroyed while still opening, the stream would
 * create the file after the removal. Best effort: the write's own error is the one worth reporting.
 */
export async function discardPartialFile(temporary: string, stream?: WriteStream): Promise<void> {
  if (stream) {
    stream.destroy();
    if (!stream.closed) await new Promise<void>((resolve) => stream.once('close', () => resolve()));
  }
  await unlink(temporary).catch(() => undefined);
}

import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoRoll from 'pino-roll';

/**
 * Log files of the desktop app and of its embedded API, in the user data folder (a packaged app has no stdout
 * anyone reads). pino writes them through pino-roll, in this thread (no worker to find inside the asar): a new
 * file past 5 MB or each day, the 5 latest kept besides the current one.
 */
export const LOG_FILE_SIZE = '5m';
export const LOG_FILES_KEPT = 5;

/**
 * What never goes into a log file, whatever a caller passes: pino's redaction of these keys (at the top and one
 * level down), then a last pass over every line read back for the diagnostics (redactLine).
 */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'token',
  'accessToken',
  'refreshToken',
  'setupToken',
  'confirmationToken',
  'authorization',
  'cookie',
  'secret',
];
const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((key) => `*.${key}`), 'req.headers.authorization', 'req.headers.cookie'];

export interface RollingLog {
  logger: Logger;
  /** The rotating file stream, for a logger that writes elsewhere too (pino.multistream), and its redaction. */
  stream: DestinationStream;
  redact: { paths: string[]; censor: string };
  /** The folder the files are in (shown on the About page). */
  dir: string;
  close(): void;
}

/** A pino logger writing `<dir>/<name>.<n>.log` with rotation. */
export async function createRollingLog(options: { dir: string; name: string; level?: string }): Promise<RollingLog> {
  const stream = await pinoRoll({
    file: join(options.dir, options.name),
    extension: '.log',
    size: LOG_FILE_SIZE,
    frequency: 'daily',
    mkdir: true,
    limit: { count: LOG_FILES_KEPT },
  });
  // The file opens asynchronously: ready before anyone may flush or close it.
  if (stream.fd < 0) await new Promise<void>((resolve) => stream.once('ready', resolve));
  const redact = { paths: REDACT_PATHS, censor: '[secret]' };
  const logger = pino({ level: options.level ?? 'info', redact }, stream);
  return {
    logger,
    stream,
    redact,
    dir: options.dir,
    close() {
      stream.flushSync();
      stream.end();
    },
  };
}

/** Bearer tokens, JWTs, `password=…`/`token: …` pairs and credentials in URLs, masked in a line of text. */
export function redactLine(line: string): string {
  return line
    .replace(/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, '$1 [secret]')
    .replace(/\beyJ[\w-]*\.[\w-]*\.[\w-]*/g, '[secret]')
    .replace(/([a-z][\w+.-]*:\/\/)[^/\s:@"]+:[^/\s@"]+@/gi, '$1[secret]@')
    .replace(
      /("?(?:[\w-]*(?:password|token|secret|authorization|cookie|signature)[\w-]*)"?\s*[:=]\s*)("[^"]*"|[^\s,&}"]+)/gi,
      (_match, key: string, value: string) => `${key}${value.startsWith('"') ? '"[secret]"' : '[secret]'}`,
    );
}

/**
 * The last `count` lines of the log files in `dir` (the main process's and the embedded API's, in time order),
 * each passed through redactLine. Only the 4 newest files, and at most their last 256 KB, are read.
 */
export async function lastLogLines(dir: string, count = 200): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(
    names.filter((name) => name.endsWith('.log')).map(async (name) => ({ path: join(dir, name), mtime: (await stat(join(dir, name))).mtimeMs })),
  );
  files.sort((a, b) => b.mtime - a.mtime);
  const lines: { time: number; text: string }[] = [];
  for (const file of files.slice(0, 4)) {
    for (const text of (await readTail(file.path, 256 * 1024)).split('\n')) {
      if (text.trim() !== '') lines.push({ time: timeOf(text) ?? file.mtime, text });
    }
  }
  lines.sort((a, b) => a.time - b.time);
  return lines.slice(-count).map((line) => redactLine(line.text));
}

/** pino's `time` (epoch milliseconds) of a JSON line. */
function timeOf(line: string): number | null {
  const time = /"time":(\d+)/.exec(line)?.[1];
  return time ? Number(time) : null;
}

async function readTail(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    // A tail cut mid-line starts at the next full line.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
}

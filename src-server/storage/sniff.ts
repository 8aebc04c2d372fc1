import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';

/** Enough bytes for every signature file-type knows (its own sample size). */
export const SNIFF_BYTES = 4100;

export interface Peeked {
  head: Uint8Array;
  /** file-type's verdict on the head: extension and MIME type, undefined when it knows none. */
  sniffed: { ext: string; mime: string } | undefined;
  /** The whole stream again, head first: nothing read is lost, nothing more is held. */
  body: Readable;
  /**
   * Reads what is left of the source and drops it; resolves at its end (or its failure). The source is held by
   * peek's reader, so `resume()` on it no longer reads anything: a refused upload is drained through here.
   */
  drain(): Promise<void>;
}

export interface PeekOptions {
  /** Runs once the source is exhausted and may throw (a size limit hit), failing whoever reads the body. */
  afterEnd?: () => void;
  /**
   * When the body is destroyed before the source's end: true reads the rest and drops it (a request body, which
   * must be read to its end for the answer to reach the client, and whose parser waits for it); false releases
   * (destroys) the source, as for a stored file a client stopped downloading.
   */
  drainOnStop?: boolean;
}

/**
 * Reads the first bytes of a stream to learn its type from them (never from the name), then hands the whole
 * stream on. Only the head is held; the rest flows through with back-pressure. The body handed out always has an
 * 'error' listener: a consumer learns a failure through its own (stream/promises pipeline), and a failure nobody
 * else listens to (the client went away, the size limit) never becomes an uncaught 'error' that stops the process.
 */
export async function peek(source: Readable, options: PeekOptions = {}): Promise<Peeked> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const first = Buffer.concat(chunks);
  const head = first.subarray(0, SNIFF_BYTES);
  const sniffed = await fileTypeFromBuffer(head);
  async function* all() {
    if (first.length) yield first;
    while (!done) {
      const next = await iterator.next();
      if (next.done) done = true;
      else yield next.value;
    }
    options.afterEnd?.();
  }
  let draining: Promise<void> | undefined;
  const drain = () =>
    (draining ??= (async () => {
      try {
        while (!done) if ((await iterator.next()).done) done = true;
      } catch {
        // The source failed (the client went away): there is nothing more to read.
        done = true;
      }
    })());
  const body = Readable.from(all(), { objectMode: false });
  body.on('error', () => undefined);
  body.on('close', () => {
    if (done) return;
    if (options.drainOnStop) void drain();
    // A consumer that stops early releases the source too.
    else void iterator.return?.();
  });
  return { head, sniffed, body, drain };
}

/** The type a stored file is served with, from its bytes: a known signature, an SVG, plain text, or bytes. */
export function servedType(head: Uint8Array, sniffed: Peeked['sniffed']): string {
  if (sniffed && sniffed.ext !== 'xml') return sniffed.mime;
  if (head.includes(0)) return 'application/octet-stream';
  const text = new TextDecoder().decode(head);
  if (/<svg[\s>]/i.test(text)) return 'image/svg+xml';
  return 'text/plain; charset=utf-8';
}
